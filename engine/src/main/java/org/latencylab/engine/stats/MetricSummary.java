package org.latencylab.engine.stats;

import org.latencylab.engine.api.Nanos;
import java.util.List;
import java.util.Objects;

/**
 * Summary statistics of one latency metric over a sample: count, mean, standard deviation, min, max and
 * percentiles with confidence intervals. Build one with {@link Summaries}. Immutable and thread-safe.
 *
 * @param metric      the metric's name, e.g. {@code "ttft"}; not blank
 * @param count       number of samples, &gt;= 0
 * @param meanNanos   arithmetic mean, nanoseconds ({@code NaN} when count is 0)
 * @param stdDevNanos sample standard deviation (n − 1 denominator), nanoseconds ({@code NaN} when count &lt; 2)
 * @param minNanos    smallest value, nanoseconds (0 when count is 0)
 * @param percentiles percentile estimates in ascending percentile order (empty when count is 0)
 * @param maxNanos    largest value, nanoseconds (0 when count is 0)
 * @param warnings    human-readable warnings about the sample (e.g. too few samples for a percentile); never null
 */
public record MetricSummary(String metric, long count, double meanNanos, double stdDevNanos, long minNanos,
                            List<PercentileEstimate> percentiles, long maxNanos, List<String> warnings) {

    /** Percentiles a summary reports by default: P50, P90, P95, P99, P99.9. */
    public static final List<Double> DEFAULT_PERCENTILES = List.of(50.0, 90.0, 95.0, 99.0, 99.9);

    /** @throws IllegalArgumentException when a field is inconsistent (blank name, negative count, min &gt; max) */
    public MetricSummary {
        if (metric == null || metric.isBlank()) {
            throw new IllegalArgumentException("metric name must not be blank, was '" + metric + "'");
        }
        if (count < 0) {
            throw new IllegalArgumentException(metric + ": count must be >= 0, was " + count);
        }
        if (count > 0 && minNanos > maxNanos) {
            throw new IllegalArgumentException(metric + ": min must be <= max, was " + minNanos + " > " + maxNanos);
        }
        percentiles = List.copyOf(Objects.requireNonNull(percentiles, "percentiles"));
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /**
     * @param percentile percent, e.g. {@code 99.0} or {@code 99.9}
     * @return the estimate for that percentile
     * @throws IllegalArgumentException when the summary does not hold that percentile (the message lists those it holds)
     */
    public PercentileEstimate p(double percentile) {
        for (PercentileEstimate e : percentiles) {
            if (Math.abs(e.percentile() - percentile) < 1e-9) {
                return e;
            }
        }
        throw new IllegalArgumentException(metric + ": no P" + PercentileEstimate.label(percentile)
                + " in this summary, it holds " + percentiles.stream().map(PercentileEstimate::name).toList()
                + (count == 0 ? " (no samples)" : ""));
    }

    /** @param percentile percent @return the point estimate in milliseconds @throws IllegalArgumentException as {@link #p} */
    public double pMillis(double percentile) {
        return p(percentile).valueMillis();
    }

    /** @return the mean in milliseconds ({@code NaN} when empty) */
    public double meanMillis() {
        return toMillis(meanNanos);
    }

    /** @return the standard deviation in milliseconds */
    public double stdDevMillis() {
        return toMillis(stdDevNanos);
    }

    /** @return the minimum in milliseconds */
    public double minMillis() {
        return toMillis(minNanos);
    }

    /** @return the maximum in milliseconds */
    public double maxMillis() {
        return toMillis(maxNanos);
    }

    /** @return true when every reported percentile had enough samples (see {@link PercentileEstimate}) */
    public boolean allPercentilesMeasured() {
        return percentiles.stream().allMatch(PercentileEstimate::enoughSamples);
    }

    /** @param nanos nanoseconds @return the same duration in milliseconds */
    public static double toMillis(double nanos) {
        return Nanos.toMillis(nanos);
    }
}
