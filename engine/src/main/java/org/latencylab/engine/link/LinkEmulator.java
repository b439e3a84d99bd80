package org.latencylab.engine.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A user-space TCP link emulator: a proxy on 127.0.0.1 that forwards every connection to a target and delays each
 * direction's bytes as a network with a {@link LinkProfile} would (delay, jitter without reordering, bandwidth, loss
 * as a retransmission stall with head-of-line blocking). No root rights and no kernel queueing discipline are needed,
 * so it works on every desktop OS; the client connects to {@link #port()} instead of the server.
 *
 * <p>Per connection and direction one thread reads from the source socket, cuts what it read into segments of at
 * most {@link LinkProfile#segmentBytes()} bytes, computes each segment's delivery time (see {@link LinkProfile}) and
 * queues it; a second thread writes each segment to the destination at its delivery time. Delivery times never
 * decrease, so bytes stay in order. At most {@value #MAX_QUEUED_BYTES} bytes wait per direction; beyond that the
 * reader stops reading, so the sender feels back-pressure as through a real bottleneck. What passed is counted
 * ({@link #traffic()}).
 *
 * <p>Limits: the emulator models TCP's effect on the byte stream, not TCP itself: no congestion window (a slow start
 * costs nothing extra), one loss stall per lost segment (no fast retransmit), and the wake-up precision of the
 * host's timers (tens of microseconds on Linux). The client's own {@code connect} completes on loopback at once;
 * the handshake's round trip is added before the first byte instead.
 *
 * <p>Thread-safe. {@link #close()} stops accepting and closes every connection.
 */
public final class LinkEmulator implements AutoCloseable {
    /** Bytes that may wait in one direction of one connection before the reader stops reading. */
    public static final int MAX_QUEUED_BYTES = 4 << 20;
    private static final int READ_BUFFER = 64 * 1024;

    private final LinkProfile profile;
    private final InetSocketAddress target;
    private final long seed;
    private final ServerSocket listener;
    private final Thread acceptor;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong bytesUp = new AtomicLong();
    private final AtomicLong bytesDown = new AtomicLong();
    private final AtomicLong segmentsUp = new AtomicLong();
    private final AtomicLong segmentsDown = new AtomicLong();
    private final AtomicLong stallsUp = new AtomicLong();
    private final AtomicLong stallsDown = new AtomicLong();

    private LinkEmulator(LinkProfile profile, InetSocketAddress target, long seed, ServerSocket listener) {
        this.profile = profile;
        this.target = target;
        this.seed = seed;
        this.listener = listener;
        this.acceptor = Thread.ofPlatform().daemon().priority(Thread.NORM_PRIORITY)
                .name("link-" + profile.name() + "-accept").unstarted(this::accept);
    }

    /**
     * Starts an emulator on 127.0.0.1 at an ephemeral port.
     *
     * @param profile the network conditions; not null
     * @param target  where connections are forwarded (e.g. the simulator's port); not null
     * @param seed    seed of the jitter and loss draws (runs with the same seed and traffic draw the same values)
     * @return the running emulator; close it when done
     * @throws UncheckedIOException when no port can be bound
     */
    public static LinkEmulator start(LinkProfile profile, InetSocketAddress target, long seed) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(target, "target");
        ServerSocket s;
        try {
            s = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the link emulator: " + e.getMessage(), e);
        }
        LinkEmulator emulator = new LinkEmulator(profile, target, seed, s);
        emulator.acceptor.start();
        return emulator;
    }

    /** @return the local port clients connect to */
    public int port() {
        return listener.getLocalPort();
    }

    /** @return the address clients connect to: 127.0.0.1 and {@link #port()} */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), port());
    }

    /** @return the emulated conditions */
    public LinkProfile profile() {
        return profile;
    }

    /** @return a snapshot of what passed so far */
    public LinkTraffic traffic() {
        return new LinkTraffic(connections.get(), bytesUp.get(), bytesDown.get(), segmentsUp.get(),
                segmentsDown.get(), stallsUp.get(), stallsDown.get());
    }

    private void accept() {
        while (!closed.get()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            long acceptedNanos = System.nanoTime();
            long n = connections.incrementAndGet();
            Thread.ofPlatform().daemon().priority(Thread.NORM_PRIORITY)
                    .name("link-" + profile.name() + "-connect-" + n).start(() -> connect(client, acceptedNanos, n));
        }
    }

    private void connect(Socket client, long acceptedNanos, long n) {
        sockets.add(client);
        Socket server = new Socket();
        sockets.add(server);
        try {
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            server.connect(target, 10_000);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        if (closed.get()) {
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        // the handshake: a real client could send only after one round trip
        long handshakeEnd = acceptedNanos + profile.up().delayNanos() + profile.down().delayNanos();
        Connection c = new Connection(client, server);
        new Pump(c, client, server, profile.up(), handshakeEnd, new SplittableRandom(seed * 31 + n * 2),
                bytesUp, segmentsUp, stallsUp, "up-" + n).start();
        new Pump(c, server, client, profile.down(), handshakeEnd, new SplittableRandom(seed * 31 + n * 2 + 1),
                bytesDown, segmentsDown, stallsDown, "down-" + n).start();
    }

    /** The two sockets of one proxied connection; closed when both directions ended or one failed. */
    private final class Connection {
        private final Socket client;
        private final Socket server;
        private int ended;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        synchronized void directionEnded() {
            if (++ended == 2) {
                closeBoth();
            }
        }

        void closeBoth() {
            closeQuietly(client);
            closeQuietly(server);
            sockets.remove(client);
            sockets.remove(server);
        }
    }

    /** One segment on its way: the bytes and when they arrive; {@code data == null} marks the end of the stream. */
    private record Segment(byte[] data, long deliverNanos) {
    }

    /** One direction of one connection: a reader that schedules segments and a writer that delivers them. */
    private final class Pump {
        private final Connection connection;
        private final Socket from;
        private final Socket to;
        private final LinkProfile.Direction dir;
        private final SplittableRandom random;
        private final AtomicLong bytes;
        private final AtomicLong segments;
        private final AtomicLong stalls;
        private final String name;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private final ArrayDeque<Segment> queue = new ArrayDeque<>();
        private long queuedBytes;
        private boolean failed;
        /** When the link finishes serialising the last scheduled segment (ns). */
        private long linkFreeNanos;
        /** Delivery time of the last scheduled segment (ns); later ones are never earlier. */
        private long lastDeliverNanos;

        Pump(Connection connection, Socket from, Socket to, LinkProfile.Direction dir, long notBeforeNanos,
             SplittableRandom random, AtomicLong bytes, AtomicLong segments, AtomicLong stalls, String name) {
            this.connection = connection;
            this.from = from;
            this.to = to;
            this.dir = dir;
            this.random = random;
            this.bytes = bytes;
            this.segments = segments;
            this.stalls = stalls;
            this.name = name;
            this.linkFreeNanos = notBeforeNanos;
            this.lastDeliverNanos = notBeforeNanos;
        }

        void start() {
            String prefix = "link-" + profile.name() + "-" + name;
            Thread.ofPlatform().daemon().priority(Thread.NORM_PRIORITY).name(prefix + "-read").start(this::read);
            Thread.ofPlatform().daemon().priority(Thread.NORM_PRIORITY).name(prefix + "-write").start(this::write);
        }

        private void read() {
            byte[] buf = new byte[READ_BUFFER];
            try {
                InputStream in = from.getInputStream();
                while (true) {
                    int n = in.read(buf);
                    long now = System.nanoTime();
                    if (n < 0) {
                        enqueue(new Segment(null, Math.max(now + dir.delayNanos(), lastDeliverNanos)), 0);
                        return;
                    }
                    bytes.addAndGet(n);
                    int mss = profile.segmentBytes();
                    for (int off = 0; off < n; off += mss) {
                        int len = Math.min(mss, n - off);
                        byte[] seg = new byte[len];
                        System.arraycopy(buf, off, seg, 0, len);
                        enqueue(new Segment(seg, schedule(now, len)), len);
                    }
                }
            } catch (IOException | InterruptedException e) {
                fail();
            }
        }

        /** Delivery time of a segment of {@code len} bytes read at {@code now}; see {@link LinkProfile}. */
        private long schedule(long now, int len) {
            long txEnd = Math.max(now, linkFreeNanos) + dir.serialisationNanos(len);
            linkFreeNanos = txEnd;
            long jitter = dir.jitterNanos() == 0 ? 0
                    : Math.round((random.nextDouble() * 2 - 1) * dir.jitterNanos());
            long deliver = txEnd + Math.max(0, dir.delayNanos() + jitter);
            if (dir.loss() > 0 && random.nextDouble() < dir.loss()) {
                deliver += profile.retransmitTimeoutNanos();
                stalls.incrementAndGet();
            }
            deliver = Math.max(deliver, lastDeliverNanos);
            lastDeliverNanos = deliver;
            segments.incrementAndGet();
            return deliver;
        }

        private void enqueue(Segment s, int len) throws InterruptedException {
            lock.lock();
            try {
                while (queuedBytes > 0 && queuedBytes + len > MAX_QUEUED_BYTES && !failed) {
                    changed.await();
                }
                if (failed) {
                    throw new InterruptedException("connection failed");
                }
                queue.addLast(s);
                queuedBytes += len;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        private void write() {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Segment s = take();
                    if (s == null) {
                        return;
                    }
                    parkUntil(s.deliverNanos);
                    if (s.data == null) {
                        to.shutdownOutput();
                        connection.directionEnded();
                        return;
                    }
                    out.write(s.data);
                    out.flush();
                    release(s.data.length);
                }
            } catch (IOException e) {
                fail();
            }
        }

        private Segment take() {
            lock.lock();
            try {
                while (queue.isEmpty() && !failed) {
                    changed.awaitUninterruptibly();
                }
                return failed ? null : queue.pollFirst();
            } finally {
                lock.unlock();
            }
        }

        private void release(int len) {
            lock.lock();
            try {
                queuedBytes -= len;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        private void fail() {
            lock.lock();
            try {
                failed = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            connection.closeBoth();
        }
    }

    private static void parkUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Stops accepting, closes every proxied connection and returns. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    @Override
    public String toString() {
        return "LinkEmulator[" + profile.name() + " at 127.0.0.1:" + port() + " -> " + target + "]";
    }
}
