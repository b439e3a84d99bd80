package org.latencylab.engine.client;

import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;

import java.io.IOException;
import java.util.Arrays;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * A response body that stamps every read of the HTTP stack's body source with {@link System#nanoTime()} the moment it
 * returns, before any framing or JSON work, so a parser that falls behind never moves a timestamp.
 *
 * <p>It keeps, per read, the body offset just past the bytes it delivered and its stamp. A parser reading through
 * {@link #source()} asks {@link #consumedStamp()} when it has completed an event: the stamp of the read that
 * delivered the event's last byte (the bytes the parser has consumed are everything read minus what still waits in
 * the one buffer between this source and the parser). It also keeps the first-byte stamp, the time of the latest
 * read (for the stall watchdog) and the body's last bytes (whether it ended inside an SSE event).
 *
 * <p>Stamps are taken where the body's bytes leave the HTTP stack (after chunked decoding). LatencyLab's own plain-HTTP
 * path ({@link DirectHttp1}) says which socket read delivered them ({@link DirectHttp1.TransportStamps}): a reader
 * thread read them, maybe long before this thread takes them, and that read's return is their stamp. Through OkHttp a
 * stack read that needs bytes reads the socket on this thread, so the stamp is that socket read's return; bytes the
 * stack had already buffered from an earlier socket read are stamped when handed over (later, never earlier).
 *
 * <p>Not thread-safe: a body is read by one thread; {@link #lastReadNanos()} may be read from any thread.
 */
final class StampedBody extends FilteredBody {
    private final Reads reads;

    /** @param delegate the HTTP stack's body (closed with this one) */
    StampedBody(ResponseBody delegate) {
        this(delegate, new Reads(delegate.source(),
                delegate instanceof DirectHttp1.TransportStamps t ? t : null));
    }

    private StampedBody(ResponseBody delegate, Reads reads) {
        super(delegate, reads);
        this.reads = reads;
    }

    /** @return when the first body byte was read, or UNSET */
    long firstByteNanos() {
        return reads.firstByte;
    }

    /**
     * @return when the latest read returned (or when this body was created), or the transport's latest socket read when
     *         that is later (read-ahead); safe from any thread
     */
    long lastReadNanos() {
        DirectHttp1.TransportStamps t = reads.transport;
        return t == null ? reads.lastRead : Math.max(reads.lastRead, t.lastSocketReadNanos());
    }

    /**
     * @return the stamp of the read that delivered the last byte the parser has consumed from {@link #source()}, or
     *         the current time when nothing has been read yet
     */
    long consumedStamp() {
        BufferedSource s = source();
        long consumed = reads.total - s.getBuffer().size();
        return reads.stampOf(consumed - 1);
    }

    /** @return true when the body ended and its last bytes are not an SSE event's closing blank line */
    boolean cutAtEnd() {
        return reads.exhausted && !reads.endsWithBlankLine();
    }

    /**
     * @param body a response body
     * @return {@code body} itself when it is stamped, else a stamped wrapper of it
     */
    static StampedBody of(ResponseBody body) {
        return body instanceof StampedBody s ? s : new StampedBody(body);
    }

    /** The stack's body source with a stamp per read. */
    private static final class Reads extends ForwardingSource {
        private long[] ends = new long[32];
        private long[] stamps = new long[32];
        private int count;
        private int cursor;
        private long total;
        private volatile long lastRead = System.nanoTime();
        private long firstByte = UNSET;
        private boolean exhausted;
        private boolean lfAppended;
        private final byte[] last = new byte[4];
        private int lastCount;
        /** The transport's own socket-read stamps, or null (then a read is stamped when it returns here). */
        final DirectHttp1.TransportStamps transport;

        Reads(okio.Source delegate, DirectHttp1.TransportStamps transport) {
            super(delegate);
            this.transport = transport;
        }

        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
            long n = super.read(sink, byteCount);
            long returned = System.nanoTime();
            lastRead = returned;
            long now = returned;
            if (transport != null) {
                long fill = transport.lastFillNanos();
                if (fill != UNSET && fill - returned < 0) {
                    now = fill; // the socket read that delivered these bytes returned then
                }
            }
            if (n > 0) {
                if (firstByte == UNSET) {
                    firstByte = now;
                }
                record(n, now);
                for (long i = Math.max(0, n - 4); i < n; i++) {
                    shift(sink.getByte(sink.size() - n + i));
                }
            } else if (n < 0) {
                exhausted = true;
                if (lastCount > 0 && last[3] == '\r' && !lfAppended) {
                    // okhttp-sse 5.5.1 spins forever on a body that ends in a lone CR: okio's select() cannot
                    // decide between "\r\n" and "\r" at the end and consumes nothing. A CR is already a complete
                    // line end, so adding the LF of a CRLF keeps the line structure.
                    lfAppended = true;
                    sink.writeByte('\n');
                    shift((byte) '\n');
                    record(1, stampOf(total - 1));
                    return 1;
                }
            }
            return n;
        }

        private void record(long n, long now) {
            if (count == ends.length) {
                // reads before the cursor are never asked for again: drop them instead of growing
                int keep = count - cursor;
                if (cursor > count / 2) {
                    System.arraycopy(ends, cursor, ends, 0, keep);
                    System.arraycopy(stamps, cursor, stamps, 0, keep);
                    count = keep;
                    cursor = 0;
                } else {
                    ends = Arrays.copyOf(ends, count * 2);
                    stamps = Arrays.copyOf(stamps, count * 2);
                }
            }
            total += n;
            ends[count] = total;
            stamps[count] = now;
            count++;
        }

        /** @return the stamp of the read that delivered byte {@code offset}; offsets are asked in rising order */
        long stampOf(long offset) {
            if (count == 0 || offset < 0) {
                return count == 0 ? System.nanoTime() : stamps[0];
            }
            while (cursor < count - 1 && ends[cursor] <= offset) {
                cursor++;
            }
            return stamps[cursor];
        }

        private void shift(byte b) {
            System.arraycopy(last, 1, last, 0, 3);
            last[3] = b;
            lastCount = Math.min(4, lastCount + 1);
        }

        private boolean endsWithBlankLine() {
            if (lastCount < 2) {
                return false;
            }
            byte a = last[2];
            byte b = last[3];
            // "\n\n", "\r\r", or "...\r\n" preceded by another line end ("\n\r\n", "\r\r\n")
            if (b == '\n' && a == '\n' || b == '\r' && a == '\r') {
                return true;
            }
            return b == '\n' && a == '\r' && lastCount >= 3 && (last[1] == '\n' || last[1] == '\r');
        }
    }
}
