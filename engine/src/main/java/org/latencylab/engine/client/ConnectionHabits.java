package org.latencylab.engine.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the client has learnt about how each server ({@code host:port}) treats its connections, beyond what its
 * headers say. Today one habit: closing the connection right after each streamed response while announcing
 * keep-alive (llama.cpp's {@code llama-server} does so). A client that keeps such connections in its pool races
 * the server's close on every next request; once the habit is seen {@value #SEEN_TO_ACT} times, connections to that
 * server are closed after their streamed responses instead of pooled, so each streamed request connects (its connect
 * time shows in its record) and none has to be re-sent. Thread-safe.
 */
final class ConnectionHabits {
    /**
     * Sightings before the client acts: one could be a server's idle timeout that happened to follow a stream;
     * two within {@link #SOON_NANOS} of their streams' ends are a habit.
     */
    static final int SEEN_TO_ACT = 2;
    /** A close this soon after a streamed response ended counts as closing after it, ns. */
    static final long SOON_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ConcurrentHashMap<String, AtomicInteger> closesAfterStream = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> notices = new ConcurrentLinkedQueue<>();

    /**
     * Notes that a pooled connection to {@code hostPort} was found closed by the server.
     *
     * @param hostPort     the server, {@code host:port}
     * @param lastStreamed whether the connection's last response was streamed
     * @param idleNanos    how long it had idled since that response ended, ns
     * @param streamed     streamed responses the connection had served: only one closed right after its first shows
     *                     the habit; one closed after several is a server's request limit per connection
     *                     ({@code Keep-Alive: max}, said or not), which reuse handles up to the close
     */
    void closedInPool(String hostPort, boolean lastStreamed, long idleNanos, int streamed) {
        if (!lastStreamed || idleNanos >= SOON_NANOS || streamed != 1) {
            return;
        }
        int seen = closesAfterStream.computeIfAbsent(hostPort, k -> new AtomicInteger()).incrementAndGet();
        if (seen == SEEN_TO_ACT) {
            notices.add(hostPort + " closes its connection right after each streamed response (although its headers"
                    + " announce keep-alive): from here on its connections are not reused after a streamed response,"
                    + " so each streamed request connects anew and its connect time is inside its TTFT and E2E");
        }
    }

    /** @param hostPort a server @return true when its connections must not be pooled after a streamed response */
    boolean closesAfterStreams(String hostPort) {
        AtomicInteger seen = closesAfterStream.get(hostPort);
        return seen != null && seen.get() >= SEEN_TO_ACT;
    }

    /** @return the notices raised since the last call (each habit is said once per client), in order */
    List<String> takeNotices() {
        List<String> out = new ArrayList<>();
        for (String n; (n = notices.poll()) != null; ) {
            out.add(n);
        }
        return out;
    }
}
