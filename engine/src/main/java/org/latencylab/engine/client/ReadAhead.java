package org.latencylab.engine.client;

import org.latencylab.engine.tuning.TuningProperties;
import org.latencylab.engine.trust.SchedulerWaits;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A reader thread: reads the sockets of its share of {@link DirectHttp1}'s connections (they are spread over
 * {@link DirectHttp1#READERS} of these) as soon as the kernel has bytes for them, and stamps each read with
 * {@link System#nanoTime()} at its return; the request threads take the stamped bytes from a per-connection
 * {@link ReadAheadInbox} and parse them when they get to it.
 *
 * <p>Why: with a thread per stream blocked in its own socket read, every streamed event woke one of up to thousands of
 * kernel threads. On two cores against {@code shared/bench}'s truth server at 1,024 concurrent streams (51,200 events
 * per second) those wake-ups outnumbered the server's own threads so far that the server read the next requests late:
 * the client's TTFT error P99 was 4–9 times the floor client's, and a minimal client with one platform thread per
 * stream (no parsing at all) was 5–10 times worse than the same client on virtual threads. Here a request thread is
 * woken only when its response can be taken whole or in large pieces ({@link Mode}): once the head and the whole body
 * of a response whose framing the reader reads from its head are in ({@link Mode#HEAD}), else at the end of the header
 * block and again at the last chunk of a chunked body, when a length-framed body is complete, at the connection's
 * end, when {@value #HIGH_WATER_BYTES} bytes wait, or when bytes have waited {@value #QUIET_MILLIS} ms with no new read (a
 * framing the wake rules did not recognise). Stamps are never moved by this: each byte keeps the stamp of the read that
 * delivered it, and parsing it later changes no time. A request that must react while it streams (a first-token
 * callback) reads {@link Mode#EAGER}: woken by every read.
 *
 * <p>The reader also sees what arrives on idle pooled connections: a server's close or stray bytes make the
 * connection unhealthy ({@link ReadAheadInbox#clean()}) before anyone sends on it.
 *
 * <p>Its run-queue waits count for the trust check ({@link SchedulerWaits}): a late reader is a late stamp.
 * Thread-safe: {@link #attach} from any thread; an inbox is taken from by one thread at a time.
 */
final class ReadAhead implements AutoCloseable {
    /** Bytes waiting in an inbox that wake its taker whatever the framing: a long body is parsed in pieces. */
    static final int HIGH_WATER_BYTES = 64 * 1024;
    /**
     * Bytes that have waited this long with no further read wake their taker (ms): the fallback for a framing the wake
     * rules do not recognise (an extension on the last chunk, more than 16 trailer fields), long enough that the gaps
     * between a stream's tokens do not wake it.
     */
    static final long QUIET_MILLIS = 250;
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS);

    /** When a parked taker is woken. */
    enum Mode {
        /** by every read (requests that react while they stream; a head whose first bytes were already taken) */
        EAGER,
        /**
         * a response that starts at the inbox's first byte: when its head and then its whole body are there, if the
         * head gives a framing the reader recognises ({@code Transfer-Encoding: chunked}, or a single
         * {@code Content-Length}; 204 and 304 have no body), else when its head is complete. Why: a request thread was
         * woken at every response's head and again at its end; the head changes no stamp (each byte keeps its
         * read's), so one wake-up per response is saved where the server sends its head before its events,
         * which lowers the client's CPU per request. {@link StallWatchdog} counts the inbox's reads as the first byte
         * meanwhile.
         */
        HEAD,
        /** when {@code want} bytes wait (a {@code Content-Length} body) */
        LENGTH,
        /** when the waiting bytes end with the last chunk {@code 0\r\n}, its trailer fields if any, and the empty line */
        CHUNKED,
        /** at the connection's end (a body framed by the connection's close) */
        CLOSE
    }

    /**
     * Request threads that may work on taken bytes at once (parse, record, send the next request): the cores but one,
     * at least one. A request thread woken by its inbox takes a permit and gives it back when it waits again or its
     * response is done, so that a burst of responses ending together (a closed loop's wave) puts only this many of
     * the client's threads on the CPUs' run queues instead of all of them, beside the reader thread and the server
     * being measured. The stamps are the reader's and do not wait for a permit.
     */
    static final Semaphore WORK_PERMITS = new Semaphore(
            TuningProperties.workPermits(Runtime.getRuntime().availableProcessors()), true);

    /** Longest wait for a work permit, ms; after it the request thread goes on without one. */
    static final long PERMIT_WAIT_MILLIS = 2_000;

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<ReadAheadInbox> pending = new ConcurrentLinkedQueue<>();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(HIGH_WATER_BYTES);
    private volatile boolean closed;
    /** Takes that had to wait for bytes (each ended by a wake-up of the taking thread). */
    private final java.util.concurrent.atomic.LongAdder waits = new java.util.concurrent.atomic.LongAdder();

    /**
     * Opens the selector and starts the reader thread ({@code latencylab-reader}, a daemon).
     *
     * @throws IOException when no selector can be opened
     */
    ReadAhead() throws IOException {
        selector = Selector.open();
        thread = Thread.ofPlatform().daemon().name("latencylab-reader").unstarted(this::run);
        thread.setPriority(Thread.NORM_PRIORITY);
        thread.start();
    }

    /**
     * Puts a connected channel in non-blocking mode and has the reader read it from now on.
     *
     * @param ch a connected socket channel (in blocking mode or not)
     * @return its inbox
     * @throws IOException when the channel cannot be switched to non-blocking mode, or this reader is closed
     */
    ReadAheadInbox attach(SocketChannel ch) throws IOException {
        if (closed) {
            throw new IOException("client closed");
        }
        ch.configureBlocking(false);
        ReadAheadInbox in = new ReadAheadInbox(ch, waits);
        pending.add(in);
        selector.wakeup();
        if (closed) {
            in.fail(new IOException("client closed")); // the reader ended after the check above: nobody reads it
        }
        return in;
    }

    /** @return how many takes from this reader's inboxes waited for bytes so far (the taking threads' wake-ups) */
    long waits() {
        return waits.sum();
    }

    /** Stops the reader; every inbox still read fails ("client closed"). Idempotent. */
    @Override
    public void close() {
        closed = true;
        selector.wakeup();
    }

    private void run() {
        IOException end = new IOException("client closed");
        try (var waits = SchedulerWaits.track()) {
            long lastSweep = System.nanoTime();
            while (!closed) {
                lastSweep = turn(lastSweep);
            }
        } catch (IOException | RuntimeException e) {
            end = new IOException("the client's reader thread failed: " + e, e); // every inbox fails with it below
        } finally {
            closed = true;
            try {
                for (SelectionKey k : selector.keys()) {
                    ((ReadAheadInbox) k.attachment()).fail(end);
                }
                selector.close();
            } catch (IOException | ClosedSelectorException e) {
                // closing is best effort
            }
            for (ReadAheadInbox in; (in = pending.poll()) != null; ) {
                in.fail(end);
            }
        }
    }

    /**
     * One turn of the reader loop: waits for readable sockets (at most {@value #QUIET_MILLIS} ms), registers new ones,
     * reads every ready one and sweeps quiet ones. A method of its own rather than the loop's body: the JIT compiles a
     * method after a few hundred calls, but a loop body that stays in {@link #run}'s one never-ending frame only after
     * tens of thousands of iterations (on-stack replacement), so for the first tens of seconds of a run it would
     * run interpreted (the reader threads' frames at the top of {@code perf} samples).
     *
     * @param lastSweep {@link System#nanoTime()} of the latest sweep
     * @return the latest sweep's time after this turn
     * @throws IOException when the selector fails
     */
    private long turn(long lastSweep) throws IOException {
        selector.select(QUIET_MILLIS);
        for (ReadAheadInbox in; (in = pending.poll()) != null; ) {
            try {
                in.ch.register(selector, SelectionKey.OP_READ, in);
            } catch (IOException | RuntimeException e) {
                in.fail(e instanceof IOException io ? io : new IOException(e));
            }
        }
        var ready = selector.selectedKeys();
        for (SelectionKey k : ready) {
            read(k, (ReadAheadInbox) k.attachment());
        }
        ready.clear();
        long now = System.nanoTime();
        if (now - lastSweep >= QUIET_NANOS) {
            for (SelectionKey k : selector.keys()) {
                ((ReadAheadInbox) k.attachment()).sweep(now);
            }
            return now;
        }
        return lastSweep;
    }

    private void read(SelectionKey k, ReadAheadInbox in) {
        scratch.clear();
        int n;
        try {
            n = in.ch.read(scratch);
        } catch (IOException | RuntimeException e) {
            k.cancel();
            in.fail(e instanceof IOException io ? io : new IOException(e));
            return;
        }
        long now = System.nanoTime();
        if (n < 0) {
            k.cancel();
            in.end(now);
        } else if (n > 0) {
            scratch.flip();
            in.append(scratch, now);
        }
    }
}
