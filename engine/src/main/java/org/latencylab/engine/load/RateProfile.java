package org.latencylab.engine.load;

import java.util.ArrayList;
import java.util.List;

/**
 * A target arrival rate over time: consecutive segments, each constant or a linear ramp, after the last of which
 * the last rate holds forever. Immutable and thread-safe.
 *
 * <p>Arrivals are placed by inverting the cumulative rate {@code Λ(t) = ∫₀ᵗ rate(s) ds}: the n-th arrival of a
 * process whose unit-mean gaps sum to {@code uₙ} happens at {@code Λ⁻¹(uₙ)} (the time-change construction of
 * a non-homogeneous renewal process; for Poisson gaps this is the standard inversion method, see Lewis &amp;
 * Shedler, "Simulation of nonhomogeneous Poisson processes", 1979). Times are offsets in nanoseconds from the
 * start of the schedule; rates are requests per second.
 */
public final class RateProfile {
    /**
     * One piece of the profile.
     *
     * @param durationNanos length of the piece, ns, &gt; 0
     * @param fromRps       rate at its start, requests/s, &gt;= 0
     * @param toRps         rate at its end, requests/s, &gt;= 0 (equal to {@code fromRps} for a constant piece)
     * @throws IllegalArgumentException on a non-positive length or negative / non-finite rate
     */
    public record Segment(long durationNanos, double fromRps, double toRps) {
        public Segment {
            if (durationNanos <= 0) {
                throw new IllegalArgumentException("segment duration must be > 0 ns, was " + durationNanos);
            }
            checkRate("fromRps", fromRps);
            checkRate("toRps", toRps);
        }
    }

    private final List<Segment> segments;
    private final long[] startNanos;
    private final double[] startCount;
    private final double holdRps;

    /**
     * @param segments pieces in time order; at least one
     * @throws IllegalArgumentException when the list is empty
     */
    public RateProfile(List<Segment> segments) {
        if (segments == null || segments.isEmpty()) {
            throw new IllegalArgumentException("a rate profile needs at least one segment");
        }
        this.segments = List.copyOf(segments);
        this.startNanos = new long[segments.size() + 1];
        this.startCount = new double[segments.size() + 1];
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            startNanos[i + 1] = Math.addExact(startNanos[i], s.durationNanos());
            startCount[i + 1] = startCount[i] + (s.fromRps() + s.toRps()) / 2 * s.durationNanos() / 1e9;
        }
        this.holdRps = segments.get(segments.size() - 1).toRps();
    }

    /**
     * @param rps constant rate, requests/s, &gt; 0
     * @return a profile holding that rate forever
     * @throws IllegalArgumentException when {@code rps <= 0}
     */
    public static RateProfile constant(double rps) {
        if (!(rps > 0) || Double.isInfinite(rps)) {
            throw new IllegalArgumentException("rate must be > 0 req/s, was " + rps);
        }
        return new RateProfile(List.of(new Segment(1_000_000_000L, rps, rps)));
    }

    /** @return the segments (unmodifiable) */
    public List<Segment> segments() {
        return segments;
    }

    /** @return total length of the segments, ns (the last rate holds after it) */
    public long segmentsNanos() {
        return startNanos[segments.size()];
    }

    /**
     * @param tNanos offset from the start, ns; negative counts as 0
     * @return the target rate at that offset, requests/s
     */
    public double rateAt(long tNanos) {
        if (tNanos <= 0) {
            return segments.get(0).fromRps();
        }
        int i = segmentAt(tNanos);
        if (i == segments.size()) {
            return holdRps;
        }
        Segment s = segments.get(i);
        double f = (double) (tNanos - startNanos[i]) / s.durationNanos();
        return s.fromRps() + (s.toRps() - s.fromRps()) * f;
    }

    /**
     * Cumulative rate Λ(t): the expected number of arrivals in [0, t].
     *
     * @param tNanos offset from the start, ns; negative counts as 0
     * @return expected arrivals, &gt;= 0
     */
    public double expectedCount(long tNanos) {
        if (tNanos <= 0) {
            return 0;
        }
        int i = segmentAt(tNanos);
        if (i == segments.size()) {
            return startCount[i] + holdRps * (tNanos - startNanos[i]) / 1e9;
        }
        Segment s = segments.get(i);
        double tau = (tNanos - startNanos[i]) / 1e9;
        double d = s.durationNanos() / 1e9;
        return startCount[i] + s.fromRps() * tau + (s.toRps() - s.fromRps()) * tau * tau / (2 * d);
    }

    /**
     * Inverse of {@link #expectedCount}: the earliest offset at which Λ reaches {@code count}.
     *
     * @param count expected arrivals, &gt;= 0
     * @return offset from the start, ns, or {@link Long#MAX_VALUE} when the rate falls to 0 before reaching it
     */
    public long timeOfCount(double count) {
        if (count <= 0) {
            return 0;
        }
        int n = segments.size();
        int i = 0;
        while (i < n && startCount[i + 1] < count) {
            i++;
        }
        if (i == n) {
            if (holdRps <= 0) {
                return Long.MAX_VALUE;
            }
            double secs = (count - startCount[n]) / holdRps;
            return saturatedAdd(startNanos[n], secs);
        }
        Segment s = segments.get(i);
        double v = count - startCount[i];
        double d = s.durationNanos() / 1e9;
        double a = (s.toRps() - s.fromRps()) / (2 * d);
        double b = s.fromRps();
        double disc = Math.max(0, b * b + 4 * a * v);
        double denom = b + Math.sqrt(disc);
        // Stable root of a·τ² + b·τ − v = 0 (no cancellation when a is tiny or negative).
        double tau = denom <= 0 ? 0 : 2 * v / denom;
        return Math.min(startNanos[i + 1], saturatedAdd(startNanos[i], tau));
    }

    private int segmentAt(long tNanos) {
        int i = 0;
        while (i < segments.size() && tNanos >= startNanos[i + 1]) {
            i++;
        }
        return i;
    }

    private static long saturatedAdd(long baseNanos, double seconds) {
        double nanos = baseNanos + seconds * 1e9;
        return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos);
    }

    private static void checkRate(String name, double rps) {
        if (!(rps >= 0) || Double.isInfinite(rps)) {
            throw new IllegalArgumentException(name + " must be a finite rate >= 0 req/s, was " + rps);
        }
    }

    /** Collects segments in order. Not thread-safe. */
    public static final class Builder {
        private final List<Segment> segments = new ArrayList<>();

        /** @param durationNanos length, ns @param rps rate, req/s @return this */
        public Builder hold(long durationNanos, double rps) {
            segments.add(new Segment(durationNanos, rps, rps));
            return this;
        }

        /** @param durationNanos length, ns @param fromRps start rate @param toRps end rate, req/s @return this */
        public Builder ramp(long durationNanos, double fromRps, double toRps) {
            segments.add(new Segment(durationNanos, fromRps, toRps));
            return this;
        }

        /** @return the profile @throws IllegalArgumentException when no segment was added */
        public RateProfile build() {
            return new RateProfile(segments);
        }
    }

    /** @return a new empty builder */
    public static Builder builder() {
        return new Builder();
    }
}
