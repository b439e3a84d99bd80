package org.latencylab.engine.client;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One request's W3C Trace Context (https://www.w3.org/TR/trace-context/, section 3.2 "traceparent Header"): a
 * random 16-byte trace id and 8-byte parent span id, sent as {@code traceparent: 00-<trace-id>-<parent-id>-01}
 * (version 00, flag {@code sampled}, so that a server that traces samples the request). A {@code tracestate} header
 * configured on the endpoint is left as it is (passed through). Immutable and thread-safe.
 *
 * @param traceId 32 lower-case hex digits, not all zero
 * @param spanId  16 lower-case hex digits, not all zero
 */
record TraceParent(String traceId, String spanId) {
    private static final HexFormat HEX = HexFormat.of();

    TraceParent {
        if (traceId.length() != 32 || spanId.length() != 16) {
            throw new IllegalArgumentException("trace id needs 32 and span id 16 hex digits, was '" + traceId
                    + "' and '" + spanId + "'");
        }
    }

    /** @return a new context; the spec forbids all-zero ids, so a zero draw is replaced by 1 */
    static TraceParent random() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long hi = r.nextLong();
        long lo = r.nextLong();
        long span = r.nextLong();
        if (hi == 0 && lo == 0) {
            lo = 1;
        }
        if (span == 0) {
            span = 1;
        }
        return new TraceParent(HEX.toHexDigits(hi) + HEX.toHexDigits(lo), HEX.toHexDigits(span));
    }

    /** @return the {@code traceparent} header value */
    String header() {
        return "00-" + traceId + "-" + spanId + "-01";
    }

    /**
     * @param built a request built for sending (shared by sends of equal requests, so it is not changed)
     * @return a copy whose HTTP request (and HTTP/1.1 bytes, when it has them) carries this {@code traceparent}
     * @throws IOException when the HTTP/1.1 bytes cannot be written
     */
    PreparedRequests.Built applyTo(PreparedRequests.Built built) throws java.io.IOException {
        okhttp3.Request http = built.http().newBuilder().header("traceparent", header()).build();
        byte[] wire = built.wire() == null ? null : Http1Codec.encode(http);
        return new PreparedRequests.Built(built.endpoint(), built.request(), built.key(), http, wire);
    }
}
