package org.latencylab.engine.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 that forwards every byte to an upstream host and port after a fixed one-way delay, in
 * both directions. A request therefore pays about {@code 2 × delay} per round trip (request out, response back),
 * like a gateway hop; bandwidth is not limited and bytes are never reordered or dropped.
 *
 * <p>Each connection gets two readers (one per direction) that stamp each chunk they read with its release time
 * ({@code arrival + delay}) and two writers that sleep until a chunk's release time and write it. Closing a side
 * closes the other after the delayed bytes were written. Threads are virtual. Thread-safe; {@link #close()} stops
 * accepting and closes every connection.
 */
public final class DelayProxy implements AutoCloseable {
    private static final byte[] EOF = new byte[0];

    private final ServerSocket server;
    private final InetSocketAddress upstream;
    private final long delayNanos;
    private final Thread acceptor;
    private final java.util.Set<Socket> sockets = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private DelayProxy(ServerSocket server, InetSocketAddress upstream, long delayNanos) {
        this.server = server;
        this.upstream = upstream;
        this.delayNanos = delayNanos;
        this.acceptor = Thread.ofVirtual().name("latencylab-proxy-accept-" + server.getLocalPort()).start(this::accept);
    }

    /**
     * Starts a proxy on an ephemeral loopback port.
     *
     * @param upstreamHost host to forward to (e.g. {@code 127.0.0.1})
     * @param upstreamPort port to forward to, 1..65535
     * @param oneWayDelay  delay added to every chunk in each direction, &gt;= 0
     * @return the running proxy
     * @throws IllegalArgumentException when the port or delay is out of range
     * @throws UncheckedIOException     when the listening socket cannot be opened
     */
    public static DelayProxy start(String upstreamHost, int upstreamPort, Duration oneWayDelay) {
        Objects.requireNonNull(upstreamHost, "upstreamHost");
        if (upstreamPort < 1 || upstreamPort > 65535) {
            throw new IllegalArgumentException("upstream port must be in 1..65535, was " + upstreamPort);
        }
        if (oneWayDelay == null || oneWayDelay.isNegative()) {
            throw new IllegalArgumentException("proxy delay must be >= 0, was " + oneWayDelay);
        }
        try {
            ServerSocket s = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
            return new DelayProxy(s, new InetSocketAddress(upstreamHost, upstreamPort), oneWayDelay.toNanos());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the proxy's listening socket: " + e.getMessage(), e);
        }
    }

    /** @return the port the proxy listens on (127.0.0.1) */
    public int port() {
        return server.getLocalPort();
    }

    /** @return the one-way delay added per direction */
    public Duration oneWayDelay() {
        return Duration.ofNanos(delayNanos);
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            Thread.ofVirtual().name("latencylab-proxy-conn").start(() -> connect(client));
        }
    }

    private void connect(Socket client) {
        Socket up = new Socket();
        sockets.add(client);
        sockets.add(up);
        try {
            client.setTcpNoDelay(true);
            up.setTcpNoDelay(true);
            up.connect(upstream, 10_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(up);
            return;
        }
        java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger(2);
        Runnable ended = () -> {
            if (open.decrementAndGet() == 0) {
                closeQuietly(client);
                closeQuietly(up);
            }
        };
        pipe(client, up, "up", ended);
        pipe(up, client, "down", ended);
    }

    /** One direction: a reader that stamps chunks and a writer that releases them when due. */
    private void pipe(Socket from, Socket to, String name, Runnable ended) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Thread.ofVirtual().name("latencylab-proxy-read-" + name).start(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    queue.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buf, n)));
                }
            } catch (IOException ignored) {
                // the connection ended; the writer forwards what was read, then closes
            }
            queue.add(new Chunk(System.nanoTime() + delayNanos, EOF));
        });
        Thread.ofVirtual().name("latencylab-proxy-write-" + name).start(() -> {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk c = queue.take();
                    long wait;
                    while ((wait = c.releaseNanos - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (c.bytes == EOF) {
                        if (!to.isClosed()) {
                            to.shutdownOutput();
                        }
                        ended.run();
                        return;
                    }
                    out.write(c.bytes);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                closeQuietly(from);
                closeQuietly(to);
                ended.run();
            }
        });
    }

    private record Chunk(long releaseNanos, byte[] bytes) {
    }

    private void closeQuietly(Socket s) {
        sockets.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        acceptor.interrupt();
        for (Socket s : java.util.List.copyOf(sockets)) {
            closeQuietly(s);
        }
    }
}
