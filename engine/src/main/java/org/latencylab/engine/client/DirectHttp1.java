package org.latencylab.engine.client;

import org.latencylab.engine.tuning.TuningProperties;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * The measuring path for plain-HTTP ({@code http://}) endpoints: one HTTP/1.1 exchange per stream over a pooled TCP
 * connection, written by the calling thread; its socket is read and each read stamped by a reader thread
 * ({@link ReadAhead}), and the calling thread takes the stamped bytes and parses them.
 *
 * <p>Why not OkHttp here (it stays for TLS, HTTP/2, proxies and gRPC's transport): profiled against a
 * zero-latency simulator in another process, OkHttp's call machinery (interceptor chain, exchange finder,
 * connection-pool bookkeeping and the cleanup task it schedules on every release) took a large share of the CPU of
 * the threads whose socket reads are being stamped, and that work lies between the send stamp and the request's
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
 * <p>Connections are spread over {@link #READERS} reader threads ({@link TuningProperties#READERS}). Turned off
 * altogether (every request goes through OkHttp) with {@link TuningProperties#HTTP}{@code =okhttp}.
 * Thread-safe: any number of threads may run exchanges at once; one exchange belongs to one thread, except
 * {@link Exchange#cancel()}, which any thread may call.
 */
final class DirectHttp1 implements AutoCloseable {
    /** Bytes of one connection's read and write buffer (direct memory); a header line must fit in it. */
    static final int BUFFER_BYTES = 8 * 1024;
    /** An idle pooled connection older than this is closed instead of reused, ns (OkHttp's default: 5 minutes). */
    static final long KEEP_ALIVE_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** Reader threads ({@link ReadAhead}); connections are spread over them in turn. */
    static final int READERS = TuningProperties.readers(Runtime.getRuntime().availableProcessors());

    private final int connectTimeoutMillis;
    private final ConnectionHabits habits;
    private final ConcurrentHashMap<String, ConcurrentLinkedDeque<Http1Connection>> idle = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Boolean> direct = new ConcurrentHashMap<>();
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

    /** @return whether reader threads read and stamp this client's responses: always */
    boolean readsAhead() {
        return true;
    }

    /** @return false when {@link TuningProperties#HTTP} is {@code okhttp} (this path turned off) */
    static boolean enabled() {
        return TuningProperties.ownHttpPath();
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
        ConcurrentLinkedDeque<Http1Connection> q = idle.get(key(url));
        return q == null ? 0 : q.size();
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
        ConcurrentLinkedDeque<Http1Connection> q = idle.get(key);
        Http1Connection conn = null;
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
        for (ConcurrentLinkedDeque<Http1Connection> q : idle.values()) {
            for (Http1Connection c; (c = q.pollFirst()) != null; ) {
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

    private void release(String key, Http1Connection conn) {
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

    private static String key(HttpUrl url) {
        return url.host() + ':' + url.port();
    }

    /** One request and its response on one connection. */
    final class Exchange implements StallWatchdog.Cancellable {
        private final HttpUrl url;
        private final String key;
        private volatile Http1Connection conn;
        private volatile boolean canceled;
        private boolean eager;
        private boolean streams;

        private Exchange(HttpUrl url, String key, Http1Connection conn) {
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
         * @param wire    its bytes from {@link Http1Codec#encode}
         * @param timing  stamps of DNS, connect, request written and headers received
         * @return the response; its body must be closed
         * @throws StaleConnectionException when the connection came from the pool and the server had closed it: the
         *         write failed, or the connection ended or was reset before any byte of the response arrived (and the
         *         exchange was not cancelled); the request may be sent again on a new connection
         * @throws IOException when connecting, writing or reading the head failed otherwise, or the exchange was
         *         cancelled
         */
        Response execute(Request request, byte[] wire, TimingListener timing) throws IOException {
            Http1Connection c = conn;
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

        private Http1Connection connect(TimingListener timing) throws IOException {
            timing.dnsStart = System.nanoTime();
            InetAddress address = InetAddress.getByName(url.host());
            timing.dnsEnd = System.nanoTime();
            timing.connectStart = timing.dnsEnd;
            SocketChannel ch = SocketChannel.open();
            Http1Connection c = new Http1Connection(ch);
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
            Http1Connection c = conn;
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
            Http1Connection c = conn;
            ReadAheadInbox in = c != null ? c.inbox : null;
            return in != null ? in.lastReadNanos() : UNSET;
        }

        void done(Http1Connection c, boolean reusable) {
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
}
