package org.latencylab.engine.compare;

import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.RequestStats;
import org.latencylab.engine.stats.Slo;
import org.latencylab.engine.stats.StatsConfig;
import org.latencylab.engine.stats.StatsReport;
import org.latencylab.engine.stats.TierTable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Ranks endpoints by the P95 of one metric (lower is better) and tests every pair of neighbours: see the package
 * documentation for the method. Endpoints without a successful request rank last. Stateless and thread-safe.
 */
public final class EndpointRanking {
    /** How neighbours are tested, as shown in tables and reports. */
    public static final String METHOD = "95 % percentile-bootstrap interval of the P95 difference (2000 resamples,"
            + " Efron & Tibshirani 1993 ch. 13); Mann-Whitney U p-value (Commons Math) alongside";

    private EndpointRanking() {
    }

    /**
     * One endpoint's line of the ranking. Times are percentile estimates with 95 % order-statistic intervals
     * (see {@link PercentileEstimate}); null when the endpoint had no successful request.
     *
     * @param rank          1 = best
     * @param endpoint      endpoint name
     * @param description   what it is (simulator profile and URL, or the URL)
     * @param sent          requests sent
     * @param succeeded     successful requests
     * @param errorRate     failed / (succeeded + failed), NaN when none finished
     * @param ttftP50       TTFT P50
     * @param ttftP95       TTFT P95
     * @param ttftP99       TTFT P99
     * @param e2eP50        E2E P50
     * @param e2eP95        E2E P95
     * @param e2eP99        E2E P99
     * @param tier          tier of the ranking metric's P95 on the default tier table, or null
     * @param sloAttainment share of judged requests that met every SLO (failed requests count as misses,
     *                      cancelled ones are not judged), in [0, 1]; NaN when no SLO was set or nothing judged
     */
    public record Row(int rank, String endpoint, String description, long sent, long succeeded, double errorRate,
                      PercentileEstimate ttftP50, PercentileEstimate ttftP95, PercentileEstimate ttftP99,
                      PercentileEstimate e2eP50, PercentileEstimate e2eP95, PercentileEstimate e2eP99, String tier,
                      double sloAttainment) {
        /**
         * @param metric {@code ttft} or {@code e2e}
         * @return the P95 estimate of that metric, or null
         */
        public PercentileEstimate p95(String metric) {
            return "e2e".equals(metric) ? e2eP95 : ttftP95;
        }
    }

    /**
     * The test of two neighbours in the ranking.
     *
     * @param better        the endpoint ranked higher
     * @param worse         the endpoint ranked right below it
     * @param difference    bootstrap interval of {@code P95(worse) − P95(better)}, ns
     * @param mannWhitneyP  two-sided Mann–Whitney U p-value of the two samples
     * @param significant   true when the bootstrap interval excludes 0
     */
    public record NeighbourTest(String better, String worse, BootstrapDifference.Interval difference,
                                double mannWhitneyP, boolean significant) {
    }

    /**
     * The ranking.
     *
     * @param metric     metric ranked on ({@code ttft} or {@code e2e})
     * @param method     how neighbours were tested
     * @param rows       rows, best first
     * @param neighbours one test per pair of adjacent rows (both with samples)
     */
    public record Ranking(String metric, String method, List<Row> rows, List<NeighbourTest> neighbours) {
    }

    /**
     * @param byEndpoint   records per endpoint name (any outcome), in a stable order
     * @param descriptions what each endpoint is, by name (may miss names)
     * @param metric       {@code ttft} or {@code e2e}
     * @param slos         SLOs for the attainment column (may be empty)
     * @param seed         bootstrap seed
     * @return the ranking
     * @throws IllegalArgumentException when the metric is neither ttft nor e2e
     */
    public static Ranking rank(Map<String, List<RequestRecord>> byEndpoint, Map<String, String> descriptions,
                               String metric, List<Slo> slos, long seed) {
        if (!"ttft".equals(metric) && !"e2e".equals(metric)) {
            throw new IllegalArgumentException("rankBy must be ttft or e2e, was '" + metric + "'");
        }
        Metric m = Metric.fromId(metric);
        StatsConfig config = StatsConfig.defaults().withSlos(slos);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, List<RequestRecord>> e : byEndpoint.entrySet()) {
            StatsReport s = RequestStats.summarize(e.getValue(), config);
            MetricSummary ttft = s.summary(Metric.TTFT).orElse(null);
            MetricSummary e2e = s.summary(Metric.E2E).orElse(null);
            MetricSummary ranked = m == Metric.E2E ? e2e : ttft;
            String tier = ranked == null || ranked.count() == 0 ? null
                    : TierTable.DEFAULT.classify(ranked.p(95).valueNanos()).name();
            rows.add(new Row(0, e.getKey(), descriptions.getOrDefault(e.getKey(), e.getKey()), s.sent(), s.succeeded(),
                    s.errorRate(), p(ttft, 50), p(ttft, 95), p(ttft, 99), p(e2e, 50), p(e2e, 95), p(e2e, 99), tier,
                    attainment(e.getValue(), slos)));
        }
        rows.sort(Comparator.comparingLong((Row r) -> r.p95(metric) == null ? Long.MAX_VALUE : r.p95(metric).valueNanos()));
        List<Row> ranked = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            ranked.add(new Row(i + 1, r.endpoint(), r.description(), r.sent(), r.succeeded(), r.errorRate(), r.ttftP50(),
                    r.ttftP95(), r.ttftP99(), r.e2eP50(), r.e2eP95(), r.e2eP99(), r.tier(), r.sloAttainment()));
        }
        List<NeighbourTest> tests = new ArrayList<>();
        MannWhitneyUTest mwu = new MannWhitneyUTest();
        for (int i = 0; i + 1 < ranked.size(); i++) {
            Row a = ranked.get(i);
            Row b = ranked.get(i + 1);
            long[] sa = samples(byEndpoint.get(a.endpoint()), m);
            long[] sb = samples(byEndpoint.get(b.endpoint()), m);
            if (sa.length == 0 || sb.length == 0) {
                continue;
            }
            BootstrapDifference.Interval d = BootstrapDifference.of(sa, sb, 95, 0.95,
                    BootstrapDifference.DEFAULT_RESAMPLES, seed + i);
            double p = mwu.mannWhitneyUTest(toDouble(sa), toDouble(sb));
            tests.add(new NeighbourTest(a.endpoint(), b.endpoint(), d, p, d.excludesZero()));
        }
        return new Ranking(metric, METHOD, ranked, tests);
    }

    /**
     * @param records requests of one endpoint
     * @param slos    SLOs
     * @return share of judged requests meeting every SLO, or NaN
     */
    static double attainment(List<RequestRecord> records, List<Slo> slos) {
        if (slos.isEmpty()) {
            return Double.NaN;
        }
        long judged = 0;
        long met = 0;
        for (RequestRecord r : records) {
            if (r.outcome() == Outcome.CANCELLED) {
                continue;
            }
            judged++;
            if (slos.stream().allMatch(s -> s.meets(r))) {
                met++;
            }
        }
        return judged == 0 ? Double.NaN : (double) met / judged;
    }

    /**
     * @param records requests (any outcome)
     * @param m       a per-request metric
     * @return the metric's values of the successful requests, ns
     */
    public static long[] samples(List<RequestRecord> records, Metric m) {
        return records.stream().filter(RequestRecord::succeeded).mapToLong(m::valueNanos).filter(v -> v >= 0).toArray();
    }

    private static double[] toDouble(long[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    private static PercentileEstimate p(MetricSummary s, double percentile) {
        return s == null || s.count() == 0 ? null : s.p(percentile);
    }
}
