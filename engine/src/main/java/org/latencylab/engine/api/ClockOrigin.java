package org.latencylab.engine.api;

import java.time.Instant;

/**
 * The instant a run's times are measured from, read on two clocks: the monotonic {@link System#nanoTime()} that
 * every stamp of the run uses, and the wall clock. {@code requests.jsonl} writes its nanosecond times relative to
 * {@link #nanoTime()}; adding it back gives absolute {@code System.nanoTime()} values, which on Linux are
 * {@code CLOCK_MONOTONIC} and so comparable with any other process's stamps on the same machine (a server's
 * log, a trace, another tool). {@link #epochMicros()} places the same instant on the wall clock for joining with
 * logs of other machines.
 *
 * <p>Both clocks cannot be read at one instant: {@link #now()} reads {@code nanoTime}, the wall clock, then
 * {@code nanoTime} again, keeps the tightest of a few tries, and takes the middle of the two monotonic readings.
 * The wall-clock reading lies within {@link #uncertaintyNanos()} (half the gap between them) of that middle, plus
 * the wall clock's own error against true time (NTP, typically well under a millisecond on a synchronised host, not
 * measured here). Immutable and thread-safe.
 *
 * @param nanoTime         {@code System.nanoTime()} of the origin, ns (absolute, only meaningful on this machine
 *                         since its boot)
 * @param epochMicros      wall-clock time at the origin, microseconds since 1970-01-01T00:00:00Z
 * @param uncertaintyNanos half the gap between the two monotonic readings around the wall-clock reading, ns, >= 0
 * @throws IllegalArgumentException when {@code uncertaintyNanos < 0}
 */
public record ClockOrigin(long nanoTime, long epochMicros, long uncertaintyNanos) {
    private static final int TRIES = 5;

    public ClockOrigin {
        if (uncertaintyNanos < 0) {
            throw new IllegalArgumentException("uncertaintyNanos must be >= 0, was " + uncertaintyNanos);
        }
    }

    /** @return the origin read now, the tightest of a few back-to-back readings (takes microseconds) */
    public static ClockOrigin now() {
        ClockOrigin best = null;
        for (int i = 0; i < TRIES; i++) {
            long before = System.nanoTime();
            Instant wall = Instant.now();
            long after = System.nanoTime();
            long micros = Math.addExact(Math.multiplyExact(wall.getEpochSecond(), 1_000_000L), wall.getNano() / 1_000);
            ClockOrigin o = new ClockOrigin(before + (after - before) / 2, micros, (after - before + 1) / 2);
            if (best == null || o.uncertaintyNanos < best.uncertaintyNanos) {
                best = o;
            }
        }
        return best;
    }

    /** @return the wall-clock time of the origin, milliseconds since the epoch, with a microsecond fraction */
    public double epochMillis() {
        return epochMicros / 1e3;
    }

    /** @return the wall-clock time of the origin as an {@link Instant} (microsecond precision) */
    public Instant instant() {
        return Instant.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000L),
                Math.floorMod(epochMicros, 1_000_000L) * 1_000L);
    }
}
