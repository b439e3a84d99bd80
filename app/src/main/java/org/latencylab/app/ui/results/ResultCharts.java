package org.latencylab.app.ui.results;

import io.fair_acc.chartfx.XYChart;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.PowerLawChart;
import org.latencylab.charts.TimeSeriesChart;
import org.latencylab.charts.data.PowerLawFit;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.data.TierBand;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.stats.LatencyCdf;
import org.latencylab.engine.stats.SecondSeries;
import org.latencylab.engine.stats.Tier;
import org.latencylab.engine.stats.TierTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the engine's result model of a step ({@link RunResult.StepOutcome}) into the inputs of the charts module's
 * builders (no statistics and no chart code of its own). The same functions feed the live charts and the offscreen
 * copies rendered for PNG export. Call on the JavaFX thread.
 */
public final class ResultCharts {
    /** Name of the measured sweep series (P50 TTFT per context length). */
    public static final String SWEEP_SERIES = "P50 TTFT";
    private static final Quantity MS_TTFT = Quantity.of("TTFT", "ms");

    private ResultCharts() {
    }

    /** @param yScale probability or percentile axis @param theme look @return an empty CDF chart of TTFT and E2E */
    public static CdfChart cdf(CdfChart.YScale yScale, ChartTheme theme) {
        return new CdfChart("Latency distribution (TTFT, E2E)", Quantity.of("Latency", "ms"), yScale, true, theme);
    }

    /** @param theme look @return an empty TTFT-over-time chart */
    public static TimeSeriesChart timeSeries(ChartTheme theme) {
        return new TimeSeriesChart("TTFT over time (per second)", MS_TTFT, false, theme);
    }

    /** @param theme look @return an empty sweep chart (log-log) */
    public static PowerLawChart sweep(ChartTheme theme) {
        return new PowerLawChart("Sweep: P50 TTFT vs context", Quantity.of("Context", "tokens"),
                MS_TTFT, theme);
    }

    /** @param c chart @param s the step shown (its TTFT and E2E distributions), or null */
    public static void fill(CdfChart c, RunResult.StepOutcome s) {
        List<SampleSet> sets = new ArrayList<>();
        if (s != null) {
            for (String m : List.of("ttft", "e2e")) {
                LatencyCdf cdf = s.cdfs().get(m);
                if (cdf != null && cdf.valuesMs().length > 0) {
                    sets.add(new SampleSet(MetricGlossary.displayName(m), cdf.valuesMs()));
                }
            }
        }
        c.update(sets);
    }

    /**
     * @param c     chart
     * @param s     the step shown: its per-second P50 and maximum of the tier metric, or null
     * @param tiers tier table drawn as bands (only tiers up to the largest value are drawn)
     */
    public static void fill(TimeSeriesChart c, RunResult.StepOutcome s, TierTable tiers) {
        double top = fillLines(c, s);
        c.setTierBands(top < 0 ? List.of() : bands(tiers, top));
    }

    /**
     * Draws the lines of {@link #fill(TimeSeriesChart, RunResult.StepOutcome, TierTable)} and leaves the tier bands
     * as they are (a live view adds the bands' nodes in a pulse of their own the first time).
     *
     * @param c chart
     * @param s the step shown: its per-second P50 and maximum of the tier metric, or null
     * @return the largest value drawn, ms (0 when no second has a value), or -1 when there is nothing to draw
     */
    public static double fillLines(TimeSeriesChart c, RunResult.StepOutcome s) {
        SecondSeries d = s == null ? null : s.perSecond();
        if (d == null || d.size() == 0) {
            c.update(List.of());
            return -1;
        }
        String name = MetricGlossary.displayName(d.metric());
        double[] mid = new double[d.size()];
        for (int i = 0; i < mid.length; i++) {
            mid[i] = d.seconds()[i] + 0.5;
        }
        c.update(List.of(new Series("P50 " + name, mid, d.p50Ms()), new Series("max " + name, mid, d.maxMs())));
        double top = 0;
        for (double v : d.maxMs()) {
            if (Double.isFinite(v)) {
                top = Math.max(top, v);
            }
        }
        return top;
    }

    /**
     * @param tiers the tier table the run is judged with
     * @param top   largest value on the chart, ms
     * @return bands from 0 up to the tier that holds {@code top}
     */
    public static List<TierBand> bands(TierTable tiers, double top) {
        List<TierBand> out = new ArrayList<>();
        double lower = 0;
        for (Tier t : tiers.tiers()) {
            double upper = t.unbounded() ? Math.max(lower * 2, top * 1.1) : t.upperMillis();
            if (top <= 0) {
                break;
            }
            out.add(new TierBand(t.name(), lower, Math.min(upper, Math.max(top * 1.1, lower + 1))));
            if (upper >= top) {
                break;
            }
            lower = upper;
        }
        return out;
    }

    /** @param c chart @param s the step shown: a sweep's per-length points and the engine's fit, or anything else */
    public static void fill(PowerLawChart c, RunResult.StepOutcome s) {
        if (s == null || !(s.result() instanceof SweepRunner.SweepResult sw) || sw.points().isEmpty()) {
            c.update(List.of(), List.of());
            return;
        }
        List<Series> measured = org.latencylab.charts.results.ResultCharts.sweepSeries(sw);
        List<PowerLawFit> fits = new ArrayList<>();
        double[] x = measured.get(0).x();
        if (sw.fitP50() != null && x.length > 0) {
            fits.add(org.latencylab.charts.results.ResultCharts.fitOf("P50", sw.fitP50(), x[0] / 1.25,
                    x[x.length - 1] * 1.25));
        }
        c.update(List.of(measured.get(0)), fits);
    }

    /**
     * Builds a filled chart for export.
     *
     * @param kind   which chart
     * @param d      the step shown, or null
     * @param stats  tier table of the run
     * @param yScale CDF y scale
     * @param theme  look
     * @return the chart, filled
     */
    public static XYChart build(Kind kind, RunResult.StepOutcome d, TierTable stats, CdfChart.YScale yScale,
                                ChartTheme theme) {
        return switch (kind) {
            case CDF -> {
                CdfChart c = cdf(yScale, theme);
                fill(c, d);
                yield c.chart();
            }
            case TIME -> {
                TimeSeriesChart c = timeSeries(theme);
                fill(c, d, stats);
                yield c.chart();
            }
            case SWEEP -> {
                PowerLawChart c = sweep(theme);
                fill(c, d);
                yield c.chart();
            }
        };
    }

    /** The charts of the results view. */
    public enum Kind {
        /** TTFT and E2E CDF. */
        CDF,
        /** TTFT over time. */
        TIME,
        /** Sweep points, fit and band. */
        SWEEP
    }
}
