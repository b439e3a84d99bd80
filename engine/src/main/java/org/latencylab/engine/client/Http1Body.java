package org.latencylab.engine.client;

import okhttp3.MediaType;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.Source;
import okio.Timeout;

import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;

/** A response body of the own HTTP/1.1 path: a known media type over a {@link FramedSource}. */
final class Http1Body extends ResponseBody implements DirectHttp1.TransportStamps {
    private final MediaType type;
    private final long length;
    private final BufferedSource source;
    private final Http1Connection conn;

    Http1Body(MediaType type, long length, BufferedSource source, Http1Connection conn) {
        this.type = type;
        this.length = length;
        this.source = source;
        this.conn = conn;
    }

    @Override
    public long lastFillNanos() {
        return conn.lastFillNanos;
    }

    @Override
    public long lastSocketReadNanos() {
        ReadAheadInbox in = conn.inbox;
        return in != null ? in.lastReadNanos() : conn.lastFillNanos;
    }

    @Override
    public MediaType contentType() {
        return type;
    }

    @Override
    public long contentLength() {
        return length;
    }

    @Override
    public BufferedSource source() {
        return source;
    }

    /**
     * The body's bytes, framed by {@code Content-Length}, {@code chunked} or the end of the connection (RFC 9112 §6).
     * Each call that needs bytes does at most one socket read for data, and returns as soon as it has some.
     */
    static final class FramedSource implements Source {
        /** Longest wait for the rest of a body being discarded, per read, ms (OkHttp's discard limit is 100 ms). */
        static final int DISCARD_MILLIS = 100;
        private final Http1Connection conn;
        private final DirectHttp1.Exchange exchange;
        private final boolean chunked;
        private final boolean keepAlive;
        private final long declared;
        /** Bytes left: of the body (length framing) or of the current chunk; -1 = read until close. */
        private long remaining;
        private boolean firstChunk = true;
        private boolean done;
        private boolean released;
        private boolean discarding;

        FramedSource(Http1Connection conn, DirectHttp1.Exchange exchange, Http1Codec.Framing framing, boolean keepAlive) {
            this.conn = conn;
            this.exchange = exchange;
            this.chunked = framing.chunked();
            long length = framing.length();
            this.declared = chunked ? -1 : length;
            this.keepAlive = keepAlive && (chunked || length >= 0);
            this.remaining = chunked ? 0 : length;
            conn.inBody = true;
            conn.bodyMode = chunked ? ReadAhead.Mode.CHUNKED : length >= 0 ? ReadAhead.Mode.LENGTH
                    : ReadAhead.Mode.CLOSE;
            conn.bodyWant = length >= 0 ? length - conn.buf.remaining() : 0;
            if (!chunked && length == 0) {
                finish();
            }
        }

        long declaredLength() {
            return declared;
        }

        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
            if (done) {
                return -1;
            }
            if (chunked) {
                if (remaining == 0) {
                    if (!firstChunk) {
                        expectLineEnd();
                    }
                    firstChunk = false;
                    remaining = chunkSize();
                    if (remaining == 0) {
                        for (String trailer = conn.readLine(); !trailer.isEmpty(); trailer = conn.readLine()) {
                            // trailer fields carry nothing the measurement uses
                        }
                        finish();
                        return -1;
                    }
                }
                long n = deliver(sink, Math.min(byteCount, remaining), true);
                remaining -= n;
                return n;
            }
            if (remaining < 0) { // until the server closes the connection
                long n = deliver(sink, byteCount, false);
                if (n < 0) {
                    finish();
                }
                return n;
            }
            long n = deliver(sink, Math.min(byteCount, remaining), true);
            remaining -= n;
            if (remaining == 0) {
                finish();
            }
            return n;
        }

        private long chunkSize() throws IOException {
            long size = conn.readChunkSize();
            if (size < 0) {
                throw new ProtocolException("invalid chunk size line: " + ProtocolAdapter.excerpt(conn.readLine()));
            }
            return size;
        }

        private void expectLineEnd() throws IOException {
            if (!conn.readEmptyLine()) {
                throw new ProtocolException("chunk data longer than its declared size");
            }
        }

        private long deliver(Buffer sink, long max, boolean endIsEarly) throws IOException {
            ByteBuffer buf = conn.buf;
            if (!buf.hasRemaining() && conn.fill() < 0) {
                if (endIsEarly) {
                    throw new EOFException("connection closed before the end of the response body");
                }
                return -1;
            }
            int n = (int) Math.min(max, buf.remaining());
            int limit = buf.limit();
            buf.limit(buf.position() + n);
            sink.write(buf);
            buf.limit(limit);
            return n;
        }

        private void finish() {
            done = true;
            if (!released && !discarding) {
                released = true;
                exchange.done(conn, keepAlive);
            }
        }

        /**
         * Ends the exchange. A body not read to its end (a parser stops at {@code data: [DONE]}, and the terminating
         * chunk often follows a few microseconds later) is read on for at most {@value #DISCARD_MILLIS} ms per read,
         * as OkHttp does; if it ends, the connection is kept, otherwise closed. The request's stamps were all taken
         * before this.
         */
        @Override
        public void close() {
            if (released) {
                return;
            }
            boolean reusable = false;
            if (keepAlive && !exchange.isCanceled()) {
                discarding = true;
                conn.waitLimitMillis = DISCARD_MILLIS;
                try {
                    Buffer discard = new Buffer();
                    while (!done && read(discard, DirectHttp1.BUFFER_BYTES) >= 0) {
                        discard.clear();
                    }
                    reusable = done;
                } catch (IOException | RuntimeException e) {
                    // the rest did not arrive in time (or the connection failed): not reusable
                } finally {
                    conn.waitLimitMillis = 0;
                }
            }
            released = true;
            exchange.done(conn, reusable);
        }

        @Override
        public Timeout timeout() {
            return Timeout.NONE;
        }
    }
}
