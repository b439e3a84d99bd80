package org.latencylab.engine.client;

import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What OkHttp's pooled connections have served, which OkHttp keeps inside its pool without an API: when each was
 * last given back and whether its last call streamed (so that a call failing on it can tell {@link ConnectionHabits}
 * how long it had idled after a streamed response), and how many responses it served against the server's
 * {@code Keep-Alive: max} ({@link #keepAliveRules}). Connections are held weakly, so closed ones drop out.
 * Thread-safe (one short lock per call end, per lookup and per response head, on OkHttp's path only).
 */
final class ConnectionLedger {
    /** One connection's entry; guarded by the map's lock. */
    private static final class Entry {
        long releasedAtNanos;
        boolean lastStreamed;
        int streamedCalls;
        int responses;
        int max = -1;
    }

    private final Map<Connection, Entry> entries = Collections.synchronizedMap(new WeakHashMap<>());

    /** @param connection the connection of a call that just ended well @param streamed whether the call streamed */
    void released(Connection connection, boolean streamed) {
        long now = System.nanoTime();
        synchronized (entries) {
            Entry e = entries.computeIfAbsent(connection, k -> new Entry());
            e.releasedAtNanos = now;
            e.lastStreamed = streamed;
            if (streamed) {
                e.streamedCalls++;
            }
        }
    }

    /**
     * @param connection a connection
     * @return {@code {releasedAtNanos, streamed ? 1 : 0, streamedCalls}} of its last release (and how many streamed
     *         calls it served), or null when never released
     */
    long[] lastRelease(Connection connection) {
        if (connection == null) {
            return null;
        }
        synchronized (entries) {
            Entry e = entries.get(connection);
            return e == null || e.releasedAtNanos == 0 ? null
                    : new long[]{e.releasedAtNanos, e.lastStreamed ? 1 : 0, e.streamedCalls};
        }
    }

    /**
     * A network interceptor that follows the server's {@code Keep-Alive: max=N} on OkHttp's path (OkHttp follows
     * {@code Connection: close} and HTTP/1.0 itself, not this field): the N-th request on a connection carries
     * {@code Connection: close}, so OkHttp does not offer the connection again and the server's close after it races
     * nothing. Adds one map lookup before the request is written.
     *
     * @return the interceptor
     */
    Interceptor keepAliveRules() {
        return chain -> {
            Connection c = chain.connection();
            Request request = chain.request();
            if (c != null && lastAllowed(c)) {
                request = request.newBuilder().header("Connection", "close").build();
            }
            Response response = chain.proceed(request);
            if (c != null) {
                served(c, KeepAlive.parse(response.header("Keep-Alive")).max());
            }
            return response;
        };
    }

    private boolean lastAllowed(Connection c) {
        synchronized (entries) {
            Entry e = entries.get(c);
            return e != null && e.max > 0 && e.responses + 1 >= e.max;
        }
    }

    private void served(Connection c, int max) {
        synchronized (entries) {
            Entry e = entries.computeIfAbsent(c, k -> new Entry());
            e.responses++;
            if (max > 0) {
                e.max = max;
            }
        }
    }
}
