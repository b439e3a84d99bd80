package org.latencylab.engine.compare;

import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.Summaries;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link BaselineSpec}: direct and gateway requests alternate one by one (concurrency 1, the order
 * rotating each round), so both see the same server state and the same drift. The overhead is reported two ways:
 * the difference of the two P50s and P95s with 95 % bootstrap intervals ({@link BootstrapDifference}), and the
 * distribution of paired differences (gateway − direct of the same round), whose P50 is the typical fixed
 * overhead. Stateless and thread-safe.
 */
public final class BaselineRunner implements StepRunner<BaselineSpec> {
    /** Metrics the overhead is reported on. */
    public static final List<Metric> METRICS = List.of(Metric.TTFB, Metric.TTFT, Metric.E2E);

    @Override
    public StepResult run(BaselineSpec spec, String label, StepContext ctx) throws InterruptedException {
        try (Targets targets = Targets.start(List.of(spec.direct(), spec.gateway()), label.hashCode());
             LlmClient client = new LlmClient(ctx.clientOptions())) {
            Map<String, List<RequestRecord>> by = InterleavedSender.send(targets.endpoints(), spec.requests(), 1,
                    spec.warmup(), label, spec.promptTokens(),
                    () -> new GenerationRequest(ctx.prompt(spec.promptTokens(), false), spec.promptTokens(),
                            spec.maxOutputTokens(), spec.stream(), Map.of()), client, ctx);
            List<RequestRecord> direct = by.get(spec.direct().name());
            List<RequestRecord> gateway = by.get(spec.gateway().name());
            List<Overhead> rows = new ArrayList<>();
            for (Metric m : METRICS) {
                if (!spec.stream() && m == Metric.TTFT) {
                    continue;
                }
                Overhead o = overhead(m, direct, gateway);
                if (o != null) {
                    rows.add(o);
                }
            }
            return new BaselineResult(label, BaselineSpec.TYPE, spec.direct().name(), spec.gateway().name(),
                    targets.descriptions(), rows);
        }
    }

    /**
     * @param m       a per-request metric
     * @param direct  the direct requests in send order
     * @param gateway the gateway requests in send order (same rounds)
     * @return the overhead, or null when either side has no value of the metric
     */
    static Overhead overhead(Metric m, List<RequestRecord> direct, List<RequestRecord> gateway) {
        long[] d = EndpointRanking.samples(direct, m);
        long[] g = EndpointRanking.samples(gateway, m);
        if (d.length == 0 || g.length == 0) {
            return null;
        }
        List<Long> paired = new ArrayList<>();
        List<RequestRecord> ds = sortedBySend(direct);
        List<RequestRecord> gs = sortedBySend(gateway);
        for (int i = 0; i < Math.min(ds.size(), gs.size()); i++) {
            RequestRecord a = ds.get(i);
            RequestRecord b = gs.get(i);
            if (a.succeeded() && b.succeeded() && m.valueNanos(a) >= 0 && m.valueNanos(b) >= 0) {
                paired.add(m.valueNanos(b) - m.valueNanos(a));
            }
        }
        MetricSummary ds50 = Summaries.of(m.id(), d);
        MetricSummary gs50 = Summaries.of(m.id(), g);
        long[] p = paired.stream().mapToLong(Long::longValue).toArray();
        return new Overhead(m.id(), ds50.p(50), ds50.p(95), gs50.p(50), gs50.p(95),
                BootstrapDifference.of(d, g, 50, 0.95, BootstrapDifference.DEFAULT_RESAMPLES, 50),
                BootstrapDifference.of(d, g, 95, 0.95, BootstrapDifference.DEFAULT_RESAMPLES, 95),
                p.length, p.length == 0 ? 0 : pct(p, 50), p.length == 0 ? 0 : pct(p, 95));
    }

    private static List<RequestRecord> sortedBySend(List<RequestRecord> rs) {
        List<RequestRecord> out = new ArrayList<>(rs);
        out.sort(java.util.Comparator.comparingLong(RequestRecord::sendNanos));
        return out;
    }

    /** Nearest-rank percentile of possibly negative values. */
    private static long pct(long[] v, double p) {
        long[] s = v.clone();
        java.util.Arrays.sort(s);
        return BootstrapDifference.nearestRank(s, p);
    }

    /**
     * The gateway's overhead on one metric.
     *
     * @param metric          metric id
     * @param directP50       direct P50 with its interval
     * @param directP95       direct P95 with its interval
     * @param gatewayP50      gateway P50 with its interval
     * @param gatewayP95      gateway P95 with its interval
     * @param p50Difference   gateway P50 − direct P50 with a 95 % bootstrap interval
     * @param p95Difference   gateway P95 − direct P95 with a 95 % bootstrap interval
     * @param pairs           rounds where both requests succeeded
     * @param pairedP50Nanos  P50 of the paired differences (gateway − direct of one round), ns
     * @param pairedP95Nanos  P95 of the paired differences, ns
     */
    public record Overhead(String metric, PercentileEstimate directP50, PercentileEstimate directP95,
                           PercentileEstimate gatewayP50, PercentileEstimate gatewayP95,
                           BootstrapDifference.Interval p50Difference, BootstrapDifference.Interval p95Difference,
                           int pairs, long pairedP50Nanos, long pairedP95Nanos) {
    }

    /**
     * What a baseline step reports.
     *
     * @param label        step label
     * @param type         {@code "baseline"}
     * @param direct       name of the direct endpoint
     * @param gateway      name of the gateway endpoint
     * @param descriptions what each endpoint is
     * @param overheads    one row per metric (TTFB, TTFT when streaming, E2E)
     */
    public record BaselineResult(String label, String type, String direct, String gateway,
                                 Map<String, String> descriptions, List<Overhead> overheads) implements StepResult {
    }
}
