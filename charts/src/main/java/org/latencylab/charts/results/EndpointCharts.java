package org.latencylab.charts.results;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javafx.scene.layout.Region;

import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.IntervalBarChart;
import org.latencylab.charts.data.IntervalBarSeries;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.export.ChartExportException;
import org.latencylab.charts.export.ChartImages;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.compare.BaselineRunner;
import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.EndpointRanking;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.monitor.MonitorRunner;
import org.latencylab.engine.stats.PercentileEstimate;

/**
 * Charts of the multi-endpoint steps ({@code compare-endpoints}, {@code monitor}, {@code baseline}): the ranking
 * as P95 bars with their 95 % interval whiskers, and CDFs of every endpoint overlaid. Builders run on the JavaFX
 * thread; {@link #writeRunCharts} may be called from any thread (it renders offscreen). Stateless.
 */
public final class EndpointCharts {
    private EndpointCharts() {
    }

    /**
     * @param title   chart title
     * @param ranking a ranking
     * @param theme   light or dark
     * @return P50 and P95 of the ranked metric per endpoint (best first) with interval whiskers
     */
    public static Region ranking(String title, EndpointRanking.Ranking ranking, ChartTheme theme) {
        List<String> names = ranking.rows().stream().map(r -> "#" + r.rank() + " " + r.endpoint()).toList();
        boolean e2e = "e2e".equals(ranking.metric());
        String m = e2e ? "E2E" : "TTFT";
        List<IntervalBarSeries> series = List.of(
                series("P50 " + m, ranking.rows().stream().map(r -> e2e ? r.e2eP50() : r.ttftP50()).toList()),
                series("P95 " + m, ranking.rows().stream().map(r -> r.p95(ranking.metric())).toList()));
        IntervalBarChart c = new IntervalBarChart(title, Quantity.of("endpoint", "rank"),
                Quantity.of(m + " (whiskers: 95 % interval)", "ms"), theme);
        c.update(names, series);
        return c.chart();
    }

    private static IntervalBarSeries series(String name, List<PercentileEstimate> ps) {
        int n = ps.size();
        double[] v = new double[n];
        double[] lo = new double[n];
        double[] hi = new double[n];
        for (int i = 0; i < n; i++) {
            PercentileEstimate p = ps.get(i);
            v[i] = p == null ? Double.NaN : p.valueMillis();
            lo[i] = p == null ? Double.NaN : p.lowerMillis();
            hi[i] = p == null ? Double.NaN : p.upperMillis();
        }
        return new IntervalBarSeries(name, v, lo, hi);
    }

    /**
     * One metric of the successful requests of a list, in milliseconds.
     *
     * @param name    the set's name (legend)
     * @param records the requests
     * @param metric  a per-request duration in ns (negative when absent)
     * @return the samples, ms
     */
    public static SampleSet samples(String name, List<RequestRecord> records,
                                    java.util.function.ToLongFunction<RequestRecord> metric) {
        return new SampleSet(name, records.stream().filter(RequestRecord::succeeded).mapToLong(metric)
                .filter(x -> x >= 0).mapToDouble(org.latencylab.engine.api.Nanos::toMillis).toArray());
    }

    /**
     * @param title      chart title
     * @param byEndpoint records per endpoint
     * @param e2e        true for E2E, false for TTFT
     * @param theme      light or dark
     * @return the CDFs overlaid, one curve per endpoint
     */
    public static Region cdfs(String title, Map<String, List<RequestRecord>> byEndpoint, boolean e2e,
                              ChartTheme theme) {
        List<SampleSet> sets = new ArrayList<>();
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (Map.Entry<String, List<RequestRecord>> e : byEndpoint.entrySet()) {
            SampleSet s = samples(e.getKey(), e.getValue(), e2e ? RequestRecord::e2eNanos : RequestRecord::ttftNanos);
            if (s.size() == 0) {
                continue;
            }
            for (double v : s.values()) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            sets.add(s);
        }
        CdfChart c = new CdfChart(title, Quantity.of(e2e ? "E2E" : "TTFT", "ms"), CdfChart.YScale.PERCENTILE,
                lo > 0 && hi / lo > 10, theme);
        c.update(sets);
        return c.chart();
    }

    /**
     * Writes {@code ranking-<label>.png} and {@code cdf-<label>.png} for every compare-endpoints and monitor step,
     * and {@code baseline-cdf-<label>.png} for every baseline step.
     *
     * @param run     the finished run
     * @param records every request of the run
     * @return the files written
     * @throws ChartExportException when a chart cannot be rendered or written
     */
    public static List<Path> writeRunCharts(RunResult run) throws ChartExportException {
        boolean any = run.steps().stream().anyMatch(s -> s.result() instanceof CompareEndpointsRunner.CompareResult
                || s.result() instanceof MonitorRunner.MonitorResult || s.result() instanceof BaselineRunner.BaselineResult);
        if (!any) {
            return List.of();
        }
        // per-endpoint CDFs need every sample of each endpoint, which the run's step summaries do not keep
        return writeRunCharts(run, org.latencylab.engine.results.RequestLog.read(
                run.runDirectory().resolve(org.latencylab.engine.results.RunLayout.REQUESTS_JSONL)));
    }

    /**
     * Like {@link #writeRunCharts(RunResult)} with the run's records already read.
     *
     * @param run     the finished run
     * @param records every request of the run
     * @return the files written
     * @throws ChartExportException when a chart cannot be rendered or written
     */
    public static List<Path> writeRunCharts(RunResult run, List<RequestRecord> records) throws ChartExportException {
        List<Path> out = new ArrayList<>();
        for (RunResult.StepOutcome s : run.steps()) {
            EndpointRanking.Ranking ranking = null;
            boolean e2e = false;
            if (s.result() instanceof CompareEndpointsRunner.CompareResult c) {
                ranking = c.ranking();
                e2e = "e2e".equals(ranking.metric());
            } else if (s.result() instanceof MonitorRunner.MonitorResult m) {
                ranking = m.ranking();
                e2e = "e2e".equals(ranking.metric());
            } else if (!(s.result() instanceof BaselineRunner.BaselineResult)) {
                continue;
            }
            Map<String, List<RequestRecord>> by = byEndpoint(records, s.label());
            if (by.values().stream().noneMatch(l -> l.stream().anyMatch(RequestRecord::succeeded))) {
                continue;
            }
            if (ranking != null && !ranking.rows().isEmpty()) {
                EndpointRanking.Ranking r = ranking;
                Path f = run.runDirectory().resolve("ranking-" + s.label() + ".png");
                String title = "Ranking by P95 " + (e2e ? "E2E" : "TTFT") + " — " + run.name() + " / " + s.label();
                ChartImages.writePng(() -> ranking(title, r, ChartTheme.LIGHT), ResultCharts.WIDTH_PX,
                        ResultCharts.HEIGHT_PX, 1.0, f);
                out.add(f);
            }
            boolean showE2e = e2e || s.result() instanceof BaselineRunner.BaselineResult;
            Path f = run.runDirectory().resolve((s.result() instanceof BaselineRunner.BaselineResult ? "baseline-cdf-"
                    : "cdf-") + s.label() + ".png");
            String title = (showE2e ? "E2E" : "TTFT") + " per endpoint — " + run.name() + " / " + s.label();
            ChartImages.writePng(() -> cdfs(title, by, showE2e, ChartTheme.LIGHT), ResultCharts.WIDTH_PX,
                    ResultCharts.HEIGHT_PX, 1.0, f);
            out.add(f);
        }
        return out;
    }

    /**
     * @param records every request of a run
     * @param label   a multi-endpoint step's label
     * @return the step's records per endpoint (labels {@code <label>/<endpoint>}), in first-seen order
     */
    public static Map<String, List<RequestRecord>> byEndpoint(List<RequestRecord> records, String label) {
        Map<String, List<RequestRecord>> by = new java.util.LinkedHashMap<>();
        String prefix = label + "/";
        for (RequestRecord r : records) {
            if (r.label().startsWith(prefix)) {
                by.computeIfAbsent(r.label().substring(prefix.length()), k -> new ArrayList<>()).add(r);
            }
        }
        return by;
    }
}
