package org.latencylab.engine.load;

import org.latencylab.engine.api.Nanos;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

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

    /** The percentiles {@link #of} reports, ascending. */
    private static final double[] REPORTED = {50, 90, 95, 99, 99.9};

    /**
     * The percentiles of a histogram, read in one pass over its recorded values. The figures are exactly those of
     * HdrHistogram's {@code getMean()}, {@code getValueAtPercentile(p)} and {@code getMaxValue()} (the same count
     * threshold and equivalent-value rules, see {@link #valuesAt}); one pass instead of six matters because a load
     * step rolls several histograms every second while requests are being measured.
     *
     * @param h a histogram of nanosecond values (not modified; not safe against concurrent recording)
     * @return its percentiles in ms, or {@link #EMPTY} when it is empty
     */
    public static LatencyPercentiles of(Histogram h) {
        long total = h.getTotalCount();
        if (total == 0) {
            return EMPTY;
        }
        double[] mean = new double[1];
        long[] v = valuesAt(h, REPORTED, mean);
        return new LatencyPercentiles(total, Nanos.toMillis(mean[0]), Nanos.toMillis(v[0]), Nanos.toMillis(v[1]),
                Nanos.toMillis(v[2]), Nanos.toMillis(v[3]), Nanos.toMillis(v[4]), Nanos.toMillis(h.getMaxValue()));
    }

    /**
     * Values at several percentiles in one pass over the recorded values, each equal to
     * {@code h.getValueAtPercentile(p)} of HdrHistogram 2.2: the value whose cumulative count first reaches
     * {@code max(1, ceil(p' × total / 100))}, with {@code p'} the next double below {@code p} clamped to [0, 100],
     * reported as the highest value equivalent to it (the lowest for {@code p = 0}).
     *
     * @param h           histogram (not modified; it must not be recorded into meanwhile: the caller owns it)
     * @param percentiles percentiles in [0, 100], ascending
     * @param meanOut     null, or a one-element array that receives {@code h.getMean()} (same arithmetic)
     * @return the values, in the histogram's unit; 0 for every percentile of an empty histogram
     * @throws IllegalArgumentException when the percentiles are not ascending
     */
    public static long[] valuesAt(Histogram h, double[] percentiles, double[] meanOut) {
        long total = h.getTotalCount();
        long[] thresholds = new long[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            if (i > 0 && percentiles[i] < percentiles[i - 1]) {
                throw new IllegalArgumentException("percentiles must be ascending: " + java.util.Arrays.toString(
                        percentiles));
            }
            double requested = Math.min(Math.max(Math.nextAfter(percentiles[i], Double.NEGATIVE_INFINITY), 0.0), 100.0);
            thresholds[i] = Math.max(1L, (long) Math.ceil(requested * total / 100.0));
        }
        long[] out = new long[percentiles.length];
        int next = 0;
        double sum = 0;
        for (HistogramIterationValue it : h.recordedValues()) {
            long value = it.getValueIteratedTo();
            if (meanOut != null) {
                sum += h.medianEquivalentValue(value) * (double) it.getCountAtValueIteratedTo();
            } else if (next == out.length) {
                break;
            }
            while (next < out.length && it.getTotalCountToThisValue() >= thresholds[next]) {
                out[next] = percentiles[next] == 0.0 ? h.lowestEquivalentValue(value) : value;
                next++;
            }
        }
        if (meanOut != null) {
            meanOut[0] = total == 0 ? 0 : sum / total;
        }
        return out;
    }

    /** @return P99 − P50 in ms (jitter), or null without samples */
    public Double jitterMs() {
        return count == 0 ? null : p99Ms - p50Ms;
    }
}
