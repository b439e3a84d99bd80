package org.latencylab.engine.stats;

import org.latencylab.engine.api.Nanos;
import java.time.Duration;
import java.util.Locale;

/**
 * One percentile of a latency sample with its distribution-free confidence interval and the interval's actual
 * coverage.
 *
 * <p>The interval {@code [lowerNanos, upperNanos]} is the order-statistic interval of Hahn &amp; Meeker,
 * <i>Statistical Intervals</i> (1991), §5.2 (also Conover, <i>Practical Nonparametric Statistics</i>, 3rd ed., §3.2):
 * see {@link OrderStatisticInterval}. Its ranks are chosen for {@code targetConfidence} (normally 0.95), and
 * {@code confidence} is the exact coverage of the ranks actually used, {@code P(x(l) <= ξ_p <= x(u))} for any
 * continuous distribution. The two differ when the sample is too small to reach the target: a bound then ran past
 * the sample and was clamped to the minimum or maximum, and the coverage is below the target
 * ({@link #meetsConfidence()} is false). Example: the median of 3 samples gets {@code [min, max]}, which covers
 * the true median with probability 0.75, not 0.95; a single sample gives a zero-width interval with coverage 0.
 * Otherwise the coverage is at or a little above the target (the binomial is discrete). Immutable and thread-safe.
 *
 * @param percentile       the percentile in percent, 0 &lt; percentile &lt; 100 (e.g. {@code 99.0} for P99)
 * @param valueNanos       the point estimate, nanoseconds (nearest-rank: the ⌈p·n⌉-th smallest value)
 * @param lowerNanos       lower confidence bound, nanoseconds, &lt;= valueNanos
 * @param upperNanos       upper confidence bound, nanoseconds, &gt;= valueNanos
 * @param confidence       actual coverage of {@code [lowerNanos, upperNanos]}: the probability, in [0, 1], that
 *                         the interval contains the true percentile, a fraction (0.95 = 95 %), not percent
 * @param targetConfidence the confidence level the interval was built for, 0 &lt; targetConfidence &lt; 1
 *                         (normally {@link Summaries#DEFAULT_CONFIDENCE}, 0.95), a fraction
 * @param enoughSamples    false when fewer than 10 samples are expected above the percentile
 *                         ({@code n·(1−p) < 10}); the estimate is then closer to "the maximum seen" than to a
 *                         percentile
 */
public record PercentileEstimate(double percentile, long valueNanos, long lowerNanos, long upperNanos,
                                 double confidence, double targetConfidence, boolean enoughSamples) {

    /** Smallest expected number of samples above a percentile for it to count as measured: {@value}. */
    public static final int MIN_SAMPLES_ABOVE = 10;

    /**
     * Tolerance of {@link #meetsConfidence()}: {@value}. The coverage is a difference of two binomial CDF values and
     * can come out a few ulps below a target it meets exactly in exact arithmetic.
     */
    public static final double COVERAGE_TOLERANCE = 1e-12;

    /**
     * @throws IllegalArgumentException when the percentile, coverage or target is out of range or the bounds are not
     *                                  ordered {@code lower <= value <= upper}
     */
    public PercentileEstimate {
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100), was " + percentile);
        }
        if (!(confidence >= 0 && confidence <= 1)) {
            throw new IllegalArgumentException("P" + label(percentile) + ": confidence (actual coverage) must be in"
                    + " [0, 1], was " + confidence);
        }
        if (!(targetConfidence > 0 && targetConfidence < 1)) {
            throw new IllegalArgumentException("P" + label(percentile) + ": target confidence must be in (0, 1), was "
                    + targetConfidence);
        }
        if (lowerNanos > valueNanos || valueNanos > upperNanos) {
            throw new IllegalArgumentException("P" + label(percentile) + ": bounds must satisfy lower <= value <= upper,"
                    + " was " + lowerNanos + " <= " + valueNanos + " <= " + upperNanos);
        }
    }

    /**
     * An estimate whose interval is known to cover with exactly the level it was built for ({@code confidence ==
     * targetConfidence}); kept for callers that predate {@code targetConfidence}.
     *
     * @param percentile    percent, in (0, 100)
     * @param valueNanos    point estimate, nanoseconds
     * @param lowerNanos    lower bound, nanoseconds, &lt;= valueNanos
     * @param upperNanos    upper bound, nanoseconds, &gt;= valueNanos
     * @param confidence    coverage and target at once, in (0, 1)
     * @param enoughSamples see the record's description
     * @throws IllegalArgumentException as the canonical constructor
     */
    public PercentileEstimate(double percentile, long valueNanos, long lowerNanos, long upperNanos,
                              double confidence, boolean enoughSamples) {
        this(percentile, valueNanos, lowerNanos, upperNanos, confidence, confidence, enoughSamples);
    }

    /**
     * Whether the interval reaches the level it was built for.
     *
     * @return true when {@code confidence >= targetConfidence} (within {@link #COVERAGE_TOLERANCE}); false when the
     *         sample was too small and a bound was clamped to the sample minimum or maximum
     */
    public boolean meetsConfidence() {
        return confidence >= targetConfidence - COVERAGE_TOLERANCE;
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
        return Nanos.toMillis(valueNanos);
    }

    /** @return the lower bound in milliseconds */
    public double lowerMillis() {
        return Nanos.toMillis(lowerNanos);
    }

    /** @return the upper bound in milliseconds */
    public double upperMillis() {
        return Nanos.toMillis(upperNanos);
    }

    /**
     * The coverage of an interval that falls short of its target, as percent text that never reads as the target:
     * 0.948 against 0.95 is "94.8", not "95" (a console line had said "covers only 95 %").
     *
     * @param coverage the interval's coverage probability, 0..1
     * @param target   the confidence aimed at, 0..1
     * @return e.g. "75", "0.98" or "94.8": {@link #percent} with as many decimals (up to 3) as it takes to differ from
     * the target's text
     */
    public static String coveragePercent(double coverage, double target) {
        String text = percent(coverage);
        if (coverage < target && text.equals(percent(target))) {
            for (int decimals = 1; decimals <= 3; decimals++) {
                text = String.format(Locale.ROOT, "%." + decimals + "f", coverage * 100);
                if (!text.equals(String.format(Locale.ROOT, "%." + decimals + "f", target * 100))) {
                    break;
                }
            }
        }
        return text;
    }

    /** A probability as percent with two significant digits below 10 % (e.g. "75", "20", "0.98", "0"). */
    static String percent(double probability) {
        double pct = probability * 100;
        if (pct == 0 || pct >= 9.95) {
            return String.format(Locale.ROOT, "%.0f", pct);
        }
        return new java.math.BigDecimal(pct).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
    }
}
