package org.latencylab.engine.link;

import java.util.Locale;
import java.util.Objects;

/**
 * Network conditions of one emulated link: one {@link Direction} for each way (up = client to server, down = server
 * to client) and the stall a lost segment causes. Immutable and thread-safe.
 *
 * <p>The model, applied by {@link LinkEmulator} per TCP segment of at most {@link #segmentBytes()} bytes:
 * <ol>
 *   <li>serialisation: the direction sends one segment at a time at {@code bandwidthMbps}
 *       ({@code size · 8 / bandwidth} seconds each, queued behind the previous one);</li>
 *   <li>propagation: plus the one-way {@code delayMs}, plus a jitter drawn uniformly from
 *       {@code [−jitterMs, +jitterMs]} (the sum is never below zero);</li>
 *   <li>loss: with probability {@code loss} the segment is lost and arrives {@link #retransmitTimeoutMs()} later
 *       (its retransmission);</li>
 *   <li>order: a segment is never delivered before the one sent before it, as TCP delivers a byte stream in order:
 *       jitter does not reorder, and a lost segment holds back every later byte (head-of-line blocking).</li>
 * </ol>
 * A new connection also waits one round trip ({@code up.delayMs + down.delayMs}) before its first byte travels:
 * the TCP handshake that a loopback connect does not have.
 *
 * @param name                built-in name or file stem, e.g. {@code weak-3g}; not blank
 * @param source              where the numbers come from (free text, shown in reports); not null
 * @param up                  client → server direction
 * @param down                server → client direction
 * @param retransmitTimeoutMs stall of a lost segment in ms, &gt;= 0 (Linux: smoothed RTT + max(4·RTT variance,
 *                            200 ms), RFC 6298 with Linux's {@code tcp_rto_min} of 200 ms)
 * @param segmentBytes        bytes per segment (the TCP maximum segment size), &gt;= 64; 1460 for Ethernet
 *                            (1500-byte MTU − 40 bytes of IPv4 and TCP headers)
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record LinkProfile(String name, String source, Direction up, Direction down, double retransmitTimeoutMs,
                          int segmentBytes) {

    /** Ethernet MSS: 1500-byte MTU minus 20 bytes of IPv4 and 20 of TCP header. */
    public static final int ETHERNET_MSS = 1460;

    public LinkProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(up, "up");
        Objects.requireNonNull(down, "down");
        if (!(retransmitTimeoutMs >= 0) || Double.isInfinite(retransmitTimeoutMs)) {
            throw new IllegalArgumentException("retransmitTimeoutMs must be a number >= 0, was " + retransmitTimeoutMs);
        }
        if (segmentBytes < 64) {
            throw new IllegalArgumentException("segmentBytes must be >= 64, was " + segmentBytes);
        }
    }

    /**
     * One direction of the link.
     *
     * @param delayMs       one-way propagation delay in ms, &gt;= 0
     * @param jitterMs      half-width of the uniform jitter added to the delay, in ms, &gt;= 0
     * @param bandwidthMbps serialisation rate in Mbit/s (10^6 bit/s), &gt; 0
     * @param loss          probability that a segment is lost, in [0, 1)
     * @throws IllegalArgumentException when a value is out of range; the message names the field
     */
    public record Direction(double delayMs, double jitterMs, double bandwidthMbps, double loss) {
        public Direction {
            nonNegative("delayMs", delayMs);
            nonNegative("jitterMs", jitterMs);
            if (!(bandwidthMbps > 0) || Double.isInfinite(bandwidthMbps)) {
                throw new IllegalArgumentException("bandwidthMbps must be a number > 0, was " + bandwidthMbps);
            }
            if (!(loss >= 0 && loss < 1)) {
                throw new IllegalArgumentException("loss must be a probability in [0, 1), was " + loss);
            }
        }

        /** @param bytes payload bytes @return time to serialise them at this bandwidth, ns */
        public long serialisationNanos(long bytes) {
            return Math.round(bytes * 8 * 1000.0 / bandwidthMbps);
        }

        /** @return the one-way delay in ns */
        public long delayNanos() {
            return Math.round(delayMs * 1e6);
        }

        /** @return the jitter half-width in ns */
        public long jitterNanos() {
            return Math.round(jitterMs * 1e6);
        }

        private static void nonNegative(String field, double v) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException(field + " must be a number >= 0, was " + v);
            }
        }
    }

    /** @return the round-trip propagation time without jitter, ms ({@code up.delayMs + down.delayMs}) */
    public double rttMs() {
        return up.delayMs + down.delayMs;
    }

    /** @return the retransmission stall in ns */
    public long retransmitTimeoutNanos() {
        return Math.round(retransmitTimeoutMs * 1e6);
    }

    /** @return e.g. {@code weak-3g: RTT 200 ms ±0 ms, 1.6/0.4 Mbit/s down/up, loss 1 %/1 %} */
    public String describe() {
        return String.format(Locale.ROOT, "%s: RTT %s ms ±%s ms, %s/%s Mbit/s down/up, loss %s %%/%s %%", name,
                num(rttMs()), num(up.jitterMs + down.jitterMs), num(down.bandwidthMbps), num(up.bandwidthMbps),
                num(down.loss * 100), num(up.loss * 100));
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }
}
