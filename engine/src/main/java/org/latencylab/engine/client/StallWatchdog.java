package org.latencylab.engine.client;

import okhttp3.Call;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Enforces the first-byte and idle timeouts of every attempt in flight from one daemon thread, instead of a timer per
 * socket read. OkHttp's read timeouts put every read of every stream into okio's single timeout queue (a lock and a
 * heap operation per read); at a thousand concurrent streams that queue was among the client's top costs, and the
 * cost landed on the threads whose reads are being stamped. Here a read only writes a volatile timestamp
 * ({@link StampedBody}) and this thread looks at all attempts every {@value #TICK_MILLIS} ms, so a timeout fires at
 * most that much late.
 *
 * <p>An attempt that exceeds its limit is cancelled ({@link Cancellable#cancel()}: an OkHttp call, or a
 * {@link DirectHttp1.Exchange}, whose total timeout is also enforced here); its reader then fails with an
 * {@link java.io.IOException} and asks {@link Watch#expired()} which limit fired. The same tick cancels the attempt of
 * a platform thread that was interrupted (a run being cancelled): unlike a virtual thread's, a platform thread's
 * blocked socket read does not return on an interrupt ({@link RequestThreads}). Thread-safe.
 */
final class StallWatchdog implements AutoCloseable {
    /** How often attempts are checked, in milliseconds. */
    static final long TICK_MILLIS = 20;

    /** Which limit cancelled an attempt. */
    enum Expiry { CONNECT, FIRST_BYTE, IDLE, TOTAL }

    /** What the watchdog cancels: an OkHttp call or a {@link DirectHttp1.Exchange}. */
    interface Cancellable {
        /** Cancels the attempt: a read or write blocked in it fails with an IOException. Any thread. */
        void cancel();

        /** @return true once cancelled */
        boolean isCanceled();

        /**
         * @return {@link System#nanoTime()} of the latest read of the attempt's socket by a reader thread
         * ({@link ReadAhead}), or {@code RequestRecord.UNSET} when none reads it: a read-ahead response's head may
         * be parsed only when its body is complete ({@link ReadAhead.Mode#HEAD}), so its bytes count as its first
         * byte meanwhile. Called by the watchdog's thread: implementations read a volatile field, nothing more
         */
        default long lastReadAheadNanos() {
            return org.latencylab.engine.api.RequestRecord.UNSET;
        }
    }

    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final long connectNanos;
    private final long firstByteNanos;
    private final long idleNanos;
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param connectNanos   limit on a TLS handshake, from the TCP connect's start, ns; 0 = none. The HTTP stack's own
     *                       connect timeout covers the TCP connect only; a server that accepts the connection but never
     *                       answers the handshake (plain HTTP on the port of an {@code https://} URL) held a request
     *                       until its total timeout (300 s by default)
     * @param firstByteNanos limit from the request written to the response headers, ns; 0 = none
     * @param idleNanos      limit on the gap between two body reads, ns; 0 = none
     */
    StallWatchdog(long connectNanos, long firstByteNanos, long idleNanos) {
        this.connectNanos = connectNanos;
        this.firstByteNanos = firstByteNanos;
        this.idleNanos = idleNanos;
        this.thread = Thread.ofPlatform().daemon().priority(Thread.NORM_PRIORITY).name("latencylab-stall-watchdog")
                .start(this::loop);
    }

    /**
     * Starts watching one attempt of the calling thread; {@link Watch#close()} stops it.
     *
     * @param call   the attempt's call (cancelled on expiry)
     * @param timing its milestones (request written, headers received)
     * @return the watch
     */
    Watch watch(Call call, TimingListener timing) {
        return watch(new Cancellable() {
            @Override
            public void cancel() {
                call.cancel();
            }

            @Override
            public boolean isCanceled() {
                return call.isCanceled();
            }
        }, timing, org.latencylab.engine.api.RequestRecord.UNSET);
    }

    /**
     * Starts watching one attempt of the calling thread; {@link Watch#close()} stops it.
     *
     * @param call          the attempt (cancelled on expiry)
     * @param timing        its milestones (request written, headers received)
     * @param deadlineNanos {@link System#nanoTime()} by which the whole request must have ended (the total timeout),
     *                      or {@code RequestRecord.UNSET} for none; it fires at most {@value #TICK_MILLIS} ms late
     * @return the watch
     */
    Watch watch(Cancellable call, TimingListener timing, long deadlineNanos) {
        Watch w = new Watch(call, timing, System.nanoTime(), Thread.currentThread(), deadlineNanos);
        if (!closed) {
            watched.add(w);
        }
        return w;
    }

    private void loop() {
        while (!closed) {
            LockSupport.parkNanos(TICK_MILLIS * 1_000_000L);
            long now = System.nanoTime();
            for (Watch w : watched) {
                w.check(now);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        watched.clear();
    }

    /** One attempt under watch. */
    final class Watch implements AutoCloseable {
        private final Cancellable call;
        private final TimingListener timing;
        private final long deadlineNanos;
        private final long startNanos;
        private final Thread owner;
        private volatile StampedBody body;
        private volatile Expiry expired;

        private Watch(Cancellable call, TimingListener timing, long startNanos, Thread owner, long deadlineNanos) {
            this.call = call;
            this.deadlineNanos = deadlineNanos;
            this.owner = owner;
            this.timing = timing;
            this.startNanos = startNanos;
        }

        /** @param b the response body being read: idle time counts from its latest read from now on */
        void reading(StampedBody b) {
            this.body = b;
        }

        /** @return the limit that cancelled this attempt, or null */
        Expiry expired() {
            return expired;
        }

        private void check(long now) {
            if (expired != null || call.isCanceled()) {
                return;
            }
            if (!owner.isVirtual() && owner.isInterrupted()) {
                call.cancel(); // the reader sees its interrupt flag and ends the request as cancelled
                return;
            }
            if (deadlineNanos != org.latencylab.engine.api.RequestRecord.UNSET && now - deadlineNanos > 0) {
                expire(Expiry.TOTAL);
                return;
            }
            StampedBody b = body;
            if (b != null) {
                if (idleNanos > 0 && now - b.lastReadNanos() > idleNanos) {
                    expire(Expiry.IDLE);
                }
            } else if (timing.responseHeaders == org.latencylab.engine.api.RequestRecord.UNSET) {
                if (timing.connecting()) {
                    // the HTTP stack's connect timeout covers the TCP connect; the TLS handshake is watched here
                    if (connectNanos > 0 && timing.tlsStart != org.latencylab.engine.api.RequestRecord.UNSET
                            && now - timing.connectStart > connectNanos) {
                        expire(Expiry.CONNECT);
                    }
                    return;
                }
                long sent = timing.requestSent;
                long from = sent != org.latencylab.engine.api.RequestRecord.UNSET ? sent
                        : Math.max(startNanos, timing.connectEnd);
                long read = call.lastReadAheadNanos();
                if (read != org.latencylab.engine.api.RequestRecord.UNSET
                        && sent != org.latencylab.engine.api.RequestRecord.UNSET && read - sent >= 0) {
                    // the response's bytes arrive (read ahead) while its head waits for its body: the idle limit
                    if (idleNanos > 0 && now - read > idleNanos) {
                        expire(Expiry.IDLE);
                    }
                    return;
                }
                if (firstByteNanos > 0 && now - from > firstByteNanos) {
                    expire(Expiry.FIRST_BYTE);
                }
            }
        }

        private void expire(Expiry e) {
            expired = e;
            call.cancel();
        }

        @Override
        public void close() {
            watched.remove(this);
        }
    }
}
