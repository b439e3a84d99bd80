package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.latencylab.engine.stats.Metric;

import java.util.Map;

/**
 * Totals of a load step. Accounting counts ({@code sent} … {@code cancelled}) cover every request of the step,
 * warmup and cooldown included, and always satisfy {@code sent = succeeded + failed + cancelled}. Latencies,
 * goodput, error rate and the tier cover only the measured requests (intended start outside warmup and
 * cooldown). Immutable and thread-safe.
 *
 * @param mode             open or closed loop
 * @param elapsedSeconds   from the step's start to the end of its last request, s
 * @param measuredSeconds  scheduling time minus warmup and cooldown, s (the denominator of the rates below)
 * @param targetRateRps    mean target rate over the scheduling time, requests/s (0 in closed loop)
 * @param achievedRateRps  measured requests sent / measuredSeconds, requests/s
 * @param sent             requests handed to the client (each has an id and exactly one record)
 * @param succeeded        successful requests
 * @param failed           failed requests
 * @param failedByKind     failed requests by error kind id (e.g. {@code "rate_limited"}), unmodifiable
 * @param cancelled        cancelled requests (run cancelled, or still in flight at the drain timeout)
 * @param dropped          open-loop arrivals dropped at a cap, or still waiting at a cap when the
 *                         duration ended (never sent; not in {@code sent})
 * @param excluded         requests in warmup or cooldown (in the counts above, not in the statistics)
 * @param http429Attempts  attempts refused with 429, retried ones included
 * @param retries          retry attempts
 * @param serverErrors     requests that failed with an HTTP 5xx status
 * @param deadlineMisses   first-token deadline misses (each also counted as failed, kind {@code timeout})
 * @param goodput          measured requests that succeeded and met every SLO
 * @param goodputRps       goodput per second of the measured window, requests/s; when scheduling stopped before the
 *                         duration ended, per second from the window's start until the last measured request
 *                         ended if that was later (the server was still serving the window's requests)
 * @param errorRate        measured failed / (succeeded + failed), in [0, 1]
 * @param ttft             TTFT from the intended start
 * @param e2e              E2E from the intended start
 * @param ttftSend         TTFT from the actual send
 * @param e2eSend          E2E from the actual send
 * @param dispatchLag      client dispatch lag (actual send − intended start)
 * @param tpot             time per output token
 * @param ttfb             time to first byte from the actual send
 * @param tierMetric       id of the metric the tier is judged on
 * @param tier             tier of the P95 of {@code tierMetric}, or null without samples
 * @param stopReason       why scheduling stopped: {@code duration}, {@code requests}, {@code cancelled} or
 *                         {@code auto-stop: …} with the rule that fired, or {@code overload: …} (an open loop that
 *                         reached {@code LoadRun.OVERLOAD_IN_FLIGHT} requests in flight)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadTotals(LoadMode mode, double elapsedSeconds, double measuredSeconds, double targetRateRps,
                         double achievedRateRps, long sent, long succeeded, long failed,
                         Map<String, Long> failedByKind, long cancelled, long dropped, long excluded,
                         long http429Attempts, long retries, long serverErrors, long deadlineMisses, long goodput,
                         double goodputRps, double errorRate, LatencyPercentiles ttft, LatencyPercentiles e2e,
                         LatencyPercentiles ttftSend, LatencyPercentiles e2eSend, LatencyPercentiles dispatchLag,
                         LatencyPercentiles tpot, LatencyPercentiles ttfb, String tierMetric, String tier,
                         String stopReason) {
    public LoadTotals {
        failedByKind = failedByKind == null ? Map.of() : Map.copyOf(failedByKind);
        if (sent != succeeded + failed + cancelled) {
            throw new IllegalArgumentException("accounting: sent " + sent + " != succeeded " + succeeded
                    + " + failed " + failed + " + cancelled " + cancelled);
        }
    }

    /**
     * @param metric a metric
     * @return its percentiles
     */
    public LatencyPercentiles percentiles(Metric metric) {
        return switch (metric) {
            case TTFT_FROM_INTENDED -> ttft;
            case E2E_FROM_INTENDED -> e2e;
            case TTFT -> ttftSend;
            case E2E -> e2eSend;
            case DISPATCH_LAG -> dispatchLag;
            case TPOT -> tpot;
            case TTFB -> ttfb;
            default -> throw new IllegalArgumentException("load totals keep no " + metric.id());
        };
    }
}
