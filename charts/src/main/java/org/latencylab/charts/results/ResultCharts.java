package org.latencylab.charts.results;

import javafx.scene.layout.Region;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.PowerLawChart;
import org.latencylab.charts.data.PowerLawFit;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.export.ChartExportException;
import org.latencylab.charts.export.ChartImages;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSecond;
import org.latencylab.engine.stats.LatencyCdf;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.stats.SecondSeries;
import org.latencylab.engine.stats.Tier;
import org.latencylab.engine.stats.TierTable;
import org.latencylab.charts.GroupedBarChart;
import org.latencylab.charts.HeatmapChart;
import org.latencylab.charts.data.BarSeries;
import org.latencylab.engine.transport.TransportsResult;
import org.latencylab.charts.MetricNames;
import org.latencylab.charts.TimeSeriesChart;
import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.TierBand;
import org.latencylab.charts.data.TimeSpan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Chart inputs from engine results, and the PNG files of a run directory.
 *
 * <p>The one builder of a step's charts: the window's live panels, their PNG export and the PNG files of a run
 * directory (which the HTML report embeds) are drawn by the same functions here, so all three show the same chart.
 *
 * <p>Pure conversions ({@link #sweepSeries}, {@link #fitOf}, {@link #cdfSamples}, {@link #bands}) are thread-safe
 * and need no JavaFX toolkit; the builders and fills must run on the JavaFX thread;
 * {@link #writeRunCharts} may be called from any thread except the JavaFX thread (it blocks until written).
 */
public final class ResultCharts {
    /** Width of PNG charts written into run directories, pixels. */
    public static final int WIDTH_PX = 1200;
    /** Height of PNG charts written into run directories, pixels. */
    public static final int HEIGHT_PX = 750;
    /** Points of a drawn fit curve (log-spaced). */
    public static final int CURVE_POINTS = 60;
    /** Name of the measured P50 series of the sweep chart. */
    public static final String SWEEP_SERIES = "P50 TTFT";
    /** The metrics of the CDF chart, in legend order. */
    private static final List<Metric> CDF_METRICS = List.of(Metric.TTFT, Metric.E2E);

    private ResultCharts() {
    }

    /**
     * Builds the TTFT + E2E CDF of a step from the engine's result model (its distributions): the chart of the
     * window's CDF panel, of its PNG export and of {@code cdf-ttft-e2e.png} (and so of the HTML report).
     *
     * @param title  chart title
     * @param step   the step's outcome, or null for an empty chart
     * @param yScale probability or percentile ("nines") axis
     * @param theme  light or dark
     * @return the chart region
     */
    public static Region cdf(String title, RunResult.StepOutcome step, CdfChart.YScale yScale, ChartTheme theme) {
        CdfChart c = cdfChart(title, yScale, theme);
        fill(c, step);
        return c.chart();
    }

    /**
     * An empty CDF chart of TTFT and E2E latency in ms; its x axis turns logarithmic on a fill when the values span
     * enough for it ({@link CdfChart#LOG_X_MIN_SPAN}). Must run on the JavaFX thread.
     *
     * @param title  chart title
     * @param yScale probability or percentile ("nines") axis
     * @param theme  light or dark
     * @return the chart
     */
    public static CdfChart cdfChart(String title, CdfChart.YScale yScale, ChartTheme theme) {
        return new CdfChart(title, Quantity.of("latency", "ms"), yScale, true, theme);
    }

    /**
     * Draws a step's TTFT and E2E distributions (a metric without values is drawn as an empty set, so the legend
     * keeps its order). Must run on the JavaFX thread.
     *
     * @param c    the chart of {@link #cdfChart}
     * @param step the step shown, or null to empty the chart
     */
    public static void fill(CdfChart c, RunResult.StepOutcome step) {
        c.update(step == null ? List.of() : cdfSamples(step));
    }

    /**
     * @param step a step's outcome
     * @return its TTFT and E2E values in ms as chart sample sets, named by {@link MetricNames}; a metric the step did
     *         not measure has an empty set. Pure; thread-safe.
     */
    public static List<SampleSet> cdfSamples(RunResult.StepOutcome step) {
        List<SampleSet> sets = new ArrayList<>();
        for (Metric m : CDF_METRICS) {
            LatencyCdf c = step.cdfs().get(m.id());
            sets.add(new SampleSet(MetricNames.name(m.id()), c == null ? new double[0] : c.valuesMs()));
        }
        return sets;
    }

    /**
     * An empty chart of a step's tier metric per second (P50 and maximum), the window's time panel. Must run on the
     * JavaFX thread.
     *
     * @param title chart title
     * @param theme light or dark
     * @return the chart
     */
    public static TimeSeriesChart perSecondChart(String title, ChartTheme theme) {
        return new TimeSeriesChart(title, Quantity.of("TTFT", "ms"), false, theme);
    }

    /**
     * Draws a step's per-second P50 and maximum of its tier metric, with the tier table as bands up to the tier
     * that holds the largest value. Must run on the JavaFX thread.
     *
     * @param c     chart of {@link #perSecondChart}
     * @param step  the step shown, or null
     * @param tiers tier table the run is judged with
     */
    public static void fill(TimeSeriesChart c, RunResult.StepOutcome step, TierTable tiers) {
        double top = fillLines(c, step);
        c.setTierBands(top < 0 ? List.of() : bands(tiers, top));
    }

    /**
     * Draws the lines of {@link #fill(TimeSeriesChart, RunResult.StepOutcome, TierTable)} and leaves the tier bands
     * as they are (a live view adds the bands' nodes in a pulse of their own the first time). Must run on the
     * JavaFX thread.
     *
     * @param c    chart
     * @param step the step shown: its per-second P50 and maximum of the tier metric, or null
     * @return the largest value drawn, ms (0 when no second has a value), or -1 when there is nothing to draw
     */
    public static double fillLines(TimeSeriesChart c, RunResult.StepOutcome step) {
        SecondSeries d = step == null ? null : step.perSecond();
        if (d == null || d.size() == 0) {
            c.update(List.of());
            return -1;
        }
        String name = MetricNames.name(d.metric());
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
     * @return bands from 0 up to the tier that holds {@code top}. Pure; thread-safe.
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

    /**
     * @param sweep a sweep result
     * @return measured P50 and P95 TTFT (ms) against context tokens, lengths without successes left out
     */
    public static List<Series> sweepSeries(SweepRunner.SweepResult sweep) {
        List<SweepRunner.SweepPoint> ok = sweep.points().stream().filter(p -> p.succeeded() > 0).toList();
        double[] n = ok.stream().mapToDouble(SweepRunner.SweepPoint::contextTokens).toArray();
        return List.of(new Series(SWEEP_SERIES, n, ok.stream().mapToDouble(SweepRunner.SweepPoint::p50TtftMs).toArray()),
                new Series("P95 TTFT", n.clone(), ok.stream().mapToDouble(SweepRunner.SweepPoint::p95TtftMs).toArray()));
    }

    /**
     * Samples a fitted power law and its 95 % band (delta method, engine's {@code PowerLawFit.bandAt}) on a log grid.
     *
     * @param name  fit name, e.g. {@code "P50"} (shown as {@code "mean"} for a fit with an offset, which is the mean
     *              curve)
     * @param fit   the engine's fit (milliseconds against tokens)
     * @param fromN smallest context length to draw, tokens (> 0)
     * @param toN   largest, tokens (> fromN)
     * @return the chart's fit record
     */
    public static PowerLawFit fitOf(String name, org.latencylab.engine.fit.PowerLawFit fit, double fromN, double toN) {
        return fitOf(name, fit, fromN, toN, 0, Double.POSITIVE_INFINITY);
    }

    /**
     * As {@link #fitOf(String, org.latencylab.engine.fit.PowerLawFit, double, double)}, with the band clipped to
     * {@code [minY, maxY]} so that a wide interval (few context lengths leave few degrees of freedom) does not
     * squash the measured points on the chart; the legend still gives α's full interval.
     *
     * @param minY lowest band value drawn, ms (>= 0)
     * @param maxY highest band value drawn, ms
     * @return the chart's fit record
     */
    public static PowerLawFit fitOf(String name, org.latencylab.engine.fit.PowerLawFit fit, double fromN, double toN,
                                    double minY, double maxY) {
        double[] x = new double[CURVE_POINTS];
        double[] y = new double[CURVE_POINTS];
        double[] lo = new double[CURVE_POINTS];
        double[] hi = new double[CURVE_POINTS];
        double l0 = Math.log(fromN);
        double l1 = Math.log(toN);
        for (int i = 0; i < CURVE_POINTS; i++) {
            x[i] = Math.exp(l0 + (l1 - l0) * i / (CURVE_POINTS - 1));
            var band = fit.bandAt(x[i]);
            y[i] = fit.predict(x[i]);
            lo[i] = Math.min(y[i], Math.max(Math.max(band.lower(), y[i] * 1e-3), minY)); // log axes: no 0
            hi[i] = Math.max(y[i], Math.min(band.upper(), maxY));
        }
        boolean quantile = fit.estimator() == org.latencylab.engine.fit.PowerLawFit.Estimator.LOG_QUANTILE;
        // a least-squares fit with an offset is the mean curve (fitted in linear space), not the median
        String shown = fit.withOffset() && "P50".equals(name) ? "mean" : name;
        return new PowerLawFit(shown, fit.a(), fit.alpha(), fit.alphaLower(), fit.alphaUpper(), fit.rSquared(),
                org.latencylab.engine.fit.PowerLawFit.CONFIDENCE, new Series(shown, x, y),
                new Series(shown + " lower", x.clone(), lo), new Series(shown + " upper", x.clone(), hi),
                quantile ? "bootstrap" : "parametric", quantile ? "pseudo-R¹" : "R²", fit.withOffset() ? fit.c() : 0);
    }

    /**
     * Builds the sweep chart: measured P50/P95 TTFT per context length on log-log axes with the fitted power laws
     * and their bands (drawn over the measured range and out to any extrapolated length). The chart of the window's
     * sweep panel, of its PNG export and of {@code sweep-fit.png}. Must run on the JavaFX thread.
     *
     * @param title chart title
     * @param sweep the sweep result
     * @param theme light or dark
     * @return the chart region
     */
    public static Region sweep(String title, SweepRunner.SweepResult sweep, ChartTheme theme) {
        PowerLawChart c = sweepChart(title, theme);
        fill(c, sweep);
        return c.chart();
    }

    /**
     * @param title chart title
     * @param theme light or dark
     * @return an empty sweep chart (TTFT [ms] against context [tokens], log-log). Must run on the JavaFX thread.
     */
    public static PowerLawChart sweepChart(String title, ChartTheme theme) {
        return new PowerLawChart(title, Quantity.of("context", "tokens"), Quantity.of("TTFT", "ms"), theme);
    }

    /**
     * Draws a sweep's measured P50/P95 TTFT and its fitted power laws with their bands; empties the chart for null
     * or a sweep without points. Must run on the JavaFX thread.
     *
     * @param c     chart of {@link #sweepChart}
     * @param sweep the sweep result, or null
     */
    public static void fill(PowerLawChart c, SweepRunner.SweepResult sweep) {
        if (sweep == null || sweep.points().isEmpty()) {
            c.update(List.of(), List.of());
            return;
        }
        List<Series> measured = sweepSeries(sweep);
        List<PowerLawFit> fits = new ArrayList<>();
        if (sweep.fitP50() != null && measured.get(0).size() > 0) {
            double lo = sweep.points().stream().mapToDouble(SweepRunner.SweepPoint::contextTokens).min().orElse(1);
            double hi = sweep.points().stream().mapToDouble(SweepRunner.SweepPoint::contextTokens).max().orElse(2);
            for (SweepRunner.Extrapolation e : sweep.extrapolations()) {
                hi = Math.max(hi, e.contextTokens());
            }
            double minY = measured.stream().flatMapToDouble(m -> java.util.Arrays.stream(m.y())).min().orElse(1) / 2;
            double maxY = measured.stream().flatMapToDouble(m -> java.util.Arrays.stream(m.y())).max().orElse(1) * 2;
            for (SweepRunner.Extrapolation e : sweep.extrapolations()) {
                maxY = Math.max(maxY, e.p95TtftMs() * 1.5);
            }
            fits.add(fitOf("P50", sweep.fitP50(), lo, hi, minY, maxY));
            if (sweep.fitP95() != null) {
                fits.add(fitOf("P95", sweep.fitP95(), lo, hi, minY, maxY));
            }
        }
        c.update(measured, fits);
    }

    /**
     * A filled chart of one of the window's panels, for PNG export or a copy: the same builders and fills as the
     * panel itself. Must run on the JavaFX thread.
     *
     * @param kind   which chart
     * @param title  chart title
     * @param step   the step shown, or null
     * @param tiers  tier table of the run
     * @param yScale CDF y scale
     * @param theme  light or dark
     * @return the chart, filled
     */
    public static Region build(Kind kind, String title, RunResult.StepOutcome step, TierTable tiers,
                               CdfChart.YScale yScale, ChartTheme theme) {
        return switch (kind) {
            case CDF -> cdf(title, step, yScale, theme);
            case TIME -> {
                TimeSeriesChart c = perSecondChart(title, theme);
                fill(c, step, tiers);
                yield c.chart();
            }
            case SWEEP -> {
                PowerLawChart c = sweepChart(title, theme);
                fill(c, step != null && step.result() instanceof SweepRunner.SweepResult sw ? sw : null);
                yield c.chart();
            }
        };
    }

    /** The charts of a step that the window shows side by side and exports. */
    public enum Kind {
        /** TTFT and E2E CDF ({@link #cdf}). */
        CDF,
        /** The tier metric per second with tier bands ({@link #perSecondChart}). */
        TIME,
        /** Sweep points, fits and bands ({@link #sweep}). */
        SWEEP
    }

    /**
     * Latency over time of a load step: P50/P95/P99 per second of TTFT (streaming) or E2E (when no TTFT was
     * measured), from the intended start, with the tier table drawn as bands.
     *
     * @param title chart title
     * @param load  the load result
     * @param tiers tier table whose bands are drawn (bounded tiers only)
     * @param theme light or dark
     * @return the chart region
     */
    public static Region loadOverTime(String title, LoadResult load, TierTable tiers, ChartTheme theme) {
        boolean ttft = load.seconds().stream().anyMatch(s -> s.ttftP50Ms() != null);
        String m = ttft ? "TTFT" : "E2E";
        TimeSeriesChart c = new TimeSeriesChart(title, MetricNames.quantity(ttft ? "ttft_from_intended"
                : "e2e_from_intended"), true, theme);
        int n = load.seconds().size();
        double[] x = new double[n];
        double[][] y = new double[3][n];
        for (int i = 0; i < n; i++) {
            LoadSecond s = load.seconds().get(i);
            x[i] = s.second();
            Double[] v = ttft ? new Double[]{s.ttftP50Ms(), s.ttftP95Ms(), s.ttftP99Ms()}
                    : new Double[]{s.e2eP50Ms(), s.e2eP95Ms(), s.e2eP99Ms()};
            for (int k = 0; k < 3; k++) {
                y[k][i] = v[k] == null ? Double.NaN : v[k];
            }
        }
        c.update(List.of(new Series("P50 " + m, x, y[0]), new Series("P95 " + m, x.clone(), y[1]),
                new Series("P99 " + m, x.clone(), y[2])));
        List<TierBand> bands = new ArrayList<>();
        double lower = 0.1;
        for (Tier t : tiers.tiers()) {
            if (t.unbounded()) {
                break;
            }
            bands.add(new TierBand(t.name() + " ≤ " + trimMs(t.upperMillis()), lower, t.upperMillis()));
            lower = t.upperMillis();
        }
        c.setTierBands(bands);
        c.setTimeSpans(LoadSeries.phaseSpans(load.seconds()));
        return c.chart();
    }


    /**
     * Heatmap of a grid step: the grid's metric over its columns (e.g. context tokens, x) and rows (e.g.
     * concurrency, y).
     *
     * @param title chart title
     * @param grid  the grid result
     * @param theme light or dark
     * @return the chart region
     */
    public static Region gridHeatmap(String title, GridResult grid, ChartTheme theme) {
        HeatmapChart c = new HeatmapChart(title, Quantity.of(MetricNames.name(grid.columnAxis()), grid.columnUnit()),
                Quantity.of(MetricNames.name(grid.rowAxis()), grid.rowUnit()),
                Quantity.of(MetricNames.metricWithStatistic(grid.metric()), grid.unit()), false, theme);
        c.update(new HeatGrid(grid.columnValues().stream().map(ResultCharts::label).toList(),
                grid.rowValues().stream().map(ResultCharts::label).toList(), grid.matrix()));
        return c.chart();
    }

    /**
     * The bars of a transports step: one group per network profile, one bar per transport and connection mode
     * (e.g. {@code SSE HTTP/1.1 · warm}), valued at the P50 of first-screen latency in ms (NaN where a cell did
     * not run or had no success). Pure; thread-safe.
     *
     * @param result the step's result
     * @return the series, in the result's transport order, warm before cold
     */
    public static List<BarSeries> transportBars(TransportsResult result) {
        List<BarSeries> out = new ArrayList<>();
        boolean both = result.connections().size() > 1;
        for (String connection : result.connections()) {
            for (String transport : result.transports()) {
                double[] v = new double[result.networks().size()];
                String name = transport;
                for (int i = 0; i < v.length; i++) {
                    TransportsResult.Cell c = result.cell(transport, result.networks().get(i), connection);
                    v[i] = c == null || c.firstScreen().p50Ms() == null ? Double.NaN : c.firstScreen().p50Ms();
                    if (c != null) {
                        name = c.transportLabel();
                    }
                }
                out.add(new BarSeries(both ? name + " · " + connection : name, v));
            }
        }
        return out;
    }

    /**
     * The grouped bar chart of a transports step: P50 first-screen latency per network profile, one bar per
     * transport (and connection mode). Must run on the JavaFX thread.
     *
     * @param title  chart title
     * @param result the step's result
     * @param theme  light or dark
     * @return the chart region
     */
    public static Region transports(String title, TransportsResult result, ChartTheme theme) {
        GroupedBarChart c = new GroupedBarChart(title, Quantity.of("network", "profile"),
                Quantity.of("P50 first-screen latency (" + result.screen() + ")", "ms"), theme);
        c.update(result.networks(), transportBars(result));
        return c.chart();
    }

    private static String label(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String trimMs(double ms) {
        return ms >= 1000 ? label(ms / 1000) + " s" : label(ms) + " ms";
    }

    /**
     * Writes the charts of a finished run into its directory: {@code cdf-ttft-e2e.png} (every probe or load step,
     * or {@code cdf-ttft-e2e-<label>.png} when there are several), {@code sweep-fit.png} (likewise per sweep),
     * {@code load-over-time-<label>.png} per load step, {@code grid-heatmap-<label>.png} per grid step, and the
     * Pareto and batching-heatmap charts of each server-bench step ({@link ServerBenchCharts#write}).
     *
     * Every chart is drawn from the engine's result model (no request is read again); the title of a run that
     * was cancelled or interrupted says so, as its charts show only the requests that finished.
     *
     * @param run the finished run
     * @return the files written
     * @throws ChartExportException when a chart cannot be rendered or written
     */
    public static List<Path> writeRunCharts(RunResult run) throws ChartExportException {
        String partial = switch (run.status()) {
            case CANCELLED -> " (cancelled: partial)";
            case INTERRUPTED -> " (interrupted: partial)";
            default -> "";
        };
        List<Path> out = new ArrayList<>();
        long probes = run.steps().stream().filter(s -> !(s.result() instanceof SweepRunner.SweepResult)
                && !(s.result() instanceof GridResult)).count(); // a step whose result was lost counts as a probe
        long sweeps = run.steps().stream().filter(s -> s.result() instanceof SweepRunner.SweepResult).count();
        for (RunResult.StepOutcome s : run.steps()) {
            if (s.result() instanceof org.latencylab.engine.server.ServerBenchResult sb) {
                out.addAll(ServerBenchCharts.write(sb, run.runDirectory(), run.name(), WIDTH_PX, HEIGHT_PX));
                continue;
            }
            if (s.result() instanceof TransportsResult tr) {
                if (tr.cells().isEmpty()) {
                    continue;
                }
                Path f = run.runDirectory().resolve("transports-first-screen-" + s.label() + ".png");
                String title = "First-screen latency by transport and network — " + run.name();
                ChartImages.writePng(() -> transports(title, tr, ChartTheme.LIGHT), WIDTH_PX, HEIGHT_PX, 1.0, f);
                out.add(f);
                continue;
            }
            if (s.result() instanceof GridResult g) {
                Path f = run.runDirectory().resolve("grid-heatmap-" + s.label() + ".png");
                String title = MetricNames.title(MetricNames.metricWithStatistic(g.metric()) + " by "
                        + MetricNames.name(g.rowAxis()) + " and " + MetricNames.name(g.columnAxis()), run.name() + partial, s.label(),
                        s.type());
                ChartImages.writePng(() -> gridHeatmap(title, g, ChartTheme.LIGHT), WIDTH_PX, HEIGHT_PX, 1.0, f);
                out.add(f);
                continue;
            }
            if (s.result() instanceof LoadResult lr && !lr.seconds().isEmpty()) {
                Path f = run.runDirectory().resolve("load-over-time-" + s.label() + ".png");
                String title = MetricNames.title("Latency over time", run.name() + partial, s.label(), s.type());
                TierTable tiers = run.spec().stats().tierTable();
                ChartImages.writePng(() -> loadOverTime(title, lr, tiers, ChartTheme.LIGHT), WIDTH_PX, HEIGHT_PX, 1.0, f);
                out.add(f);
            }
            if (s.result() instanceof SweepRunner.SweepResult sw) {
                Path f = run.runDirectory().resolve(sweeps == 1 ? "sweep-fit.png" : "sweep-fit-" + s.label() + ".png");
                String title = MetricNames.title("TTFT vs context length (" + (sw.cold() ? "cold" : "warm") + " prompts)",
                        run.name() + partial, sweeps == 1 ? null : s.label(), s.type());
                ChartImages.writePng(() -> sweep(title, sw, ChartTheme.LIGHT), WIDTH_PX, HEIGHT_PX, 1.0, f);
                out.add(f);
            } else {
                if (s.stats() == null || s.stats().succeeded() == 0) {
                    continue;
                }
                Path f = run.runDirectory().resolve(probes == 1 ? "cdf-ttft-e2e.png" : "cdf-ttft-e2e-" + s.label() + ".png");
                String title = MetricNames.title("TTFT and E2E distribution", run.name() + partial, s.label(),
                        s.type());
                ChartImages.writePng(() -> cdf(title, s, CdfChart.YScale.PERCENTILE, ChartTheme.LIGHT), WIDTH_PX,
                        HEIGHT_PX, 1.0, f);
                out.add(f);
            }
        }
        return out;
    }
}
