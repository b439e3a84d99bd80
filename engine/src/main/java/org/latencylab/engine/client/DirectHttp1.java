package org.latencylab.engine.client;

import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.Okio;
import okio.Source;
import okio.Timeout;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * The measuring path for plain-HTTP ({@code http://}) endpoints: one HTTP/1.1 exchange per stream over a pooled TCP
 * connection, written by the calling thread; its socket is read and each read stamped by a reader thread
 * ({@link ReadAhead}), and the calling thread takes the stamped bytes and parses them.
 *
 * <p>Why not OkHttp here (it stays for TLS, HTTP/2, proxies and gRPC's transport): profiled at 300 streaming
 * requests/s against a zero-latency simulator in another process, OkHttp's call machinery (interceptor chain, exchange
 * finder, connection-pool bookkeeping and the cleanup task it schedules on every release) was about half of the CPU
 * of the threads whose socket reads are being stamped, and that work lies between the send stamp and the request's
 * first byte on the wire. This path does the minimum an HTTP/1.1 client must (RFC 9112): it writes the request bytes
 * (encoded once per request object) in one write, reads the status line and header fields, and frames the body by
 * {@code Content-Length}, {@code chunked} transfer coding or connection close. Redirects are not followed (a 3xx is an
 * {@code http_status} error naming the target), the request is never repeated by the transport (a pooled
 * connection the server had closed is reported as {@link StaleConnectionException}, and the client decides), and
 * responses are not decompressed ({@code Accept-Encoding: identity} is sent unless the endpoint sets its own).
 * Connections follow the server's rules: none is reused after {@code Connection: close} or an HTTP/1.0 response,
 * after the {@code Keep-Alive: max} it announced, or when idle beyond its {@code Keep-Alive: timeout}
 * ({@link KeepAlive}), nor after a streamed response to a server known to close then ({@link ConnectionHabits}).
 *
 * <p>Stamps: {@link TimingListener#requestSent} when the last request byte was handed to the kernel (read ahead, where
 * the socket is non-blocking: when the write call that handed it over began, as that call returns at once; a stamp
 * after its return could carry a preemption),
 * {@link TimingListener#responseHeaders} at the return of the socket read that completed the header block; every body
 * byte carries the stamp of the socket read that delivered it ({@link TransportStamps}, used by {@link StampedBody}),
 * however much later the calling thread takes and parses it. A pooled connection is taken and checked (end of stream
 * or stray bytes seen by the reader mean the server closed it) in {@link #exchange}, before the caller starts its
 * clock; a new connection is opened inside the measured time, with DNS and connect stamped.
 *
 * <p>Connections are spread over {@link #READERS} reader threads (system property {@code latencylab.readers}). With the
 * system property {@code latencylab.readahead=off} the calling thread reads its socket itself, blocking, as before the
 * reader threads existed (for comparisons). Turned off altogether (every request goes through OkHttp) with the system
 * property {@code latencylab.http=okhttp}.
 * Thread-safe: any number of threads may run exchanges at once; one exchange belongs to one thread, except
 * {@link Exchange#cancel()}, which any thread may call.
 */
final class DirectHttp1 implements AutoCloseable {
    /** Bytes of one connection's read and write buffer (direct memory); a header line must fit in it. */
    static final int BUFFER_BYTES = 8 * 1024;
    /** An idle pooled connection older than this is closed instead of reused, ns (OkHttp's default: 5 minutes). */
    private static final long KEEP_ALIVE_NANOS = TimeUnit.MINUTES.toNanos(5);
    private static final byte[] CRLF = {'\r', '\n'};
    /** Reader threads ({@link ReadAhead}); connections are spread over them in turn. */
    static final int READERS = Math.max(1, Integer.getInteger("latencylab.readers",
            Math.min(4, Runtime.getRuntime().availableProcessors())));

    private final int connectTimeoutMillis;
    private final ConnectionHabits habits;
    private final ConcurrentHashMap<String, ConcurrentLinkedDeque<Conn>> idle = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Boolean> direct = new ConcurrentHashMap<>();
    private final boolean readAheadEnabled = !"off".equalsIgnoreCase(System.getProperty("latencylab.readahead", ""));
    private ReadAhead[] readAhead;
    private int nextReader;
    private volatile boolean closed;

    /** @param connectTimeoutMillis TCP connect limit, ms; 0 = none */
    DirectHttp1(long connectTimeoutMillis) {
        this(connectTimeoutMillis, new ConnectionHabits());
    }

    /**
     * @param connectTimeoutMillis TCP connect limit, ms; 0 = none
     * @param habits               what is known of servers' connection habits, shared with the client's other path
     */
    DirectHttp1(long connectTimeoutMillis, ConnectionHabits habits) {
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(0, connectTimeoutMillis));
        this.habits = habits;
    }

    /** @return whether reader threads read and stamp this client's responses (unless {@code latencylab.readahead=off}) */
    boolean readsAhead() {
        return readAheadEnabled;
    }

    /** @return false when the system property {@code latencylab.http} is {@code okhttp} (this path turned off) */
    static boolean enabled() {
        return !"okhttp".equalsIgnoreCase(System.getProperty("latencylab.http", ""));
    }

    /**
     * @param url a request URL
     * @return true when this path serves it: {@code http} scheme and no proxy selected for it
     */
    boolean handles(HttpUrl url) {
        if (!"http".equals(url.scheme())) {
            return false;
        }
        return direct.computeIfAbsent(key(url), k -> {
            ProxySelector selector = ProxySelector.getDefault();
            if (selector == null) {
                return true;
            }
            List<Proxy> proxies = selector.select(url.uri());
            return proxies == null || proxies.isEmpty() || proxies.stream().allMatch(p -> p.type() == Proxy.Type.DIRECT);
        });
    }

    /** @param url a URL @return idle pooled connections to its host and port */
    int idleCount(HttpUrl url) {
        ConcurrentLinkedDeque<Conn> q = idle.get(key(url));
        return q == null ? 0 : q.size();
    }

    /**
     * Encodes a request as HTTP/1.1 bytes: request line, {@code Host}, the request's header fields,
     * {@code Content-Type}/{@code Content-Length} of its body, then the body.
     *
     * @param request an OkHttp request (POST with a body, or a bodiless GET)
     * @return the bytes to write
     * @throws IOException when the body cannot be written out
     */
    static byte[] encode(Request request) throws IOException {
        Buffer out = new Buffer();
        HttpUrl url = request.url();
        String target = url.encodedPath() + (url.encodedQuery() == null ? "" : "?" + url.encodedQuery());
        out.writeUtf8(request.method()).writeByte(' ').writeUtf8(target).writeUtf8(" HTTP/1.1\r\n");
        String host = url.host().contains(":") ? "[" + url.host() + "]" : url.host();
        out.writeUtf8("Host: ").writeUtf8(host);
        if (url.port() != HttpUrl.defaultPort(url.scheme())) {
            out.writeByte(':').writeUtf8(Integer.toString(url.port()));
        }
        out.write(CRLF);
        Headers headers = request.headers();
        for (int i = 0; i < headers.size(); i++) {
            out.writeUtf8(headers.name(i)).writeUtf8(": ").writeUtf8(headers.value(i)).write(CRLF);
        }
        if (request.header("Accept-Encoding") == null) {
            out.writeUtf8("Accept-Encoding: identity\r\n");
        }
        if (request.header("User-Agent") == null) {
            out.writeUtf8("User-Agent: latencylab\r\n");
        }
        okhttp3.RequestBody body = request.body();
        Buffer content = new Buffer();
        if (body != null) {
            body.writeTo(content);
            MediaType type = body.contentType();
            if (type != null && request.header("Content-Type") == null) {
                out.writeUtf8("Content-Type: ").writeUtf8(type.toString()).write(CRLF);
            }
            out.writeUtf8("Content-Length: ").writeUtf8(Long.toString(content.size())).write(CRLF);
        }
        out.write(CRLF);
        out.writeAll(content);
        return out.readByteArray();
    }

    /**
     * Starts an exchange: takes an idle pooled connection to the URL's host and port that the server has not closed,
     * if there is one (call it before starting the clock: nothing here is the server's time).
     *
     * @param url the request URL ({@link #handles} true)
     * @return the exchange; never null
     * @throws IOException when this transport was closed
     */
    Exchange exchange(HttpUrl url) throws IOException {
        return exchange(url, 0);
    }

    /**
     * Starts an exchange, on a new connection while the pool holds fewer than {@code idleWanted} idle connections to
     * the URL's host and port: for the small requests that open connections before a measurement
     * ({@code LlmClient#warm}), each of which must leave one more connection in the pool until it holds as many as
     * the measurement needs.
     *
     * @param url        the request URL ({@link #handles} true)
     * @param idleWanted idle connections below which to connect anew; 0 for a pooled connection whenever one is idle
     * @return the exchange; never null
     * @throws IOException when this transport was closed
     */
    Exchange exchange(HttpUrl url, int idleWanted) throws IOException {
        if (closed) {
            throw new IOException("client closed");
        }
        String key = key(url);
        if (idleWanted > 0 && idleCount(url) < idleWanted) {
            return new Exchange(url, key, null);
        }
        ConcurrentLinkedDeque<Conn> q = idle.get(key);
        Conn conn = null;
        long now = System.nanoTime();
        while (q != null && (conn = q.pollFirst()) != null) {
            long idleNanos = now - conn.idleSince;
            if (idleNanos < conn.idleLimitNanos) {
                if (conn.healthy()) {
                    break;
                }
                habits.closedInPool(key, conn.lastStreamed, idleNanos, conn.streamedResponses); // the reader saw it
            }
            conn.close();
        }
        return new Exchange(url, key, conn);
    }

    /** Closes every idle pooled connection; connections in use are closed when their exchange ends. */
    void evictAll() {
        for (ConcurrentLinkedDeque<Conn> q : idle.values()) {
            for (Conn c; (c = q.pollFirst()) != null; ) {
                c.close();
            }
        }
    }

    /** Closes every idle connection, stops the reader thread and refuses new exchanges. Idempotent. */
    @Override
    public void close() {
        closed = true;
        evictAll();
        synchronized (this) {
            if (readAhead != null) {
                for (ReadAhead r : readAhead) {
                    r.close();
                }
            }
        }
    }

    /** @return how many body or head reads waited for the reader thread so far (each a wake-up of a request thread) */
    synchronized long readAheadWaits() {
        long n = 0;
        if (readAhead != null) {
            for (ReadAhead r : readAhead) {
                n += r.waits();
            }
        }
        return n;
    }

    /** @return the reader thread's owner, started on first use; null when read-ahead is off */
    private synchronized ReadAhead readAhead() throws IOException {
        if (!readAheadEnabled) {
            return null;
        }
        if (closed) {
            throw new IOException("client closed");
        }
        if (readAhead == null) {
            readAhead = new ReadAhead[READERS];
            for (int i = 0; i < READERS; i++) {
                readAhead[i] = new ReadAhead();
            }
        }
        nextReader = (nextReader + 1) % READERS;
        return readAhead[nextReader];
    }

    private void release(String key, Conn conn) {
        if (closed) {
            conn.close();
            return;
        }
        conn.idleSince = System.nanoTime();
        idle.computeIfAbsent(key, k -> new ConcurrentLinkedDeque<>()).offerFirst(conn);
        if (closed) {
            evictAll();
        }
    }

    /** Parsed content types (OkHttp parses with a regular expression); a handful per endpoint in practice. */
    private static final ConcurrentHashMap<String, MediaType> MEDIA_TYPES = new ConcurrentHashMap<>();

    private static MediaType mediaType(String value) {
        MediaType known = MEDIA_TYPES.get(value);
        if (known != null || MEDIA_TYPES.size() > 256) {
            return known != null ? known : MediaType.parse(value);
        }
        MediaType parsed = MediaType.parse(value);
        if (parsed != null) {
            MEDIA_TYPES.put(value, parsed);
        }
        return parsed;
    }

    /** @param connection a {@code Connection} field value, or null @return true when it holds the token {@code close} */
    static boolean closes(String connection) {
        if (connection == null) {
            return false;
        }
        for (String token : connection.split(",")) {
            if (token.trim().equalsIgnoreCase("close")) {
                return true;
            }
        }
        return false;
    }

    private static String key(HttpUrl url) {
        return url.host() + ':' + url.port();
    }

    /** One request and its response on one connection. */
    final class Exchange implements StallWatchdog.Cancellable {
        private final HttpUrl url;
        private final String key;
        private volatile Conn conn;
        private volatile boolean canceled;
        private boolean eager;
        private boolean streams;

        private Exchange(HttpUrl url, String key, Conn conn) {
            this.url = url;
            this.key = key;
            this.conn = conn;
        }

        /** @return true when the exchange runs on a connection taken from the pool */
        boolean reused() {
            return conn != null;
        }

        /**
         * Has the body read as each read arrives ({@link ReadAhead.Mode#EAGER}) instead of in large pieces: for a
         * request that must react while it streams (a first-token callback). Stamps are the same either way.
         *
         * @param eager true to be woken by every read
         */
        void eager(boolean eager) {
            this.eager = eager;
        }

        /**
         * Says whether the request streams, for the connection rules that depend on it
         * ({@link ConnectionHabits#closesAfterStreams}).
         *
         * @param streams true for a streaming request
         */
        void streams(boolean streams) {
            this.streams = streams;
        }

        /**
         * Connects if needed, writes the request and reads the response's status line and header fields; the body is
         * read through the returned response (closing it returns the connection to the pool when the body was read to
         * its end, else closes it).
         *
         * @param request the request (for the response's {@link Response#request()})
         * @param wire    its bytes from {@link #encode}
         * @param timing  stamps of DNS, connect, request written and headers received
         * @return the response; its body must be closed
         * @throws StaleConnectionException when the connection came from the pool and the server had closed it: the
         *         write failed, or the connection ended or was reset before any byte of the response arrived (and the
         *         exchange was not cancelled); the request may be sent again on a new connection
         * @throws IOException when connecting, writing or reading the head failed otherwise, or the exchange was
         *         cancelled
         */
        Response execute(Request request, byte[] wire, TimingListener timing) throws IOException {
            Conn c = conn;
            boolean pooled = c != null;
            if (c == null) {
                c = connect(timing);
            }
            boolean writing = true;
            try {
                c.eager = eager;
                c.headStart = UNSET;
                c.gotBytes = false;
                if (RequestThreads.takeFirstSendPermit() && (c.inbox == null || !c.permit.compareAndSet(false, true))) {
                    ReadAhead.WORK_PERMITS.release(); // only a read-ahead connection gives it back at its wait
                }
                long beforeLastWrite = c.write(wire);
                writing = false;
                // Read ahead, the socket is non-blocking: the last write call handed the last bytes over at once, and
                // it began at beforeLastWrite. A stamp after its return could be late by however long this thread
                // waited to run again, and a thread that parses behind the reader threads (a low priority, see
                // RequestThreads.PARSING_PRIORITY) is often preempted right there, by the server the write woke.
                timing.requestSent = c.inbox != null ? beforeLastWrite : System.nanoTime();
                Response response = c.readResponse(request, this, timing);
                if (c.headStart != UNSET && c.headStart - timing.requestSent < 0) {
                    // The reader thread read the answer before this thread, preempted between its last write's return
                    // and the stamp (the write woke the server), took the stamp: the request was handed over at the
                    // latest when that write began.
                    timing.requestSent = Math.min(beforeLastWrite, c.headStart);
                }
                return response;
            } catch (IOException e) {
                c.close();
                if (pooled && !canceled && !c.gotBytes && StaleConnectionException.closeLike(e)) {
                    habits.closedInPool(key, c.lastStreamed, System.nanoTime() - c.idleSince, c.streamedResponses);
                    throw new StaleConnectionException(StaleConnectionException.reasonOf(e, writing), e);
                }
                throw e;
            } catch (RuntimeException e) {
                c.close();
                throw e;
            }
        }

        private Conn connect(TimingListener timing) throws IOException {
            timing.dnsStart = System.nanoTime();
            InetAddress address = InetAddress.getByName(url.host());
            timing.dnsEnd = System.nanoTime();
            timing.connectStart = timing.dnsEnd;
            SocketChannel ch = SocketChannel.open();
            Conn c = new Conn(ch);
            conn = c;
            if (canceled) {
                c.close();
                throw new IOException("Canceled");
            }
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true); // see NoDelaySocketFactory
                ch.socket().connect(new InetSocketAddress(address, url.port()), connectTimeoutMillis);
                timing.connectEnd = System.nanoTime();
                ReadAhead reader = readAhead();
                if (reader != null) {
                    c.inbox = reader.attach(ch);
                }
            } catch (IOException e) {
                c.close();
                throw e;
            }
            return c;
        }

        @Override
        public void cancel() {
            canceled = true;
            Conn c = conn;
            if (c != null) {
                c.close(); // a read or write blocked on it fails at once
            }
        }

        @Override
        public boolean isCanceled() {
            return canceled;
        }

        /**
         * @return the stamp of the connection's latest read by its reader thread, or {@code RequestRecord.UNSET} when
         * the request thread reads the socket itself (then its head is parsed as it arrives)
         */
        @Override
        public long lastReadAheadNanos() {
            Conn c = conn;
            ReadAhead.Inbox in = c != null ? c.inbox : null;
            return in != null ? in.lastReadNanos() : UNSET;
        }

        private void done(Conn c, boolean reusable) {
            c.releasePermit();
            c.responses++;
            c.lastStreamed = streams;
            if (streams) {
                c.streamedResponses++;
            }
            if (c.responses >= c.maxResponses || streams && habits.closesAfterStreams(key)) {
                reusable = false; // the server allows no more requests on it, or closes it after streams anyway
            }
            if (reusable && !canceled) {
                release(key, c);
            } else {
                c.close();
            }
        }
    }

    /** A TCP connection with its buffer; used by one exchange at a time. */
    private static final class Conn {
        final SocketChannel ch;
        /** Unread response bytes between position and limit. */
        final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER_BYTES).flip();
        private ByteBuffer out;
        long idleSince;
        /** Responses completed on this connection. */
        int responses;
        /** Responses the server allows on this connection ({@code Keep-Alive: max=N}); unlimited by default. */
        int maxResponses = Integer.MAX_VALUE;
        /** Longest idle time after which the connection is still reused, ns ({@code Keep-Alive: timeout=T}). */
        long idleLimitNanos = KEEP_ALIVE_NANOS;
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
        volatile ReadAhead.Inbox inbox;
        /** When a body read waits for bytes, what wakes it ({@link ReadAhead.Mode}); the head is always eager. */
        ReadAhead.Mode bodyMode = ReadAhead.Mode.EAGER;
        /** For {@link ReadAhead.Mode#LENGTH}: body bytes not yet taken from the inbox. */
        long bodyWant;
        /** True while the body of the current exchange is read (else the head: read eagerly). */
        boolean inBody;
        /** The current exchange reads eagerly ({@link Exchange#eager}). */
        boolean eager;
        /** The stamp of the first read of the current response, or UNSET. */
        long headStart = UNSET;
        /** Whether the thread reading this connection holds one of {@link ReadAhead#WORK_PERMITS}. */
        private final java.util.concurrent.atomic.AtomicBoolean permit = new java.util.concurrent.atomic.AtomicBoolean();

        /** Gives back the reading thread's work permit, if it holds one; safe from any thread, idempotent. */
        void releasePermit() {
            if (permit.compareAndSet(true, false)) {
                ReadAhead.WORK_PERMITS.release();
            }
        }

        Conn(SocketChannel ch) {
            this.ch = ch;
        }

        /** @return false when the server closed the connection or sent bytes nobody asked for */
        boolean healthy() {
            if (!ch.isOpen() || buf.hasRemaining()) {
                return false;
            }
            ReadAhead.Inbox in = inbox;
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
                out = ByteBuffer.allocateDirect(BUFFER_BYTES);
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
            ReadAhead.Inbox in = inbox;
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
        private int take(ReadAhead.Inbox in) throws IOException {
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
                    throw new ProtocolException("response line longer than " + BUFFER_BYTES + " bytes");
                }
                if (fill() < 0) {
                    throw new EOFException("connection closed before the end of the response head");
                }
            }
        }

        /**
         * Reads a chunk-size line (RFC 9112 §7.1: hex digits, optional {@code ;extensions}, optional spaces) without
         * allocating: it is read once per streamed event.
         *
         * @return the size, or -1 when the line is not a valid chunk size (the caller reports it with the line)
         */
        long readChunkSize() throws IOException {
            int nl = lineEnd("body");
            int end = nl > buf.position() && buf.get(nl - 1) == '\r' ? nl - 1 : nl;
            long size = 0;
            boolean digits = false;
            boolean valid = true;
            boolean trailingSpace = false;
            for (int i = buf.position(); i < end; i++) {
                int c = buf.get(i);
                if (c == ';') {
                    break; // chunk extensions are ignored
                }
                int d = Character.digit(c, 16);
                if (c == ' ' || c == '\t') {
                    trailingSpace = digits;
                } else if (d < 0 || trailingSpace || size >>> 59 != 0) {
                    valid = false; // a space inside the digits, a non-hex byte, or a size beyond 63 bits
                    break;
                } else {
                    size = size << 4 | d;
                    digits = true;
                }
            }
            if (!valid || !digits) {
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
                    throw new ProtocolException("response line longer than " + BUFFER_BYTES + " bytes");
                }
                if (fill() < 0) {
                    throw new EOFException("connection closed before the end of the response " + part);
                }
            }
        }

        Response readResponse(Request request, Exchange exchange, TimingListener timing) throws IOException {
            inBody = false;
            while (true) {
                String status = readLine();
                // "HTTP/1.1 200 OK": version, a three-digit code, an optional reason phrase (RFC 9112 §4)
                if (status.length() < 12 || !status.startsWith("HTTP/1.") || status.charAt(8) != ' ') {
                    throw new ProtocolException("unexpected status line: " + ProtocolAdapter.excerpt(status));
                }
                int code;
                try {
                    code = Integer.parseInt(status.substring(9, 12));
                } catch (NumberFormatException e) {
                    throw new ProtocolException("unexpected status line: " + ProtocolAdapter.excerpt(status));
                }
                String message = status.length() > 13 ? status.substring(13) : "";
                Headers.Builder hb = new Headers.Builder();
                for (String line = readLine(); !line.isEmpty(); line = readLine()) {
                    int colon = line.indexOf(':');
                    if (colon <= 0) {
                        throw new ProtocolException("malformed header field: " + ProtocolAdapter.excerpt(line));
                    }
                    hb.addUnsafeNonAscii(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
                }
                if (code >= 100 && code < 200 && code != 101) {
                    continue; // interim response (100 Continue, 103 Early Hints): the final one follows
                }
                timing.responseHeaders = lastFillNanos;
                Headers headers = hb.build();
                // HTTP/1.0 and "Connection: close" end the connection with the response (RFC 9112 §9.3)
                boolean keepAlive = status.startsWith("HTTP/1.1") && !closes(headers.get("Connection"));
                KeepAlive limits = KeepAlive.parse(headers.get("Keep-Alive"));
                if (limits.idleLimitNanos() >= 0) {
                    idleLimitNanos = Math.min(KEEP_ALIVE_NANOS, limits.idleLimitNanos());
                }
                if (limits.max() > 0) {
                    maxResponses = limits.max();
                }
                BodySource body = new BodySource(this, exchange, headers, code, keepAlive);
                String type = headers.get("Content-Type");
                MediaType mediaType = type == null ? null : mediaType(type);
                if (code >= 300 && code < 400 && headers.get("Location") != null) {
                    message = (message.isEmpty() ? "" : message + " ") + "(redirect to " + headers.get("Location")
                            + " not followed: use that URL as the endpoint's baseUrl)";
                }
                return new Response.Builder().request(request).protocol(okhttp3.Protocol.HTTP_1_1).code(code)
                        .message(message).headers(headers)
                        .body(new Body(mediaType, body.declaredLength(), Okio.buffer(body), this)).build();
            }
        }

        void close() {
            ReadAhead.Inbox in = inbox;
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

    /**
     * The socket-read stamps behind a body this transport delivers, for {@link StampedBody}: with read-ahead the body's
     * bytes are taken long after the reads that delivered them, so the moment they are handed over is not their time.
     */
    interface TransportStamps {
        /** @return the stamp of the socket read that delivered the newest byte handed over so far, or UNSET */
        long lastFillNanos();

        /** @return when the latest socket read of this connection returned (the idle watchdog's clock), ns */
        long lastSocketReadNanos();
    }

    /** A response body of a known media type over a framing source. */
    private static final class Body extends ResponseBody implements TransportStamps {
        private final MediaType type;
        private final long length;
        private final BufferedSource source;
        private final Conn conn;

        Body(MediaType type, long length, BufferedSource source, Conn conn) {
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
            ReadAhead.Inbox in = conn.inbox;
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
    }

    /**
     * The body's bytes, framed by {@code Content-Length}, {@code chunked} or the end of the connection (RFC 9112 §6).
     * Each call that needs bytes does at most one socket read for data, and returns as soon as it has some.
     */
    private static final class BodySource implements Source {
        /** Longest wait for the rest of a body being discarded, per read, ms (OkHttp's discard limit is 100 ms). */
        static final int DISCARD_MILLIS = 100;
        private final Conn conn;
        private final Exchange exchange;
        private final boolean chunked;
        private final boolean keepAlive;
        private final long declared;
        /** Bytes left: of the body (length framing) or of the current chunk; -1 = read until close. */
        private long remaining;
        private boolean firstChunk = true;
        private boolean done;
        private boolean released;
        private boolean discarding;

        BodySource(Conn conn, Exchange exchange, Headers headers, int code, boolean keepAlive) throws IOException {
            this.conn = conn;
            this.exchange = exchange;
            String te = headers.get("Transfer-Encoding");
            this.chunked = te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
            String cl = headers.get("Content-Length");
            long length = -1;
            if (code == 204 || code == 304) {
                length = 0;
            } else if (!chunked && cl != null) {
                try {
                    length = Long.parseLong(cl.trim());
                } catch (NumberFormatException e) {
                    throw new ProtocolException("invalid Content-Length: " + ProtocolAdapter.excerpt(cl));
                }
            }
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
                    while (!done && read(discard, BUFFER_BYTES) >= 0) {
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
