package org.latencylab.engine.stats;

import java.time.Duration;

/**
 * One percentile of a latency sample with its distribution-free confidence interval.
 *
 * <p>The interval {@code [lowerNanos, upperNanos]} is the order-statistic interval of Hahn &amp; Meeker,
 * <i>Statistical Intervals</i> (1991), §5.2 (also Conover, <i>Practical Nonparametric Statistics</i>, 3rd ed., §3.2):
 * see {@link OrderStatisticInterval}. It holds with at least the stated {@code confidence} for any continuous
 * distribution, except where a bound ran past the sample (then it is the sample minimum or maximum and
 * {@code enoughSamples} is false). Immutable and thread-safe.
 *
 * @param percentile    the percentile in percent, 0 &lt; percentile &lt; 100 (e.g. {@code 99.0} for P99)
 * @param valueNanos    the point estimate, nanoseconds (nearest-rank: the ⌈p·n⌉-th smallest value)
 * @param lowerNanos    lower confidence bound, nanoseconds, &lt;= valueNanos
 * @param upperNanos    upper confidence bound, nanoseconds, &gt;= valueNanos
 * @param confidence    nominal confidence level of the interval, 0 &lt; confidence &lt; 1 (normally 0.95)
 * @param enoughSamples false when fewer than 10 samples are expected above the percentile ({@code n·(1−p) < 10});
 *                      the estimate is then closer to "the maximum seen" than to a percentile
 */
public record PercentileEstimate(double percentile, long valueNanos, long lowerNanos, long upperNanos,
                                 double confidence, boolean enoughSamples) {

    /** Smallest expected number of samples above a percentile for it to count as measured: {@value}. */
    public static final int MIN_SAMPLES_ABOVE = 10;

    /**
     * @throws IllegalArgumentException when the percentile or confidence is out of range or the bounds are not
     *                                  ordered {@code lower <= value <= upper}
     */
    public PercentileEstimate {
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100), was " + percentile);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
        }
        if (lowerNanos > valueNanos || valueNanos > upperNanos) {
            throw new IllegalArgumentException("P" + label(percentile) + ": bounds must satisfy lower <= value <= upper,"
                    + " was " + lowerNanos + " <= " + valueNanos + " <= " + upperNanos);
        }
    }

    /**
     * The sample-size rule: a percentile is measured when at least {@value #MIN_SAMPLES_ABOVE} samples are expected
     * above it.
     *
     * @param count      number of samples, &gt;= 0
     * @param percentile percent, in (0, 100)
     * @return true when {@code count·(1 − percentile/100) >= 10}
     */
    public static boolean hasEnoughSamples(long count, double percentile) {
        return count * (1 - percentile / 100.0) >= MIN_SAMPLES_ABOVE - 1e-9;
    }

    /** @return a label such as {@code "P99"} or {@code "P99.9"} */
    public String name() {
        return "P" + label(percentile);
    }

    static String label(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile)
                : java.math.BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString();
    }

    /** @return the point estimate as a Duration */
    public Duration value() {
        return Duration.ofNanos(valueNanos);
    }

    /** @return the point estimate in milliseconds */
    public double valueMillis() {
        return valueNanos / 1e6;
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
