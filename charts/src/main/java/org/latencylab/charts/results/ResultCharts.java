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
 * <p>Pure conversions ({@link #sweepSeries}, {@link #fitOf}) are thread-safe and need no
 * JavaFX toolkit; {@link #cdf} and {@link #sweep} build charts and must run on the JavaFX thread;
 * {@link #writeRunCharts} may be called from any thread except the JavaFX thread (it blocks until written).
 */
public final class ResultCharts {
    /** Width of PNG charts written into run directories, pixels. */
    public static final int WIDTH_PX = 1200;
    /** Height of PNG charts written into run directories, pixels. */
    public static final int HEIGHT_PX = 750;
    /** Points of a drawn fit curve (log-spaced). */
    public static final int CURVE_POINTS = 60;

    private ResultCharts() {
    }

    /**
     * Builds the TTFT + E2E CDF of a step from the engine's result model (its distributions).
     *
     * @param title  chart title
     * @param step   the step's outcome
     * @param yScale probability or percentile ("nines") axis
     * @param theme  light or dark
     * @return the chart region
     */
    public static Region cdf(String title, RunResult.StepOutcome step, CdfChart.YScale yScale, ChartTheme theme) {
        List<SampleSet> sets = new ArrayList<>();
        for (String m : List.of("ttft", "e2e")) {
            LatencyCdf c = step.cdfs().get(m);
            sets.add(new SampleSet(m.toUpperCase(java.util.Locale.ROOT), c == null ? new double[0] : c.valuesMs()));
        }
        return cdfOf(title, sets, yScale, theme);
    }

    private static Region cdfOf(String title, List<SampleSet> sets, CdfChart.YScale yScale, ChartTheme theme) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (SampleSet set : sets) {
            for (double v : set.values()) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        // log x only when the values span more than a decade: a log axis rounds out to whole decades and would
        // leave most of the plot empty for a narrow distribution
        boolean logX = lo > 0 && hi / lo > 10;
        CdfChart c = new CdfChart(title, Quantity.of("latency", "ms"), yScale, logX, theme);
        c.update(sets);
        return c.chart();
    }

    /**
     * @param sweep a sweep result
     * @return measured P50 and P95 TTFT (ms) against context tokens, lengths without successes left out
     */
    public static List<Series> sweepSeries(SweepRunner.SweepResult sweep) {
        List<SweepRunner.SweepPoint> ok = sweep.points().stream().filter(p -> p.succeeded() > 0).toList();
        double[] n = ok.stream().mapToDouble(SweepRunner.SweepPoint::contextTokens).toArray();
        return List.of(new Series("P50 TTFT", n, ok.stream().mapToDouble(SweepRunner.SweepPoint::p50TtftMs).toArray()),
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
     * and their bands (drawn over the measured range and out to any extrapolated length).
     *
     * @param title chart title
     * @param sweep the sweep result
     * @param theme light or dark
     * @return the chart region
     */
    public static Region sweep(String title, SweepRunner.SweepResult sweep, ChartTheme theme) {
        PowerLawChart c = new PowerLawChart(title, Quantity.of("context", "tokens"), Quantity.of("TTFT", "ms"), theme);
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
        return c.chart();
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
