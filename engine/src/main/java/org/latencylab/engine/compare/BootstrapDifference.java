package org.latencylab.engine.compare;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Percentile-bootstrap confidence interval of the difference of one percentile between two samples,
 * {@code P_q(b) − P_q(a)} (Efron &amp; Tibshirani, <i>An Introduction to the Bootstrap</i>, 1993, ch. 13, the
 * percentile interval): each resample draws {@code a.length} values from {@code a} and {@code b.length} from
 * {@code b} with replacement, takes both nearest-rank percentiles and their difference; the interval is the
 * {@code (1−c)/2} and {@code (1+c)/2} quantiles of those differences. Resampling is seeded, so a result is
 * reproducible. Commons Math 3 has no bootstrap, hence this class. Stateless and thread-safe.
 */
public final class BootstrapDifference {
    /** Resamples used by default: {@value}. */
    public static final int DEFAULT_RESAMPLES = 2000;

    private BootstrapDifference() {
    }

    /**
     * A difference with its interval.
     *
     * @param differenceNanos point estimate {@code P_q(b) − P_q(a)}, ns
     * @param lowerNanos      lower bound, ns
     * @param upperNanos      upper bound, ns
     * @param confidence      the interval's nominal level, e.g. 0.95
     * @param resamples       bootstrap resamples used
     */
    public record Interval(long differenceNanos, long lowerNanos, long upperNanos, double confidence, int resamples) {
        /** @return true when the interval does not contain 0 (the difference is significant at that level) */
        public boolean excludesZero() {
            return lowerNanos > 0 || upperNanos < 0;
        }

        /** @return the point estimate in milliseconds */
        public double differenceMillis() {
            return differenceNanos / 1e6;
        }

        /** @return the lower bound in milliseconds */
        public double lowerMillis() {
            return lowerNanos / 1e6;
        }

        /** @return the upper bound in milliseconds */
        public double upperMillis() {
            return upperNanos / 1e6;
        }
    }

    /**
     * @param a          first sample, ns, at least 1 value; not modified
     * @param b          second sample, ns, at least 1 value; not modified
     * @param percentile percentile in percent, in (0, 100)
     * @param confidence interval level, in (0, 1)
     * @param resamples  number of resamples, &gt;= 100
     * @param seed       seed of the resampling
     * @return the interval of {@code P(b) − P(a)}
     * @throws IllegalArgumentException when a sample is empty or an argument is out of range
     */
    public static Interval of(long[] a, long[] b, double percentile, double confidence, int resamples, long seed) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("both samples need values, had " + a.length + " and " + b.length);
        }
        if (!(percentile > 0 && percentile < 100) || !(confidence > 0 && confidence < 1) || resamples < 100) {
            throw new IllegalArgumentException("percentile must be in (0, 100), confidence in (0, 1), resamples >= 100;"
                    + " were " + percentile + ", " + confidence + ", " + resamples);
        }
        long[] sa = a.clone();
        long[] sb = b.clone();
        Arrays.sort(sa);
        Arrays.sort(sb);
        long point = nearestRank(sb, percentile) - nearestRank(sa, percentile);
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] diffs = new long[resamples];
        long[] ra = new long[a.length];
        long[] rb = new long[b.length];
        for (int i = 0; i < resamples; i++) {
            for (int k = 0; k < ra.length; k++) {
                ra[k] = sa[rnd.nextInt(sa.length)];
            }
            for (int k = 0; k < rb.length; k++) {
                rb[k] = sb[rnd.nextInt(sb.length)];
            }
            Arrays.sort(ra);
            Arrays.sort(rb);
            diffs[i] = nearestRank(rb, percentile) - nearestRank(ra, percentile);
        }
        Arrays.sort(diffs);
        double tail = (1 - confidence) / 2;
        long lo = diffs[(int) Math.max(0, Math.floor(tail * resamples))];
        long hi = diffs[(int) Math.min(resamples - 1, Math.ceil((1 - tail) * resamples) - 1)];
        return new Interval(point, Math.min(lo, point), Math.max(hi, point), confidence, resamples);
    }

    /** Nearest rank: the ⌈p·n⌉-th smallest value (Hyndman &amp; Fan type 1), as in {@code stats.Summaries}. */
    static long nearestRank(long[] sorted, double percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
