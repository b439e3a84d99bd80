package org.latencylab.engine.api;

import java.time.Duration;

/**
 * How the protocol client behaves for one run: timeouts, retries and what it keeps. Immutable and thread-safe.
 *
 * <p>Timeouts of {@link Duration#ZERO} are switched off. Retries are off by default because a retried request
 * measures the retry policy, not the server; when on, a retried request's latency still counts from its first
 * attempt.
 *
 * @param connectTimeout   TCP (and TLS) connect limit; 0 = no limit
 * @param firstByteTimeout limit from send to response headers (time to first byte); 0 = no limit
 * @param idleTimeout      limit on the gap between two reads of the body (stall detection); 0 = no limit
 * @param totalTimeout     limit on the whole request, all attempts included; 0 = no limit
 * @param maxRetries       retries after a 429 or 5xx or connection failure (0 = none); >= 0
 * @param retryBaseDelay   first backoff delay; doubled per retry, with full jitter, unless the server sent
 *                         {@code Retry-After} / {@code retry-after-ms}, which is honoured
 * @param keepText         whether output and reasoning text are kept in each {@link RequestRecord}
 * @param includeUsage     whether streaming OpenAI requests ask for {@code stream_options.include_usage}
 * @param coldConnections  false (default): before a step measures, as many connections as it will keep in flight
 *                         are opened (and the client's code paths warmed) with small unrecorded requests, so no
 *                         measured request pays connect or TLS time; true: measured requests open the connections
 *                         they need, and that time is inside their TTFT and E2E. Connect, TLS and DNS times are
 *                         always recorded on their own.
 * @param trace            whether every request carries a W3C Trace Context {@code traceparent} header
 *                         (https://www.w3.org/TR/trace-context/) with a new trace id and span id, recorded in its
 *                         {@link RequestRecord} ({@code trace_id}, {@code span_id}); a {@code tracestate} header set on
 *                         the endpoint is passed through unchanged
 * @throws IllegalArgumentException on a negative duration or retry count
 */
public record ClientOptions(Duration connectTimeout, Duration firstByteTimeout, Duration idleTimeout,
                            Duration totalTimeout, int maxRetries, Duration retryBaseDelay, boolean keepText,
                            boolean includeUsage, boolean coldConnections, boolean trace) {

    /** Defaults: connect 10 s, first byte 60 s, idle 60 s, total 300 s, no retries, base delay 500 ms. */
    public static final ClientOptions DEFAULTS = new ClientOptions(Duration.ofSeconds(10), Duration.ofSeconds(60),
            Duration.ofSeconds(60), Duration.ofSeconds(300), 0, Duration.ofMillis(500), true, true, false, false);

    public ClientOptions {
        check("connectTimeout", connectTimeout);
        check("firstByteTimeout", firstByteTimeout);
        check("idleTimeout", idleTimeout);
        check("totalTimeout", totalTimeout);
        check("retryBaseDelay", retryBaseDelay);
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
        }
    }

    /** As the canonical constructor with tracing off. */
    public ClientOptions(Duration connectTimeout, Duration firstByteTimeout, Duration idleTimeout,
                         Duration totalTimeout, int maxRetries, Duration retryBaseDelay, boolean keepText,
                         boolean includeUsage, boolean coldConnections) {
        this(connectTimeout, firstByteTimeout, idleTimeout, totalTimeout, maxRetries, retryBaseDelay, keepText,
                includeUsage, coldConnections, false);
    }

    /** @param on whether requests carry a {@code traceparent} header @return a copy */
    public ClientOptions withTrace(boolean on) {
        return new ClientOptions(connectTimeout, firstByteTimeout, idleTimeout, totalTimeout, maxRetries,
                retryBaseDelay, keepText, includeUsage, coldConnections, on);
    }

    private static void check(String name, Duration d) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be a duration >= 0, was " + d);
        }
    }

    /** @param retries max retries, >= 0 @return a copy with that many retries */
    public ClientOptions withMaxRetries(int retries) {
        return new ClientOptions(connectTimeout, firstByteTimeout, idleTimeout, totalTimeout, retries,
                retryBaseDelay, keepText, includeUsage, coldConnections, trace);
    }

    /** @param total total limit @return a copy with that total timeout */
    public ClientOptions withTotalTimeout(Duration total) {
        return new ClientOptions(connectTimeout, firstByteTimeout, idleTimeout, total, maxRetries,
                retryBaseDelay, keepText, includeUsage, coldConnections, trace);
    }

    /** @param keep whether to keep text @return a copy */
    public ClientOptions withKeepText(boolean keep) {
        return new ClientOptions(connectTimeout, firstByteTimeout, idleTimeout, totalTimeout, maxRetries,
                retryBaseDelay, keep, includeUsage, coldConnections, trace);
    }

    /** @param cold whether measured requests open their own connections @return a copy */
    public ClientOptions withColdConnections(boolean cold) {
        return new ClientOptions(connectTimeout, firstByteTimeout, idleTimeout, totalTimeout, maxRetries,
                retryBaseDelay, keepText, includeUsage, cold, trace);
    }
}
