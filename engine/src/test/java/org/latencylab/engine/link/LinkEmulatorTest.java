package org.latencylab.engine.link;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The link emulator against its own configuration, over real loopback sockets: bandwidth (1 MiB through
 * 1.6 Mbit/s takes its 5.24 s of serialisation), delay (a ping-pong sees the configured RTT), jitter (round trips
 * spread within the configured bounds, bytes in order) and loss (the stall count is near the loss rate times the
 * segments). Tolerances are ±10 % as the design asks; the lower bounds are hard (the emulator must never deliver
 * early), the upper ones leave room for a busy machine.
 */
class LinkEmulatorTest {
    private final List<AutoCloseable> closing = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    private static LinkProfile profile(double delayMs, double jitterMs, double downMbps, double upMbps, double loss,
                                       double rtoMs) {
        return new LinkProfile("test", "", new LinkProfile.Direction(delayMs, jitterMs, upMbps, loss),
                new LinkProfile.Direction(delayMs, jitterMs, downMbps, loss), rtoMs, LinkProfile.ETHERNET_MSS);
    }

    /** A loopback server that runs {@code session} on each accepted socket (on its own thread). */
    private InetSocketAddress server(Consumer<Socket> session) throws IOException {
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        closing.add(ss);
        Thread.ofPlatform().daemon().start(() -> {
            while (!ss.isClosed()) {
                try {
                    Socket s = ss.accept();
                    s.setTcpNoDelay(true);
                    Thread.ofPlatform().daemon().start(() -> {
                        try (s) {
                            session.accept(s);
                        } catch (IOException e) {
                            // the client went away
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
        return new InetSocketAddress(ss.getInetAddress(), ss.getLocalPort());
    }

    private LinkEmulator emulator(LinkProfile p, InetSocketAddress target) {
        LinkEmulator e = LinkEmulator.start(p, target, 7);
        closing.add(e);
        return e;
    }

    private static byte[] data(int n) {
        byte[] b = new byte[n];
        new SplittableRandom(3).nextBytes(b);
        return b;
    }

    @Test
    void aMebibyteThroughOnePointSixMegabitsPerSecondTakesItsSerialisationTime() throws Exception {
        byte[] payload = data(1 << 20);
        InetSocketAddress target = server(s -> {
            try {
                s.getOutputStream().write(payload);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        LinkEmulator link = emulator(profile(0, 0, 1.6, 100, 0, 200), target);
        long start = System.nanoTime();
        byte[] got;
        try (Socket c = new Socket()) {
            c.connect(link.address());
            got = c.getInputStream().readAllBytes();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double expected = (1 << 20) * 8 / 1.6e6; // 5.243 s
        assertThat(got).isEqualTo(payload);
        assertThat(seconds).isCloseTo(expected, within(expected * 0.10));
        LinkTraffic t = link.traffic();
        assertThat(t.bytesDown()).isEqualTo(1 << 20);
        assertThat(t.segmentsDown()).isGreaterThanOrEqualTo((1 << 20) / LinkProfile.ETHERNET_MSS);
        assertThat(t.connections()).isEqualTo(1);
        assertThat(t.stalls()).isZero();
    }

    @Test
    void aPingPongSeesTheConfiguredRoundTrip() throws Exception {
        InetSocketAddress echo = server(LinkEmulatorTest::echo);
        LinkEmulator link = emulator(profile(40, 0, 100, 100, 0, 200), echo);
        long[] rtts = pingPong(link, 15);
        Arrays.sort(rtts);
        double medianMs = rtts[rtts.length / 2] / 1e6;
        assertThat(medianMs).isCloseTo(80.0, within(8.0));
        // never early: every round trip holds both one-way delays
        assertThat(rtts[0] / 1e6).isGreaterThanOrEqualTo(80.0 * 0.98);
        LinkTraffic t = link.traffic();
        assertThat(t.bytesUp()).isEqualTo(16);
        assertThat(t.bytesDown()).isEqualTo(16);
        assertThat(t.segmentsUp()).isEqualTo(16);
    }

    @Test
    void jitterSpreadsRoundTripsWithinItsBoundsAndKeepsBytesInOrder() throws Exception {
        InetSocketAddress echo = server(LinkEmulatorTest::echo);
        LinkEmulator link = emulator(profile(30, 20, 100, 100, 0, 200), echo);
        long[] rtts = pingPong(link, 30);
        Arrays.sort(rtts);
        double minMs = rtts[0] / 1e6;
        double maxMs = rtts[rtts.length - 1] / 1e6;
        // RTT = 2 × (30 ± 20) ms: within [20, 100] ms, and spread over much of that range
        assertThat(minMs).isGreaterThanOrEqualTo(20.0 * 0.98);
        // upper bound with room for wake-up delays of a loaded machine (the lower bound above is exact)
        assertThat(rtts[rtts.length / 2] / 1e6).as(Arrays.toString(rtts)).isLessThanOrEqualTo(100.0 * 1.10);
        assertThat(rtts[rtts.length * 9 / 10] / 1e6).as(Arrays.toString(rtts)).isLessThanOrEqualTo(100.0 * 1.5);
        assertThat(maxMs - minMs).isGreaterThan(15.0);

        // a burst of numbered writes arrives complete and in order despite per-segment jitter
        byte[] sent = new byte[200];
        for (int i = 0; i < sent.length; i++) {
            sent[i] = (byte) i;
        }
        try (Socket c = new Socket()) {
            c.setTcpNoDelay(true);
            c.connect(link.address());
            OutputStream out = c.getOutputStream();
            for (byte b : sent) {
                out.write(b);
                out.flush();
            }
            c.shutdownOutput();
            assertThat(c.getInputStream().readAllBytes()).isEqualTo(sent);
        }
    }

    @Test
    void onePercentLossStallsAboutOnePercentOfSegmentsAndLosesNoByte() throws Exception {
        byte[] payload = data(4 << 20);
        InetSocketAddress target = server(s -> {
            try {
                s.getOutputStream().write(payload);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        LinkEmulator link = emulator(profile(0, 0, 1000, 1000, 0.01, 2), target);
        byte[] got;
        try (Socket c = new Socket()) {
            c.connect(link.address());
            got = c.getInputStream().readAllBytes();
        }
        assertThat(got).isEqualTo(payload);
        LinkTraffic t = link.traffic();
        assertThat(t.segmentsDown()).isGreaterThanOrEqualTo((4 << 20) / LinkProfile.ETHERNET_MSS);
        double rate = (double) t.stallsDown() / t.segmentsDown();
        // about 2900 segments: the binomial standard deviation of the count is about 5.4 (0.19 % of segments)
        assertThat(rate).isCloseTo(0.01, within(0.005));
    }

    @Test
    void aLostSegmentHoldsBackTheBytesBehindIt() throws Exception {
        // every segment is lost with probability 0.9 and stalls 150 ms; two one-byte messages 10 ms apart:
        // the second can never arrive before the first, and the first pays at least one stall with high probability
        InetSocketAddress echo = server(LinkEmulatorTest::echo);
        LinkEmulator link = emulator(profile(1, 0, 100, 100, 0.9, 150), echo);
        try (Socket c = new Socket()) {
            c.setTcpNoDelay(true);
            c.connect(link.address());
            OutputStream out = c.getOutputStream();
            InputStream in = c.getInputStream();
            long t0 = System.nanoTime();
            out.write(1);
            out.flush();
            Thread.sleep(10);
            out.write(2);
            out.flush();
            assertThat(in.read()).isEqualTo(1);
            long first = System.nanoTime();
            assertThat(in.read()).isEqualTo(2);
            long second = System.nanoTime();
            assertThat(second).isGreaterThanOrEqualTo(first);
            assertThat(link.traffic().stalls()).isGreaterThan(0);
            assertThat((second - t0) / 1e6).isGreaterThanOrEqualTo(150.0 * 0.98);
        }
    }

    private static void echo(Socket s) {
        try {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // closed
        }
    }

    /** One unmeasured exchange (handshake round trip), then {@code n} one-byte round trips. @return RTTs in ns */
    private static long[] pingPong(LinkEmulator link, int n) throws IOException {
        try (Socket c = new Socket()) {
            c.setTcpNoDelay(true);
            c.connect(link.address());
            OutputStream out = c.getOutputStream();
            InputStream in = c.getInputStream();
            out.write(0);
            out.flush();
            assertThat(in.read()).isEqualTo(0);
            long[] rtts = new long[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                out.write(i + 1);
                out.flush();
                assertThat(in.read()).isEqualTo(i + 1);
                rtts[i] = System.nanoTime() - t0;
            }
            return rtts;
        }
    }
}
