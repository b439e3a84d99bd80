package org.latencylab.engine.client;

import org.latencylab.engine.trust.SchedulerWaits;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A reader thread: reads the sockets of its share of {@link DirectHttp1}'s connections (they are spread over
 * {@link DirectHttp1#READERS} of these) as soon as the kernel has bytes for them, and stamps each read with
 * {@link System#nanoTime()} at its return; the request threads take the stamped bytes from a per-connection
 * {@link Inbox} and parse them when they get to it.
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
 * callback) reads {@link Mode#EAGER}: woken by every read, as before.
 *
 * <p>The reader also sees what arrives on idle pooled connections: a server's close or stray bytes make the
 * connection unhealthy ({@link Inbox#clean()}) before anyone sends on it.
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
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS);

    /** When a parked taker is woken. */
    enum Mode {
        /** by every read (requests that react while they stream; a head whose first bytes were already taken) */
        EAGER,
        /**
         * a response that starts at the inbox's first byte: when its head and then its whole body are there, if the
         * head gives a framing the reader recognises ({@code Transfer-Encoding: chunked}, or a single
         * {@code Content-Length}; 204 and 304 have no body), else when its head is complete. Why: a request thread was
         * woken at every response's head and again at its end; the head changes no stamp (each byte keeps its
         * read's), so one wake-up per response is saved where the server sends its head before its events (a
         * 1,024-way probe of {@code shared/bench}'s truth server: 0.92–0.96 against 1.00–1.13 ms of client CPU per
         * request in three alternating pairs). {@link StallWatchdog} counts the inbox's reads as the first byte
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
    static final Semaphore WORK_PERMITS = new Semaphore(Integer.getInteger("latencylab.workPermits",
            Math.max(1, Runtime.getRuntime().availableProcessors() - 1)), true);

    /** Longest wait for a work permit, ms; after it the request thread goes on without one. */
    static final long PERMIT_WAIT_MILLIS = 2_000;

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Inbox> pending = new ConcurrentLinkedQueue<>();
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
    Inbox attach(SocketChannel ch) throws IOException {
        if (closed) {
            throw new IOException("client closed");
        }
        ch.configureBlocking(false);
        Inbox in = new Inbox(ch, waits);
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
                    ((Inbox) k.attachment()).fail(end);
                }
                selector.close();
            } catch (IOException | ClosedSelectorException e) {
                // closing is best effort
            }
            for (Inbox in; (in = pending.poll()) != null; ) {
                in.fail(end);
            }
        }
    }

    /**
     * One turn of the reader loop: waits for readable sockets (at most {@value #QUIET_MILLIS} ms), registers new ones,
     * reads every ready one and sweeps quiet ones. A method of its own rather than the loop's body: the JIT compiles a
     * method after a few hundred calls, but a loop body that stays in {@link #run}'s one never-ending frame only after
     * tens of thousands of iterations (on-stack replacement), so for the first tens of seconds of a run it was
     * interpreted (the reader threads' frames at the top of {@code perf} samples, 300 requests/s open loop).
     *
     * @param lastSweep {@link System#nanoTime()} of the latest sweep
     * @return the latest sweep's time after this turn
     * @throws IOException when the selector fails
     */
    private long turn(long lastSweep) throws IOException {
        selector.select(QUIET_MILLIS);
        for (Inbox in; (in = pending.poll()) != null; ) {
            try {
                in.ch.register(selector, SelectionKey.OP_READ, in);
            } catch (IOException | RuntimeException e) {
                in.fail(e instanceof IOException io ? io : new IOException(e));
            }
        }
        var ready = selector.selectedKeys();
        for (SelectionKey k : ready) {
            read(k, (Inbox) k.attachment());
        }
        ready.clear();
        long now = System.nanoTime();
        if (now - lastSweep >= QUIET_NANOS) {
            for (SelectionKey k : selector.keys()) {
                ((Inbox) k.attachment()).sweep(now);
            }
            return now;
        }
        return lastSweep;
    }

    private void read(SelectionKey k, Inbox in) {
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

    /**
     * One connection's bytes read ahead, each run of bytes with the stamp of the socket read that delivered it, in
     * order. Thread-safe: the reader appends, one request thread at a time takes.
     */
    static final class Inbox {
        final SocketChannel ch;
        private byte[] data = new byte[16 * 1024];
        private int head;
        private int tail;
        /** Per read not yet taken whole: the absolute offset just past its bytes, and its stamp. */
        private long[] ends = new long[16];
        private long[] stamps = new long[16];
        private int first;
        private int reads;
        private long takenTotal;
        private long appendedTotal;
        private volatile long lastReadNanos = System.nanoTime();
        private long takenStamp = org.latencylab.engine.api.RequestRecord.UNSET;
        private boolean ended;
        private boolean closedHere;
        private IOException error;
        private boolean waiting;
        private Mode mode = Mode.EAGER;
        private long want;
        /** {@link Mode#HEAD}: bytes after {@code head} already searched for the head's end. */
        private int headScanned;
        /** {@link Mode#HEAD}: the head's length once its end was found, else 0. */
        private int headLength;
        /** {@link Mode#HEAD}: what the found head says about its body ({@link #BODY_UNKNOWN} and the others). */
        private long headBody;

        private final java.util.concurrent.atomic.LongAdder waits;

        private Inbox(SocketChannel ch, java.util.concurrent.atomic.LongAdder waits) {
            this.ch = ch;
            this.waits = waits;
        }

        /** @return when the reader's latest read of this socket returned (or when the inbox was made), ns */
        long lastReadNanos() {
            return lastReadNanos;
        }

        /**
         * @return the stamp of the read whose bytes the latest {@link #take} returned, or UNSET; for the taking thread
         *         (it wrote the value in its own take), so it takes no lock
         */
        long takenStamp() {
            return takenStamp;
        }

        /** @return true when a {@link #take} would not wait: bytes wait, the server closed or reading failed */
        synchronized boolean ready() {
            return tail > head || ended || error != null;
        }

        /** @return true when nothing waits, the server has not closed and no read failed (an idle connection's check) */
        synchronized boolean clean() {
            return tail == head && !ended && error == null;
        }

        /**
         * Moves waiting bytes into {@code dst}, at most those of one read (so they share one stamp,
         * {@link #takenStamp}), waiting for them when none wait.
         *
         * @param dst            where the bytes go (position advanced)
         * @param mode           when to be woken while none wait
         * @param want           for {@link Mode#LENGTH}: bytes the body still needs beyond those already taken
         * @param deadlineNanos  give up at this {@link System#nanoTime()} (UNSET: no limit)
         * @return bytes moved, or -1 when the server closed the connection and nothing waits
         * @throws AsynchronousCloseException when the connection was closed by this side (cancelled) or the thread was
         *                                    interrupted (the interrupt flag is kept; the caller cancels)
         * @throws SocketTimeoutException     when the deadline passed first
         * @throws IOException                when the reader's read failed
         */
        synchronized int take(ByteBuffer dst, Mode mode, long want, long deadlineNanos) throws IOException {
            if (closedHere) {
                throw new AsynchronousCloseException();
            }
            while (tail == head) {
                if (error != null) {
                    throw error;
                }
                if (ended) {
                    return -1;
                }
                long wait = 0;
                if (deadlineNanos != org.latencylab.engine.api.RequestRecord.UNSET) {
                    wait = deadlineNanos - System.nanoTime();
                    if (wait <= 0) {
                        throw new SocketTimeoutException("no bytes within the wait limit");
                    }
                }
                this.mode = mode;
                this.want = Math.max(1, want);
                headScanned = 0;
                headLength = 0;
                waiting = true;
                waits.increment();
                try {
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.timedWait(this, wait);
                    } else {
                        wait();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AsynchronousCloseException();
                } finally {
                    waiting = false;
                }
                if (closedHere) {
                    throw new AsynchronousCloseException();
                }
            }
            int n = (int) Math.min(dst.remaining(), Math.min(tail - head, ends[first] - takenTotal));
            dst.put(data, head, n);
            head += n;
            takenTotal += n;
            takenStamp = stamps[first];
            if (takenTotal == ends[first]) {
                first++;
                reads--;
                if (reads == 0) {
                    first = 0;
                }
            }
            if (head == tail) {
                head = 0;
                tail = 0;
            }
            return n;
        }

        /** Reader: bytes read at {@code now}. */
        void append(ByteBuffer src, long now) {
            synchronized (this) {
                int n = src.remaining();
                if (data.length - tail < n) {
                    if (head > 0) {
                        System.arraycopy(data, head, data, 0, tail - head);
                        tail -= head;
                        head = 0;
                    }
                    if (data.length - tail < n) {
                        data = Arrays.copyOf(data, Math.max(data.length * 2, tail + n));
                    }
                }
                src.get(data, tail, n);
                tail += n;
                appendedTotal += n;
                if (first + reads == ends.length) {
                    if (first > 0) {
                        System.arraycopy(ends, first, ends, 0, reads);
                        System.arraycopy(stamps, first, stamps, 0, reads);
                        first = 0;
                    } else {
                        ends = Arrays.copyOf(ends, ends.length * 2);
                        stamps = Arrays.copyOf(stamps, stamps.length * 2);
                    }
                }
                ends[first + reads] = appendedTotal;
                stamps[first + reads] = now;
                reads++;
                lastReadNanos = now;
                if (waiting && wakes()) {
                    notifyAll();
                }
            }
        }

        private boolean wakes() {
            int waitingBytes = tail - head;
            if (waitingBytes >= HIGH_WATER_BYTES) {
                return true;
            }
            return switch (mode) {
                case EAGER -> true;
                case HEAD -> headAndBodyIn(waitingBytes);
                case LENGTH -> waitingBytes >= want;
                case CHUNKED -> endsWithLastChunk();
                case CLOSE -> false;
            };
        }

        /** {@link #headBody}: the head gives no framing this reader recognises (wake at the head's end). */
        static final long BODY_UNKNOWN = -1;
        /** {@link #headBody}: a chunked body. Values >= 0 are a {@code Content-Length}. */
        static final long BODY_CHUNKED = -2;

        /** {@link Mode#HEAD}: whether the head and, where its framing is recognised, the whole body are waiting. */
        private boolean headAndBodyIn(int waitingBytes) {
            if (headLength == 0) {
                // the empty line that ends the head: "\n\r\n" or "\n\n" (RFC 9112 accepts a bare line feed)
                int from = Math.max(head, head + headScanned - 2);
                int end = -1;
                for (int i = from; i + 1 < tail; i++) {
                    if (data[i] == '\n') {
                        if (data[i + 1] == '\n') {
                            end = i + 2;
                            break;
                        }
                        if (data[i + 1] == '\r' && i + 2 < tail && data[i + 2] == '\n') {
                            end = i + 3;
                            break;
                        }
                    }
                }
                if (end < 0) {
                    headScanned = tail - head;
                    return false;
                }
                headLength = end - head;
                headBody = bodyOf(data, head, end);
            }
            if (headBody == BODY_UNKNOWN) {
                return true;
            }
            if (headBody == BODY_CHUNKED) {
                return endsWithLastChunk(data, head + headLength, tail); // the body's bytes only
            }
            return waitingBytes - headLength >= headBody;
        }

        /**
         * What a response head says about its body (RFC 9112 §6.3), for waking only: the request thread parses the
         * head itself, so anything unusual is {@link #BODY_UNKNOWN} and wakes it at the head's end, as before.
         *
         * @param b     bytes
         * @param from  index of the status line's first byte
         * @param end   index just after the head's empty line
         * @return {@link #BODY_CHUNKED}, a body length >= 0, or {@link #BODY_UNKNOWN}
         */
        static long bodyOf(byte[] b, int from, int end) {
            // "HTTP/1.1 200": a final status (1xx heads are followed by another head)
            if (end - from < 12 || b[from] != 'H' || b[from + 8] != ' ' || b[from + 9] < '2' || b[from + 9] > '5') {
                return BODY_UNKNOWN;
            }
            int code = (b[from + 9] - '0') * 100 + (b[from + 10] - '0') * 10 + (b[from + 11] - '0');
            if (code == 204 || code == 304) {
                return 0;
            }
            boolean chunked = false;
            long length = BODY_UNKNOWN;
            int line = from;
            while (line < end) {
                int nl = line;
                while (nl < end && b[nl] != '\n') {
                    nl++;
                }
                if (startsWithIgnoreCase(b, line, nl, "transfer-encoding:")) {
                    if (!endsWithChunked(b, line + 18, nl)) {
                        return BODY_UNKNOWN; // another coding last: framed by the close
                    }
                    chunked = true;
                } else if (startsWithIgnoreCase(b, line, nl, "content-length:")) {
                    if (length != BODY_UNKNOWN) {
                        return BODY_UNKNOWN; // a second one: the request thread decides
                    }
                    length = digits(b, line + 15, nl);
                    if (length == BODY_UNKNOWN) {
                        return BODY_UNKNOWN;
                    }
                }
                line = nl + 1;
            }
            return chunked ? BODY_CHUNKED : length;
        }

        private static boolean startsWithIgnoreCase(byte[] b, int from, int to, String prefix) {
            if (to - from < prefix.length()) {
                return false;
            }
            for (int i = 0; i < prefix.length(); i++) {
                int c = b[from + i];
                if (c >= 'A' && c <= 'Z') {
                    c += 'a' - 'A';
                }
                if (c != prefix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        /** @return whether the field value in b[from, to) ends with the coding {@code chunked} */
        private static boolean endsWithChunked(byte[] b, int from, int to) {
            int e = to;
            while (e > from && (b[e - 1] == '\r' || b[e - 1] == ' ' || b[e - 1] == '\t')) {
                e--;
            }
            return e - from >= 7 && startsWithIgnoreCase(b, e - 7, e, "chunked")
                    && (e - 7 == from || b[e - 8] == ' ' || b[e - 8] == ',' || b[e - 8] == '\t' || b[e - 8] == ':');
        }

        /** @return the decimal digits of the field value in b[from, to), or {@link #BODY_UNKNOWN} when not one */
        private static long digits(byte[] b, int from, int to) {
            int s = from;
            int e = to;
            while (s < e && (b[s] == ' ' || b[s] == '\t')) {
                s++;
            }
            while (e > s && (b[e - 1] == '\r' || b[e - 1] == ' ' || b[e - 1] == '\t')) {
                e--;
            }
            if (s == e || e - s > 18) {
                return BODY_UNKNOWN;
            }
            long v = 0;
            for (int i = s; i < e; i++) {
                if (b[i] < '0' || b[i] > '9') {
                    return BODY_UNKNOWN;
                }
                v = v * 10 + (b[i] - '0');
            }
            return v;
        }

        /** @return true when the waiting bytes end with a last chunk, any trailer fields and the empty line */
        private boolean endsWithLastChunk() {
            return endsWithLastChunk(data, head, tail);
        }

        /** Trailer fields looked at, at most, behind a chunked body's end (RFC 9112 §7.1.2). */
        static final int MAX_TRAILER_LINES = 16;

        /**
         * Whether {@code b[from, to)} ends a chunked body: the last chunk's size line {@code 0}, then any trailer
         * fields ({@code name: value}), then the empty line, each ended by CRLF. A body whose end is not recognised
         * (chunk extensions on the last chunk, more than {@value #MAX_TRAILER_LINES} trailer fields) wakes its taker
         * {@value #QUIET_MILLIS} ms after its last read instead; a false match only wakes it early.
         *
         * @param b    bytes
         * @param from first waiting byte
         * @param to   end of the waiting bytes
         * @return true at the body's end
         */
        static boolean endsWithLastChunk(byte[] b, int from, int to) {
            if (to - from < 5 || b[to - 2] != '\r' || b[to - 1] != '\n') {
                return false;
            }
            int lineEnd = to - 2; // the '\r' that ends the line looked at; the empty line first
            if (b[lineEnd - 1] != '\n' || b[lineEnd - 2] != '\r') {
                return false;
            }
            lineEnd -= 2; // the '\r' ending the line before the empty line
            for (int lines = 0; lines <= MAX_TRAILER_LINES; lines++) {
                int start = lineEnd;
                while (start > from && b[start - 1] != '\n') {
                    start--;
                }
                // the line b[start, lineEnd): the last chunk's size, or a trailer field
                boolean atLineStart = start == from || b[start - 1] == '\n';
                if (!atLineStart) {
                    return false;
                }
                if (lineEnd - start == 1 && b[start] == '0') {
                    return true;
                }
                boolean field = false;
                for (int i = start; i < lineEnd; i++) {
                    if (b[i] == ':') {
                        field = i > start;
                        break;
                    }
                }
                if (!field || start - 2 < from || b[start - 2] != '\r') {
                    return false;
                }
                lineEnd = start - 2;
            }
            return false;
        }

        /** Reader: the server closed the connection. */
        synchronized void end(long now) {
            ended = true;
            lastReadNanos = now;
            notifyAll();
        }

        /** Reader: reading failed (bytes read before still go to the taker first). */
        synchronized void fail(IOException e) {
            if (error == null) {
                error = e;
            }
            notifyAll();
        }

        /** This side closed the connection (a cancel): the taker's next take fails at once, as a socket read would. */
        synchronized void closedHere() {
            closedHere = true;
            if (error == null) {
                error = new AsynchronousCloseException();
            }
            notifyAll();
        }

        /** Reader: wakes a taker whose bytes have waited {@value #QUIET_MILLIS} ms with no further read. */
        synchronized void sweep(long now) {
            if (waiting && tail > head && now - lastReadNanos >= QUIET_NANOS) {
                notifyAll();
            }
        }
    }
}
