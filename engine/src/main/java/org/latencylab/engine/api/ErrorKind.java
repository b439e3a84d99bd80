package org.latencylab.engine.api;

/**
 * Classification of a failed request. A failing request becomes one of these while the run goes on.
 * Thread-safe (an enum).
 */
public enum ErrorKind {
    /** The server answered with a non-2xx status other than 429. */
    HTTP_STATUS("http_status"),
    /** The server refused with 429 (after any retries the client was allowed). */
    RATE_LIMITED("rate_limited"),
    /** An error event or error object arrived inside a 2xx stream. */
    STREAM_ERROR("stream_error"),
    /** The stream ended properly but carried no generated token. */
    EMPTY_RESPONSE("empty_response"),
    /** The connection closed before the protocol's end marker. */
    TRUNCATED("truncated"),
    /** A connect, first-byte, idle-gap, total or deadline timeout fired. */
    TIMEOUT("timeout"),
    /** The response could not be parsed (bad JSON, bad framing, wrong content type). */
    PROTOCOL("protocol"),
    /** No response at all: connection refused or reset, unknown host, TLS failure. */
    CONNECTION("connection");

    private final String id;

    ErrorKind(String id) {
        this.id = id;
    }

    /** @return the lower-case name used in files and conformance cases, e.g. {@code "rate_limited"} */
    public String id() {
        return id;
    }

    /**
     * @param id a name such as {@code "timeout"}
     * @return the kind
     * @throws IllegalArgumentException when the name is unknown
     */
    public static ErrorKind fromId(String id) {
        for (ErrorKind k : values()) {
            if (k.id.equals(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown error kind '" + id + "'");
    }

    @Override
    public String toString() {
        return id;
    }
}
