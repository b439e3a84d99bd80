package org.latencylab.engine.lens;

import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.Summaries;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Recomputes TTFT, E2E, ITL and TPOT of recorded requests under every {@link MetricDefinition}. Only successful
 * streamed requests enter (the other tools report latencies of successful requests only). Stateless and
 * thread-safe.
 */
public final class MetricLens {
    private MetricLens() {
    }

    /**
     * One definition's view of a set of requests.
     *
     * @param definition the definition
     * @param ttft       TTFT summary (ns values, one per request)
     * @param e2e        end-to-end latency summary (one per request)
     * @param itl        ITL summary (per gap or per request, see {@link MetricDefinition#itlRule()})
     * @param tpot       TPOT summary (one per request)
     */
    public record View(MetricDefinition definition, MetricSummary ttft, MetricSummary e2e, MetricSummary itl,
                       MetricSummary tpot) {
    }

    /**
     * @param records requests of any outcome and phase (only successful, streamed requests of the measured phase are
     *                used, as in the run's own statistics: warm-up and cool-down requests are skipped); not modified
     * @return one view per definition, in {@link MetricDefinition} order
     */
    public static Map<MetricDefinition, View> apply(List<RequestRecord> records) {
        List<RequestRecord> ok = records.stream().filter(MetricLens::used).toList();
        Map<MetricDefinition, View> out = new EnumMap<>(MetricDefinition.class);
        for (MetricDefinition d : MetricDefinition.values()) {
            out.put(d, new View(d, perRequest("ttft", ok, d::ttftNanos), perRequest("e2e", ok, d::e2eNanos),
                    Summaries.of("itl", itl(ok, d)), perRequest("tpot", ok, d::tpotNanos)));
        }
        return out;
    }

    /**
     * @param records requests, as for {@link #apply}
     * @return how many successful streamed measured requests carry a role-only (or otherwise text-less) first chunk before
     *         their first token, i.e. where vLLM's TTFT and LatencyLab's differ
     */
    public static long requestsWithEarlyChunk(List<RequestRecord> records) {
        return records.stream().filter(r -> used(r)
                && r.firstChunkNanos() != RequestRecord.UNSET && r.firstTokenNanos() != RequestRecord.UNSET
                && r.firstChunkNanos() < r.firstTokenNanos()).count();
    }

    /** @return whether the lens uses the request: successful, streamed, in the measured phase */
    private static boolean used(RequestRecord r) {
        return r.succeeded() && r.stream() && r.measured();
    }

    private static MetricSummary perRequest(String name, List<RequestRecord> ok,
                                            Function<RequestRecord, Long> f) {
        long[] v = new long[ok.size()];
        int n = 0;
        for (RequestRecord r : ok) {
            long x = f.apply(r);
            if (x >= 0) {
                v[n++] = x;
            }
        }
        return Summaries.of(name, java.util.Arrays.copyOf(v, n));
    }

    private static long[] itl(List<RequestRecord> ok, MetricDefinition d) {
        List<long[]> parts = new ArrayList<>();
        int total = 0;
        for (RequestRecord r : ok) {
            long[] g = d.itlNanos(r);
            parts.add(g);
            total += g.length;
        }
        long[] out = new long[total];
        int i = 0;
        for (long[] g : parts) {
            for (long x : g) {
                if (x >= 0) {
                    out[i++] = x;
                }
            }
        }
        return java.util.Arrays.copyOf(out, i);
    }
}
