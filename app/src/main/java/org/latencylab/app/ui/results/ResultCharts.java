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
import org.latencylab.engine.experiment.StatsSettings;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@link ResultData} into the inputs of the charts module's builders (no chart code of its own). The same
 * functions feed the live charts and the offscreen copies rendered for PNG export. Call on the JavaFX thread.
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

    /** @param c chart @param d data: TTFT and E2E samples of successful requests */
    public static void fill(CdfChart c, ResultData d) {
        List<SampleSet> sets = new ArrayList<>();
        if (d.ttftMs().length > 0) {
            sets.add(new SampleSet("TTFT", d.ttftMs()));
        }
        if (d.e2eMs().length > 0) {
            sets.add(new SampleSet("E2E", d.e2eMs()));
        }
        c.update(sets);
    }

    /**
     * @param c     chart
     * @param d     data: per-second P50 and max TTFT
     * @param stats tier table drawn as bands (only tiers up to the largest value are drawn)
     */
    public static void fill(TimeSeriesChart c, ResultData d, StatsSettings stats) {
        if (d.timeSeconds().length == 0) {
            c.update(List.of());
            c.setTierBands(List.of());
            return;
        }
        c.update(List.of(new Series("P50 TTFT", d.timeSeconds(), d.ttftP50Ms()),
                new Series("max TTFT", d.timeSeconds(), d.ttftMaxMs())));
        double top = 0;
        for (double v : d.ttftMaxMs()) {
            if (Double.isFinite(v)) {
                top = Math.max(top, v);
            }
        }
        c.setTierBands(bands(stats, top));
    }

    /**
     * @param stats tier table (empty = the default table)
     * @param top   largest value on the chart, ms
     * @return bands from 0 up to the tier that holds {@code top}
     */
    public static List<TierBand> bands(StatsSettings stats, double top) {
        List<StatsSettings.TierLevel> levels = stats.tiers().isEmpty() ? List.of(
                new StatsSettings.TierLevel("Tier-0", 80.0), new StatsSettings.TierLevel("Tier-1", 300.0),
                new StatsSettings.TierLevel("Tier-2", 1200.0), new StatsSettings.TierLevel("Tier-3", 4500.0),
                new StatsSettings.TierLevel("Tier-4", null)) : stats.tiers();
        List<TierBand> out = new ArrayList<>();
        double lower = 0;
        for (StatsSettings.TierLevel t : levels) {
            double upper = t.maxMs() == null ? Math.max(lower * 2, top * 1.1) : t.maxMs();
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

    /** @param c chart @param d data: sweep points and the fit with its 95 % band */
    public static void fill(PowerLawChart c, ResultData d) {
        if (d.sweepPoints().isEmpty()) {
            c.update(List.of(), List.of());
            return;
        }
        double[] x = d.sweepPoints().stream().mapToDouble(ResultData.SweepPoint::contextTokens).toArray();
        double[] y = d.sweepPoints().stream().mapToDouble(ResultData.SweepPoint::p50Ms).toArray();
        List<PowerLawFit> fits = new ArrayList<>();
        if (d.fit() != null) {
            fits.add(fit(d.fit(), x[0] / 1.25, x[x.length - 1] * 1.25));
        }
        c.update(List.of(new Series(SWEEP_SERIES, x, y)), fits);
    }

    private static PowerLawFit fit(org.latencylab.engine.fit.PowerLawFit f, double from, double to) {
        int n = 24;
        double[] xs = new double[n];
        double[] ys = new double[n];
        double[] lo = new double[n];
        double[] hi = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = Math.exp(Math.log(from) + (Math.log(to) - Math.log(from)) * i / (n - 1));
            org.latencylab.engine.fit.PowerLawFit.Band b = f.bandAt(xs[i]);
            ys[i] = b.value();
            lo[i] = Math.max(b.lower(), Double.MIN_NORMAL);
            hi[i] = b.upper();
        }
        return new PowerLawFit("P50", f.a(), f.alpha(), Math.min(f.alphaLower(), f.alpha()),
                Math.max(f.alphaUpper(), f.alpha()), f.rSquared(), org.latencylab.engine.fit.PowerLawFit.CONFIDENCE,
                new Series("fit", xs, ys), new Series("lower", xs, lo), new Series("upper", xs, hi));
    }

    /**
     * Builds a filled chart for export.
     *
     * @param kind   which chart
     * @param d      data
     * @param stats  tier table
     * @param yScale CDF y scale
     * @param theme  look
     * @return the chart, filled
     */
    public static XYChart build(Kind kind, ResultData d, StatsSettings stats, CdfChart.YScale yScale,
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
