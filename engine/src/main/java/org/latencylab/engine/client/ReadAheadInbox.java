package org.latencylab.engine.client;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
/**
 * One connection's bytes read ahead, each run of bytes with the stamp of the socket read that delivered it, in
 * order. Thread-safe: the reader appends, one request thread at a time takes.
 */
final class ReadAheadInbox {
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
    private ReadAhead.Mode mode = ReadAhead.Mode.EAGER;
    private long want;
    /** {@link ReadAhead.Mode#HEAD}: bytes after {@code head} already searched for the head's end. */
    private int headScanned;
    /** {@link ReadAhead.Mode#HEAD}: the head's length once its end was found, else 0. */
    private int headLength;
    /** {@link ReadAhead.Mode#HEAD}: what the found head says about its body ({@link #BODY_UNKNOWN} and the others). */
    private long headBody;

    private final java.util.concurrent.atomic.LongAdder waits;

    ReadAheadInbox(SocketChannel ch, java.util.concurrent.atomic.LongAdder waits) {
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
     * @param want           for {@link ReadAhead.Mode#LENGTH}: bytes the body still needs beyond those already taken
     * @param deadlineNanos  give up at this {@link System#nanoTime()} (UNSET: no limit)
     * @return bytes moved, or -1 when the server closed the connection and nothing waits
     * @throws AsynchronousCloseException when the connection was closed by this side (cancelled) or the thread was
     *                                    interrupted (the interrupt flag is kept; the caller cancels)
     * @throws SocketTimeoutException     when the deadline passed first
     * @throws IOException                when the reader's read failed
     */
    synchronized int take(ByteBuffer dst, ReadAhead.Mode mode, long want, long deadlineNanos) throws IOException {
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
        if (waitingBytes >= ReadAhead.HIGH_WATER_BYTES) {
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

    /** {@link ReadAhead.Mode#HEAD}: whether the head and, where its framing is recognised, the whole body are waiting. */
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
     * head itself, so anything unusual is {@link #BODY_UNKNOWN} and wakes it at the head's end.
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
     * {@value ReadAhead#QUIET_MILLIS} ms after its last read instead; a false match only wakes it early.
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

    /** Reader: wakes a taker whose bytes have waited {@value ReadAhead#QUIET_MILLIS} ms with no further read. */
    synchronized void sweep(long now) {
        if (waiting && tail > head && now - lastReadNanos >= ReadAhead.QUIET_NANOS) {
            notifyAll();
        }
    }
}
