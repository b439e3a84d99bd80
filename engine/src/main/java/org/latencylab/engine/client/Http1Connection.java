package org.latencylab.engine.client;

import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.Response;
import okio.Okio;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/** A TCP connection with its buffer; used by one exchange at a time. */
final class Http1Connection {
    final SocketChannel ch;
    /** Unread response bytes between position and limit. */
    final ByteBuffer buf = ByteBuffer.allocateDirect(DirectHttp1.BUFFER_BYTES).flip();
    private ByteBuffer out;
    long idleSince;
    /** Responses completed on this connection. */
    int responses;
    /** Responses the server allows on this connection ({@code Keep-Alive: max=N}); unlimited by default. */
    int maxResponses = Integer.MAX_VALUE;
    /** Longest idle time after which the connection is still reused, ns ({@code Keep-Alive: timeout=T}). */
    long idleLimitNanos = DirectHttp1.KEEP_ALIVE_NANOS;
    /** Streamed responses completed on this connection. */
    int streamedResponses;
    /** Whether the last response on it was a streamed one. */
    boolean lastStreamed;
    /** Whether any byte of the current exchange's response was read. */
    boolean gotBytes;
    long lastFillNanos = UNSET;
    /** When above 0, reads wait at most this long (ms) and then fail (while a body is discarded). */
    int waitLimitMillis;
    /** The reader thread's inbox of this socket, or null: then this thread reads the socket itself. */
    volatile ReadAheadInbox inbox;
    /** When a body read waits for bytes, what wakes it ({@link ReadAhead.Mode}); the head is always eager. */
    ReadAhead.Mode bodyMode = ReadAhead.Mode.EAGER;
    /** For {@link ReadAhead.Mode#LENGTH}: body bytes not yet taken from the inbox. */
    long bodyWant;
    /** True while the body of the current exchange is read (else the head: read eagerly). */
    boolean inBody;
    /** The current exchange reads eagerly ({@link DirectHttp1.Exchange#eager}). */
    boolean eager;
    /** The stamp of the first read of the current response, or UNSET. */
    long headStart = UNSET;
    /** Whether the thread reading this connection holds one of {@link ReadAhead#WORK_PERMITS}. */
    final java.util.concurrent.atomic.AtomicBoolean permit = new java.util.concurrent.atomic.AtomicBoolean();

    /** Gives back the reading thread's work permit, if it holds one; safe from any thread, idempotent. */
    void releasePermit() {
        if (permit.compareAndSet(true, false)) {
            ReadAhead.WORK_PERMITS.release();
        }
    }

    Http1Connection(SocketChannel ch) {
        this.ch = ch;
    }

    /** @return false when the server closed the connection or sent bytes nobody asked for */
    boolean healthy() {
        if (!ch.isOpen() || buf.hasRemaining()) {
            return false;
        }
        ReadAheadInbox in = inbox;
        if (in != null) {
            return in.clean();
        }
        try {
            ch.configureBlocking(false);
            buf.clear();
            int n = ch.read(buf);
            buf.flip();
            ch.configureBlocking(true);
            return n == 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Writes the request's bytes.
     *
     * @return {@link System#nanoTime()} just before the write call that handed over the last byte
     */
    long write(byte[] wire) throws IOException {
        if (out == null) {
            out = ByteBuffer.allocateDirect(DirectHttp1.BUFFER_BYTES);
        }
        long beforeLast = System.nanoTime();
        for (int off = 0; off < wire.length; ) {
            int n = Math.min(out.capacity(), wire.length - off);
            out.clear();
            out.put(wire, off, n).flip();
            while (out.hasRemaining()) {
                beforeLast = System.nanoTime();
                if (ch.write(out) == 0) {
                    LockSupport.parkNanos(50_000); // non-blocking (read ahead) and the socket's buffer full
                }
            }
            off += n;
        }
        return beforeLast;
    }

    /** Reads once more from the socket, keeping unread bytes. @return bytes read, -1 at end of stream */
    int fill() throws IOException {
        ReadAheadInbox in = inbox;
        if (in != null) {
            return take(in);
        }
        if (waitLimitMillis > 0) {
            return fillWithin(waitLimitMillis);
        }
        buf.compact();
        int n;
        try {
            n = ch.read(buf);
        } finally {
            buf.flip();
        }
        lastFillNanos = System.nanoTime();
        if (n > 0) {
            gotBytes = true;
        }
        return n;
    }

    /** {@link #fill()} from the reader thread's inbox: the bytes of at most one socket read, with its stamp. */
    private int take(ReadAheadInbox in) throws IOException {
        long deadline = waitLimitMillis > 0 ? System.nanoTime() + waitLimitMillis * 1_000_000L : UNSET;
        // a response whose first byte is still in the inbox waits for its head and body at once (Mode.HEAD)
        ReadAhead.Mode mode = eager ? ReadAhead.Mode.EAGER : inBody ? bodyMode
                : buf.hasRemaining() ? ReadAhead.Mode.EAGER : ReadAhead.Mode.HEAD;
        boolean waits = !in.ready();
        if (waits) {
            releasePermit();
        }
        buf.compact();
        int n;
        try {
            n = in.take(buf, mode, bodyWant, deadline);
        } finally {
            buf.flip();
        }
        if (waits) {
            try {
                // bounded: a permit never given back (a bug) must slow the client down, not hang it
                if (ReadAhead.WORK_PERMITS.tryAcquire(ReadAhead.PERMIT_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    permit.set(true);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the request ends as cancelled; no permit needed for that
            }
        }
        if (n > 0) {
            gotBytes = true;
            lastFillNanos = in.takenStamp();
            if (headStart == UNSET) {
                headStart = lastFillNanos;
            }
            if (inBody && bodyMode == ReadAhead.Mode.LENGTH) {
                bodyWant -= n;
            }
        }
        return n;
    }

    /**
     * Like {@link #fill()}, but waits at most {@code millis} for bytes (through the socket adaptor, whose reads
     * honour {@code SO_TIMEOUT}; a channel read has no timeout). @throws java.net.SocketTimeoutException then
     */
    private int fillWithin(int millis) throws IOException {
        buf.compact();
        int n;
        try {
            byte[] tmp = new byte[buf.remaining()];
            ch.socket().setSoTimeout(millis);
            n = ch.socket().getInputStream().read(tmp);
            if (n > 0) {
                buf.put(tmp, 0, n);
            }
        } finally {
            buf.flip();
        }
        return n;
    }

    /** @return the next line without its line end (ISO-8859-1) @throws EOFException at end of stream */
    String readLine() throws IOException {
        while (true) {
            for (int i = buf.position(); i < buf.limit(); i++) {
                if (buf.get(i) == '\n') {
                    int end = i > buf.position() && buf.get(i - 1) == '\r' ? i - 1 : i;
                    byte[] line = new byte[end - buf.position()];
                    buf.get(line);
                    buf.position(i + 1);
                    return new String(line, StandardCharsets.ISO_8859_1);
                }
            }
            if (buf.position() == 0 && buf.limit() == buf.capacity()) {
                throw new ProtocolException("response line longer than " + DirectHttp1.BUFFER_BYTES + " bytes");
            }
            if (fill() < 0) {
                throw new EOFException("connection closed before the end of the response head");
            }
        }
    }

    /**
     * Reads a chunk-size line ({@link Http1Codec#chunkSize}) without allocating: it is read once per streamed
     * event.
     *
     * @return the size, or -1 when the line is not a valid chunk size (the caller reports it with the line)
     */
    long readChunkSize() throws IOException {
        int nl = lineEnd("body");
        int end = nl > buf.position() && buf.get(nl - 1) == '\r' ? nl - 1 : nl;
        long size = Http1Codec.chunkSize(buf, buf.position(), end);
        if (size < 0) {
            return -1; // the line stays in the buffer for the caller's message
        }
        buf.position(nl + 1);
        return size;
    }

    /** @return true when the next line is empty (and consumed); false, line unread, when it is not */
    boolean readEmptyLine() throws IOException {
        int nl = lineEnd("body");
        int p = buf.position();
        if (nl == p || (nl == p + 1 && buf.get(p) == '\r')) {
            buf.position(nl + 1);
            return true;
        }
        return false;
    }

    /**
     * @param part "head" or "body", for the message when the connection closes first
     * @return the index of the next {@code \n} in the buffer, reading more until one is there
     */
    private int lineEnd(String part) throws IOException {
        while (true) {
            for (int i = buf.position(); i < buf.limit(); i++) {
                if (buf.get(i) == '\n') {
                    return i;
                }
            }
            if (buf.position() == 0 && buf.limit() == buf.capacity()) {
                throw new ProtocolException("response line longer than " + DirectHttp1.BUFFER_BYTES + " bytes");
            }
            if (fill() < 0) {
                throw new EOFException("connection closed before the end of the response " + part);
            }
        }
    }

    Response readResponse(Request request, DirectHttp1.Exchange exchange, TimingListener timing) throws IOException {
        inBody = false;
        while (true) {
            Http1Codec.StatusLine status = Http1Codec.statusLine(readLine());
            Headers.Builder hb = new Headers.Builder();
            for (String line = readLine(); !line.isEmpty(); line = readLine()) {
                Http1Codec.headerLine(line, hb);
            }
            int code = status.code();
            if (Http1Codec.interim(code)) {
                continue; // the final response follows
            }
            timing.responseHeaders = lastFillNanos;
            Headers headers = hb.build();
            boolean keepAlive = Http1Codec.keepAlive(status, headers);
            KeepAlive limits = KeepAlive.parse(headers.get("Keep-Alive"));
            if (limits.idleLimitNanos() >= 0) {
                idleLimitNanos = Math.min(DirectHttp1.KEEP_ALIVE_NANOS, limits.idleLimitNanos());
            }
            if (limits.max() > 0) {
                maxResponses = limits.max();
            }
            Http1Body.FramedSource body = new Http1Body.FramedSource(this, exchange, Http1Codec.framing(headers, code),
                    keepAlive);
            String type = headers.get("Content-Type");
            MediaType mediaType = type == null ? null : Http1Codec.mediaType(type);
            String message = Http1Codec.reason(code, status.message(), headers);
            return new Response.Builder().request(request).protocol(okhttp3.Protocol.HTTP_1_1).code(code)
                    .message(message).headers(headers)
                    .body(new Http1Body(mediaType, body.declaredLength(), Okio.buffer(body), this)).build();
        }
    }

    void close() {
        ReadAheadInbox in = inbox;
        if (in != null) {
            in.closedHere(); // a take waiting on it fails at once, as a blocked socket read would
            releasePermit();
        }
        try {
            ch.close();
        } catch (IOException e) {
            // closing is best effort
        }
    }
}
