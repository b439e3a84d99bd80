package org.latencylab.engine.api;

/**
 * The one conversion between LatencyLab's internal time unit (nanoseconds, {@code long}) and the milliseconds shown
 * to people and written to files. Stateless and thread-safe.
 */
public final class Nanos {
    /** Nanoseconds per millisecond. */
    public static final double PER_MILLI = 1e6;
    /** Nanoseconds per second. */
    public static final double PER_SECOND = 1e9;

    private Nanos() {
    }

    /**
     * @param nanos a duration in nanoseconds
     * @return the same duration in milliseconds (exact for |nanos| below 2^53)
     */
    public static double toMillis(long nanos) {
        return nanos / PER_MILLI;
    }

    /**
     * @param nanos a duration in nanoseconds, fractional (e.g. a mean); NaN stays NaN
     * @return the same duration in milliseconds
     */
    public static double toMillis(double nanos) {
        return nanos / PER_MILLI;
    }

    /**
     * @param nanos a duration in nanoseconds
     * @return the same duration in seconds
     */
    public static double toSeconds(long nanos) {
        return nanos / PER_SECOND;
    }

    /**
     * @param millis a duration in milliseconds (finite)
     * @return the nearest whole number of nanoseconds
     * @throws IllegalArgumentException when {@code millis} is NaN or infinite
     */
    public static long fromMillis(double millis) {
        if (!Double.isFinite(millis)) {
            throw new IllegalArgumentException("milliseconds must be finite, was " + millis);
        }
        return Math.round(millis * PER_MILLI);
    }
}
