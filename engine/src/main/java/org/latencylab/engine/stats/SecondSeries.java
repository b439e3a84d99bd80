package org.latencylab.engine.stats;

import java.util.Arrays;

/**
 * One metric over time: per one-second bin of the run (by the second in which each request <i>ended</i>, the
 * semantics of an HdrHistogram interval log), the number of successful requests and the P50, P95, P99 and maximum of
 * the metric. Values come from a 2-significant-digit HdrHistogram per second (within 1 %; exact order statistics
 * are in the step's summary). A second in which no successful request ended has count 0 and NaN values, so a
 * chart can leave a gap there rather than draw a fragment-free line through it. Immutable by convention (arrays
 * are not copied: treat them as read-only); thread-safe.
 *
 * @param metric  metric id, e.g. {@code "ttft"}
 * @param seconds start of each bin, seconds since the run started (0, 1, 2, …), ascending
 * @param count   successful requests that ended in the bin with the metric present
 * @param p50Ms   P50 per bin, ms (NaN when count is 0)
 * @param p95Ms   P95 per bin, ms
 * @param p99Ms   P99 per bin, ms
 * @param maxMs   maximum per bin, ms
 */
public record SecondSeries(String metric, double[] seconds, long[] count, double[] p50Ms, double[] p95Ms,
                           double[] p99Ms, double[] maxMs) {
    /** @throws IllegalArgumentException when the arrays differ in length */
    public SecondSeries {
        int n = seconds.length;
        if (count.length != n || p50Ms.length != n || p95Ms.length != n || p99Ms.length != n || maxMs.length != n) {
            throw new IllegalArgumentException("series arrays must have the same length");
        }
    }

    /** @param metric metric id @return a series with no bins */
    public static SecondSeries empty(String metric) {
        return new SecondSeries(metric, new double[0], new long[0], new double[0], new double[0], new double[0],
                new double[0]);
    }

    /** @return number of bins */
    public int size() {
        return seconds.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SecondSeries s && s.metric.equals(metric) && Arrays.equals(s.seconds, seconds)
                && Arrays.equals(s.count, count) && Arrays.equals(s.p50Ms, p50Ms) && Arrays.equals(s.p95Ms, p95Ms)
                && Arrays.equals(s.p99Ms, p99Ms) && Arrays.equals(s.maxMs, maxMs);
    }

    @Override
    public int hashCode() {
        return metric.hashCode() * 31 + Arrays.hashCode(count);
    }

    @Override
    public String toString() {
        return "SecondSeries[" + metric + ", " + size() + " s]";
    }
}
