package org.latencylab.engine.client;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A response's {@code Keep-Alive} header field, e.g. {@code Keep-Alive: timeout=5, max=100}: the server's idle
 * timeout in seconds and how many requests it serves on the connection. The field comes from HTTP/1.0's
 * persistent connections (RFC 2068 §19.7.1.1; its parameters are registered in RFC 7230's "Keep-Alive" appendix
 * and described on MDN's "Keep-Alive" page); servers such as Apache httpd and llama.cpp still send it. A client that
 * reuses a connection beyond either limit races the server's close, so both are followed. Immutable.
 *
 * @param idleLimitNanos longest idle time after which a connection may still be reused, ns, or -1 when not said:
 *                       the server's {@code timeout} less a margin ({@link #marginNanos}) for the next request's
 *                       travel and the server's timer granularity
 * @param max            requests the server serves on the connection, >= 1, or -1 when not said; read as a total
 *                       per connection (Apache counts down and sends the requests left, which this reads as less than
 *                       the server allows: a connection closed early costs a connect, one used too long an error)
 */
record KeepAlive(long idleLimitNanos, int max) {
    /** Nothing said. */
    static final KeepAlive NONE = new KeepAlive(-1, -1);

    /**
     * @param field the header field's value, or null
     * @return its limits; {@link #NONE} when null or when it says nothing this reads (unknown parameters are ignored)
     */
    static KeepAlive parse(String field) {
        if (field == null || field.isEmpty()) {
            return NONE;
        }
        long idle = -1;
        int max = -1;
        for (String part : field.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = part.substring(eq + 1).trim();
            try {
                if (name.equals("timeout")) {
                    long seconds = Long.parseLong(value);
                    if (seconds >= 0) {
                        long t = TimeUnit.SECONDS.toNanos(Math.min(seconds, 86_400));
                        idle = Math.max(0, t - marginNanos(t));
                    }
                } else if (name.equals("max")) {
                    max = Math.max(1, Integer.parseInt(value));
                }
            } catch (NumberFormatException e) {
                // a malformed parameter says nothing
            }
        }
        return idle < 0 && max < 0 ? NONE : new KeepAlive(idle, max);
    }

    /**
     * @param timeoutNanos the server's idle timeout, ns
     * @return the part of it not used: half of it, at most one second (a request sent that long before the server's
     *         timer fires arrives in time on any network this client measures)
     */
    static long marginNanos(long timeoutNanos) {
        return Math.min(timeoutNanos / 2, TimeUnit.SECONDS.toNanos(1));
    }
}
