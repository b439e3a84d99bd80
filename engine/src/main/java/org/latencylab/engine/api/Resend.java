package org.latencylab.engine.api;

/**
 * Why a request was sent a second time on a new connection: its pooled (reused) connection failed before any byte
 * of the response arrived, which is how a server's close of an idle keep-alive connection looks to a client that
 * reuses it (RFC 9112 §9.3.1 allows and RFC 9110 §9.2.2 describes the automatic retry of such a request). The
 * failed attempt's time is not the server's latency and is kept beside the record's latencies
 * ({@link RequestRecord#resendWastedNanos}). Thread-safe (an enum).
 */
public enum Resend {
    /** Sent once (or re-sent for another reason, e.g. a configured retry after 429). */
    NONE("", ""),
    /** Writing the request on the pooled connection failed (broken pipe or reset): the server had closed it. */
    WRITE_FAILED("write_failed", "writing on the pooled connection failed"),
    /** The pooled connection ended (EOF) before the status line began: the server had closed it. */
    CLOSED_BEFORE_RESPONSE("closed_before_response", "the pooled connection closed before any response byte"),
    /** The pooled connection was reset before the status line began. */
    RESET_BEFORE_RESPONSE("reset_before_response", "the pooled connection was reset before any response byte");

    private final String id;
    private final String words;

    Resend(String id, String words) {
        this.id = id;
        this.words = words;
    }

    /** @return the lower-case name used in files, e.g. {@code "closed_before_response"}; "" for {@link #NONE} */
    public String id() {
        return id;
    }

    /** @return what happened, in words for a console line; "" for {@link #NONE} */
    public String words() {
        return words;
    }

    /**
     * @param id a name from {@link #id()}; null or "" read as {@link #NONE}
     * @return the reason
     * @throws IllegalArgumentException when the name is unknown
     */
    public static Resend fromId(String id) {
        if (id == null || id.isEmpty()) {
            return NONE;
        }
        for (Resend r : values()) {
            if (r.id.equals(id)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown re-send reason '" + id + "'");
    }

    @Override
    public String toString() {
        return id;
    }
}
