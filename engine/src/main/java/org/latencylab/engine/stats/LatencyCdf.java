package org.latencylab.engine.stats;

import java.util.Arrays;

/**
 * The distribution of one metric as ascending values, ready to draw as a CDF. When {@code exact}, the values are
 * every sample (the step has ended and its samples were sorted once); otherwise they are the values at evenly
 * spaced quantiles of a live HdrHistogram (3 significant digits), the last one being the maximum, so a curve
 * drawn through them reaches P100 either way. Immutable by convention (the array is not copied: read-only);
 * thread-safe.
 *
 * @param metric   metric id, e.g. {@code "e2e"}
 * @param count    samples the distribution describes
 * @param valuesMs ascending values, ms; its last element is the maximum
 * @param exact    true when {@code valuesMs} holds every sample
 */
public record LatencyCdf(String metric, long count, double[] valuesMs, boolean exact) {
    /** @param metric metric id @return a distribution without samples */
    public static LatencyCdf empty(String metric) {
        return new LatencyCdf(metric, 0, new double[0], true);
    }

    /** @return the largest value, ms, or NaN without samples */
    public double maxMs() {
        return valuesMs.length == 0 ? Double.NaN : valuesMs[valuesMs.length - 1];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LatencyCdf c && c.metric.equals(metric) && c.count == count && c.exact == exact
                && Arrays.equals(c.valuesMs, valuesMs);
    }

    @Override
    public int hashCode() {
        return metric.hashCode() * 31 + Long.hashCode(count);
    }

    @Override
    public String toString() {
        return "LatencyCdf[" + metric + ", n=" + count + (exact ? ", exact]" : ", quantiles]");
    }
}
