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
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final List<ConformanceCase.ScriptedResponse> responses;
    private final AtomicInteger requests = new AtomicInteger();

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

    /** @return the number of requests received so far */
    public int requestCount() {
        return requests.get();
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            long t0 = System.nanoTime();
            int i = requests.getAndIncrement();
            ConformanceCase.ScriptedResponse r = responses.get(Math.min(i, responses.size() - 1));
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
                for (ConformanceCase.Part p : r.parts()) {
                    parkUntil(t0 + TimeUnit.MILLISECONDS.toNanos(p.atMs()));
                    body.write(p.bytes());
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
