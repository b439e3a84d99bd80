package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One second of a load step. Counts are of requests that were dispatched (sent, dropped) or ended (all others)
 * during that second; latencies are of the requests that ended in it, from the intended start unless named
 * {@code send} — the interval semantics of an HdrHistogram interval log. Latencies are null in a second where no
 * request ended. Immutable and thread-safe.
 *
 * @param second           index from the step's start, 0 = [0 s, 1 s)
 * @param phase            {@code warmup}, {@code measure}, {@code cooldown} (by the second's start) or
 *                         {@code drain} (after scheduling stopped)
 * @param targetRateRps    target rate at the middle of the second, requests/s (0 in closed loop)
 * @param sent             requests handed to the client in the second (= achieved send rate, requests/s)
 * @param dropped          open-loop arrivals dropped at a cap or left waiting at it when the duration ended
 * @param ended            requests that ended (any outcome)
 * @param succeeded        of those, successful
 * @param failed           of those, failed (any kind)
 * @param cancelled        of those, cancelled
 * @param rateLimited      failed with 429 after all retries
 * @param serverErrors     failed with an HTTP 5xx status after all retries
 * @param http429Attempts  attempts refused with 429, retried ones included
 * @param retries          retry attempts (attempts beyond the first)
 * @param deadlineMisses   first-token deadline misses
 * @param goodput          requests that succeeded and met every SLO (= goodput, requests/s)
 * @param errorRate        failed / (succeeded + failed), or 0 when none ended
 * @param inFlight         requests in flight at the end of the second
 * @param ttftP50Ms        TTFT P50 from the intended start, ms
 * @param ttftP95Ms        TTFT P95, ms
 * @param ttftP99Ms        TTFT P99, ms
 * @param ttftJitterMs     TTFT P99 − P50, ms
 * @param e2eP50Ms         E2E P50 from the intended start, ms
 * @param e2eP95Ms         E2E P95, ms
 * @param e2eP99Ms         E2E P99, ms
 * @param e2eJitterMs      E2E P99 − P50, ms
 * @param ttftSendP99Ms    TTFT P99 from the actual send, ms
 * @param e2eSendP99Ms     E2E P99 from the actual send, ms
 * @param dispatchLagP99Ms dispatch lag (send − intended start) P99, ms
 * @param tierMetricP95Ms  P95 of the step's tier metric, ms
 * @param tier             tier name judged on {@code tierMetricP95Ms} (e.g. {@code "Tier-1"}), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadSecond(int second, String phase, double targetRateRps, long sent, long dropped, long ended,
                         long succeeded, long failed, long cancelled, long rateLimited, long serverErrors,
                         long http429Attempts, long retries, long deadlineMisses, long goodput, double errorRate,
                         int inFlight, Double ttftP50Ms, Double ttftP95Ms, Double ttftP99Ms, Double ttftJitterMs,
                         Double e2eP50Ms, Double e2eP95Ms, Double e2eP99Ms, Double e2eJitterMs,
                         Double ttftSendP99Ms, Double e2eSendP99Ms, Double dispatchLagP99Ms, Double tierMetricP95Ms,
                         String tier) {
    public LoadSecond {
        if (second < 0) {
            throw new IllegalArgumentException("second must be >= 0, was " + second);
        }
    }
}
