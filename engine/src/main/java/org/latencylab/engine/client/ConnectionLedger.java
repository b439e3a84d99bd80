package org.latencylab.engine.client;

import okhttp3.Connection;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * When each of OkHttp's pooled connections was last released and whether its last call streamed, so that a call
 * that fails on a pooled connection can tell {@link ConnectionHabits} how long it had idled after a streamed
 * response. OkHttp keeps this inside its pool without an API; the ledger holds connections weakly, so closed ones
 * drop out. Thread-safe (one short lock per release and per lookup, on OkHttp's path only).
 */
final class ConnectionLedger {
    private final Map<Connection, long[]> released = Collections.synchronizedMap(new WeakHashMap<>());

    /** @param connection the connection of a call that just ended well @param streamed whether the call streamed */
    void released(Connection connection, boolean streamed) {
        long now = System.nanoTime();
        released.merge(connection, new long[]{now, streamed ? 1 : 0, streamed ? 1 : 0},
                (old, fresh) -> new long[]{now, fresh[1], old[2] + fresh[2]});
    }

    /**
     * @param connection a connection
     * @return {@code {releasedAtNanos, streamed ? 1 : 0, streamedCalls}} of its last release (and how many streamed
     *         calls it served), or null when never released
     */
    long[] lastRelease(Connection connection) {
        return connection == null ? null : released.get(connection);
    }
}
