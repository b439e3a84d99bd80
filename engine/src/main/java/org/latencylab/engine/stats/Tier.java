package org.latencylab.engine.stats;

import org.latencylab.engine.api.Nanos;
import java.time.Duration;

/**
 * One latency tier: a name and an inclusive upper bound on the judged value (the P95 of a metric).
 * Immutable and thread-safe.
 *
 * @param name       display name, e.g. {@code "Tier-1"}; not blank
 * @param upperNanos inclusive upper bound in nanoseconds (&gt; 0), or {@link #UNBOUNDED} for the last tier
 */
public record Tier(String name, long upperNanos) {
    /** Upper bound of an open-ended tier. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    /** @throws IllegalArgumentException when the name is blank or the bound is not positive */
    public Tier {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("tier name must not be blank, was '" + name + "'");
        }
        if (upperNanos <= 0) {
            throw new IllegalArgumentException("tier " + name + ": upper bound must be > 0 ns, was " + upperNanos);
        }
    }

    /**
     * @param name  display name
     * @param upper inclusive upper bound, positive, or null for an open-ended tier
     * @return the tier
     * @throws IllegalArgumentException as the constructor
     */
    public static Tier of(String name, Duration upper) {
        return new Tier(name, upper == null ? UNBOUNDED : upper.toNanos());
    }

    /** @return true when the tier has no upper bound */
    public boolean unbounded() {
        return upperNanos == UNBOUNDED;
    }

    /** @return the upper bound in milliseconds, or infinity */
    public double upperMillis() {
        return unbounded() ? Double.POSITIVE_INFINITY : Nanos.toMillis(upperNanos);
    }

    @Override
    public String toString() {
        return name + (unbounded() ? " (unbounded)" : " (<= " + upperMillis() + " ms)");
    }
}
