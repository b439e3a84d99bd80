package org.latencylab.engine.stats;

import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.ErrorParty;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.api.TokenSource;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Statistics of a set of requests, made by {@link RequestStats#summarize}. Immutable and thread-safe.
 *
 * @param summaries               per-metric summaries over successful requests, keyed by metric id in a fixed order
 *                                ({@code ttft, time_to_first_content, ttfb, e2e, tpot, itl, itl_per_token} and, when
 *                                intended starts differ from sends, {@code ttft_from_intended, e2e_from_intended,
 *                                dispatch_lag})
 * @param sent                    requests in the set (every record is one request handed to the client)
 * @param succeeded               requests with outcome SUCCESS
 * @param failed                  requests with outcome ERROR
 * @param cancelled               requests with outcome CANCELLED
 * @param errorsByKind            failed requests per error kind (only kinds that occurred)
 * @param outputTokens            output tokens of successful requests
 * @param outputTokensBySource    those tokens split by where their count came from (server usage or tokenizer)
 * @param wallSpanNanos           earliest (intended) start to latest end over all records (a record without an end
 *                                counts to its send), ns (0 when unknown)
 * @param outputTokensPerSecond   {@code outputTokens / wall span}, tokens/s (0 when the span is 0)
 * @param requestsPerSecond       {@code sent / wall span}, requests/s
 * @param successesPerSecond      {@code succeeded / wall span}, requests/s
 * @param goodputRps              requests that succeeded and met every SLO, per second of wall span
 * @param sloResults              one result per configured SLO, in configuration order
 * @param tierMetric              metric whose P95 decided the tier
 * @param tier                    the tier, or null when the tier metric had no samples
 * @param warnings                sample-size and data warnings; never null
 * @param errorExamples           the first error message seen per error kind (only kinds that occurred), so a
 *                                report can say what went wrong without reading the requests again
 * @param errorsByParty           failed requests by whose failure they are ({@link ErrorParty#of}; only parties that
 *                                occurred)
 * @param resentByReason          requests sent once more on a new connection after their pooled connection failed
 *                                before any response byte, by reason (only reasons that occurred; see {@link Resend})
 * @param resendWastedNanos       the failed attempts' time of those requests, summed, ns
 * @param connectedRequests       requests that opened their connection inside their measured time (a cold
 *                                connection, a re-send, a server whose connections are not reused)
 * @param connectNanosTotal       their TCP (and TLS) connect time, summed, ns
 */
public record StatsReport(Map<String, MetricSummary> summaries, long sent, long succeeded, long failed, long cancelled,
                          Map<ErrorKind, Long> errorsByKind, long outputTokens,
                          Map<TokenSource, Long> outputTokensBySource, long wallSpanNanos,
                          double outputTokensPerSecond, double requestsPerSecond, double successesPerSecond,
                          double goodputRps, List<SloResult> sloResults, String tierMetric, Tier tier,
                          List<String> warnings, Map<ErrorKind, String> errorExamples,
                          Map<ErrorParty, Long> errorsByParty, Map<Resend, Long> resentByReason,
                          long resendWastedNanos, long connectedRequests, long connectNanosTotal) {

    /** Copies the collections (keeping their order) so the report is immutable. */
    public StatsReport {
        summaries = Collections.unmodifiableMap(new LinkedHashMap<>(summaries));
        errorsByKind = errorsByKind.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(errorsByKind));
        outputTokensBySource = outputTokensBySource.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(outputTokensBySource));
        sloResults = List.copyOf(sloResults);
        warnings = List.copyOf(warnings);
        errorExamples = errorExamples == null || errorExamples.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(errorExamples));
        errorsByParty = errorsByParty == null || errorsByParty.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(errorsByParty));
        resentByReason = resentByReason == null || resentByReason.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new EnumMap<>(resentByReason));
    }

    /** @return requests sent once more on a new connection ({@link #resentByReason}, summed) */
    public long resent() {
        long n = 0;
        for (long v : resentByReason.values()) {
            n += v;
        }
        return n;
    }

    /** @param metric metric id, e.g. {@code "ttft"} @return its summary, or empty when it was not computed */
    public Optional<MetricSummary> summary(String metric) {
        return Optional.ofNullable(summaries.get(metric));
    }

    /** @param metric the metric @return its summary, or empty when it was not computed */
    public Optional<MetricSummary> summary(Metric metric) {
        return summary(metric.id());
    }

    /** @return true when every SLO passed (true when there are none) */
    public boolean allSlosPassed() {
        return sloResults.stream().allMatch(SloResult::passed);
    }

    /** @return failed / (succeeded + failed), or NaN when no request finished */
    public double errorRate() {
        long finished = succeeded + failed;
        return finished == 0 ? Double.NaN : (double) failed / finished;
    }
}
