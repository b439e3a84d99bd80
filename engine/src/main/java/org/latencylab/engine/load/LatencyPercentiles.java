package org.latencylab.engine.load;

import org.latencylab.engine.api.Nanos;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of one latency metric over a set of requests, in milliseconds. Percentiles are HdrHistogram
 * values at 3 significant digits (relative error &lt; 0.1 %). With no samples every value is null. Immutable and
 * thread-safe.
 *
 * @param count  samples, &gt;= 0
 * @param meanMs mean, ms
 * @param p50Ms  median, ms
 * @param p90Ms  90th percentile, ms
 * @param p95Ms  95th percentile, ms
 * @param p99Ms  99th percentile, ms
 * @param p999Ms 99.9th percentile, ms
 * @param maxMs  largest sample, ms
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LatencyPercentiles(long count, Double meanMs, Double p50Ms, Double p90Ms, Double p95Ms, Double p99Ms,
                                 Double p999Ms, Double maxMs) {
    /** No samples. */
    public static final LatencyPercentiles EMPTY = new LatencyPercentiles(0, null, null, null, null, null, null, null);

    public LatencyPercentiles {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, was " + count);
        }
    }

    /**
     * @param h a histogram of nanosecond values (not modified)
     * @return its percentiles in ms, or {@link #EMPTY} when it is empty
     */
    public static LatencyPercentiles of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencyPercentiles(h.getTotalCount(), Nanos.toMillis(h.getMean()), ms(h, 50), ms(h, 90), ms(h, 95),
                ms(h, 99), ms(h, 99.9), Nanos.toMillis(h.getMaxValue()));
    }

    private static double ms(Histogram h, double percentile) {
        return Nanos.toMillis(h.getValueAtPercentile(percentile));
    }

    /** @return P99 − P50 in ms (jitter), or null without samples */
    public Double jitterMs() {
        return count == 0 ? null : p99Ms - p50Ms;
    }
}
