package org.latencylab.engine.replay;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.GZIPOutputStream;

/**
 * Serves one {@link ConformanceCase} on loopback ({@code 127.0.0.1}, an ephemeral port) with its timing.
 *
 * <p>Any path and method are accepted. Request number {@code i} (from 0) gets
 * {@code responses[min(i, last)]}. For each request the server reads the whole request body, then sends
 * status and headers at once (chunked body), writes and flushes each part at {@code at_ms} after the
 * request was read (waiting with {@link LockSupport#parkNanos} until that deadline, so late parts are not
 * delayed further), and closes the response. {@code compress_if_accepted: gzip} gzips the body (with a sync
 * flush after each part) when the request's {@code Accept-Encoding} allows gzip.
 *
 * <p>The server records when it actually wrote each part ({@link #served()}): a part meant for 300 ms may go out
 * later when this process is paused (a garbage-collector pause, an overloaded CPU), and a checker must not blame
 * the client for that.
 *
 * <p>TCP_NODELAY: the JDK server reads {@code sun.net.httpserver.nodelay} once, when the first server of the JVM is
 * created. This class sets it to {@code true} (unless already set) before creating its server: without it Nagle's
 * algorithm holds a small part back in the kernel until the client acknowledges the previous one (up to the
 * client's delayed-ACK time, tens of milliseconds), after the write stamp was taken, and the client would be blamed.
 *
 * <p>Built on the JDK's {@code com.sun.net.httpserver.HttpServer} with one virtual thread per exchange.
 * Thread-safe; {@link #close} stops the server and its threads.
 */
public final class ReplayServer implements AutoCloseable {
    static {
        // the JDK's HTTP server, not Jetty's com.sun.net.httpserver provider (on the class path for the simulator's
        // HTTP/2 front), unless a provider was chosen already
        if (System.getProperty("com.sun.net.httpserver.HttpServerProvider") == null) {
            System.setProperty("com.sun.net.httpserver.HttpServerProvider", "sun.net.httpserver.DefaultHttpServerProvider");
        }
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<ConformanceCase.ScriptedResponse> responses;
    private final AtomicInteger requests = new AtomicInteger();
    private final List<Served> served = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ReplayServer(ConformanceCase c) throws IOException {
        this.responses = c.responses();
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * Starts a server for one case.
     *
     * @param c the case to serve; not null
     * @return the running server
     * @throws IOException when no loopback port can be bound
     */
    public static ReplayServer start(ConformanceCase c) throws IOException {
        return new ReplayServer(Objects.requireNonNull(c, "case"));
    }

    /** @return the base URL, e.g. {@code http://127.0.0.1:41234} (no trailing slash) */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * What the server actually did, per request received so far, in arrival order. A part's write stamp is set just
     * before its bytes are handed to the socket, so it is visible by the time a client can have read them.
     *
     * @return one entry per request; live views whose stamps fill in as parts are written
     */
    public List<Served> served() {
        return List.copyOf(served);
    }

    /**
     * One request as served.
     *
     * @param request      request number, from 0
     * @param response     index of the scripted response served, from 0
     * @param readNanos    {@link System#nanoTime()} when the request had been read ({@code at_ms} counts from here)
     * @param dueNanos     per part, when it was due ({@code readNanos + at_ms}), nanoTime
     * @param writtenNanos per part, nanoTime just before its bytes were written, or {@code Long.MIN_VALUE} while not
     *                     written (yet); thread-safe
     */
    public record Served(int request, int response, long readNanos, long[] dueNanos,
                         java.util.concurrent.atomic.AtomicLongArray writtenNanos) {
        /** Marks a part not written (yet). */
        public static final long NOT_WRITTEN = Long.MIN_VALUE;

        /** @param part part index, from 0 @return how late the part was written, ns (>= 0), or -1 when not written */
        public long lateNanos(int part) {
            long w = writtenNanos.get(part);
            return w == NOT_WRITTEN ? -1 : Math.max(0, w - dueNanos[part]);
        }
    }

    /** @return the number of requests received so far */
    public int requestCount() {
        return requests.get();
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            long t0 = System.nanoTime();
            int i = requests.getAndIncrement();
            int which = Math.min(i, responses.size() - 1);
            ConformanceCase.ScriptedResponse r = responses.get(which);
            long[] due = new long[r.parts().size()];
            var written = new java.util.concurrent.atomic.AtomicLongArray(due.length);
            for (int k = 0; k < due.length; k++) {
                due[k] = t0 + TimeUnit.MILLISECONDS.toNanos(r.parts().get(k).atMs());
                written.set(k, Served.NOT_WRITTEN);
            }
            served.add(new Served(i, which, t0, due, written));
            r.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            boolean gzip = "gzip".equals(r.compressIfAccepted()) && acceptsGzip(exchange);
            if (gzip) {
                exchange.getResponseHeaders().set("Content-Encoding", "gzip");
            }
            boolean noBody = r.status() == 204 || r.status() == 304 || r.status() < 200;
            exchange.sendResponseHeaders(r.status(), noBody ? -1 : 0);
            if (noBody) {
                return;
            }
            OutputStream out = exchange.getResponseBody();
            if (gzip) {
                out = new GZIPOutputStream(out, true);
            }
            try (OutputStream body = out) {
                for (int k = 0; k < due.length; k++) {
                    parkUntil(due[k]);
                    written.set(k, System.nanoTime());
                    body.write(r.parts().get(k).bytes());
                    body.flush();
                }
            }
        } catch (IOException e) {
            // the client went away (reset, timeout): nothing to serve any more
        }
    }

    private static boolean acceptsGzip(HttpExchange exchange) {
        for (String v : exchange.getRequestHeaders().getOrDefault("Accept-Encoding", List.of())) {
            if (v.toLowerCase(Locale.ROOT).contains("gzip")) {
                return true;
            }
        }
        return false;
    }

    private static void parkUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Stops the server at once and ends its threads. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
