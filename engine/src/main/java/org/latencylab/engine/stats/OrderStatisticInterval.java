package org.latencylab.engine.stats;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Ranks of the distribution-free confidence interval for a quantile.
 *
 * <p>For n independent samples of a continuous distribution with p-quantile ξ, the number B of samples below ξ is
 * Binomial(n, p), so for the order statistics {@code x(l) <= x(u)} (1-based ranks)
 * {@code P(x(l) <= ξ <= x(u)) = P(l <= B <= u−1) = F(u−1) − F(l−1)} with F the binomial CDF. This class picks
 * l as large and u as small as possible with each tail at most {@code (1−confidence)/2}, so the coverage is at least
 * {@code confidence} (conservative, because the binomial is discrete). Source: Hahn &amp; Meeker,
 * <i>Statistical Intervals</i> (Wiley 1991), §5.2; Conover, <i>Practical Nonparametric Statistics</i> (3rd ed.
 * 1999), §3.2 "quantile test" confidence interval. The binomial quantiles come from Commons Math.
 *
 * <p>When a rank falls outside 1..n it is clamped (to the minimum or maximum) and flagged: the interval then
 * covers less than {@code confidence}, and {@link #coverage} says how much it does cover. When clamping leaves
 * both ranks equal and n &gt;= 2, the interval is widened by one rank on the side that adds more coverage, so that
 * {@code lowerRank < upperRank} whenever n &gt;= 2 (a zero-width interval has coverage 0 for continuous data).
 * For n = 1 both ranks are 1 and the coverage is 0. Stateless and thread-safe.
 *
 * @param lowerRank     1-based rank of the lower bound, in 1..n
 * @param pointRank     1-based nearest rank of the point estimate, {@code max(1, ⌈p·n⌉)}
 * @param upperRank     1-based rank of the upper bound, in 1..n
 * @param lowerClamped  true when the ideal lower rank was below 1 (the bound is the minimum)
 * @param upperClamped  true when the ideal upper rank was above n (the bound is the maximum)
 */
public record OrderStatisticInterval(long lowerRank, long pointRank, long upperRank,
                                     boolean lowerClamped, boolean upperClamped) {

    /**
     * @param n          number of samples, &gt;= 1
     * @param percentile the percentile in percent, in (0, 100)
     * @param confidence the confidence level, in (0, 1), e.g. 0.95
     * @return the ranks
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static OrderStatisticInterval of(long n, double percentile, double confidence) {
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("sample count must be in 1.." + Integer.MAX_VALUE + ", was " + n);
        }
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100), was " + percentile);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
        }
        double p = percentile / 100.0;
        double tail = (1 - confidence) / 2;
        // null RandomGenerator: we only need quantiles, not sampling (avoids seeding a generator per call)
        BinomialDistribution b = new BinomialDistribution(null, (int) n, p);
        // lower: largest l with F(l-1) <= tail. k = smallest k with F(k) >= tail, so l-1 = k-1 unless F(k) == tail.
        long k = b.inverseCumulativeProbability(tail);
        long l = b.cumulativeProbability((int) k) <= tail ? k + 1 : k;
        // upper: smallest u with F(u-1) >= 1 - tail.
        long u = (long) b.inverseCumulativeProbability(1 - tail) + 1;
        long point = Math.max(1, (long) Math.ceil(p * n - 1e-9));
        boolean lowClamp = l < 1;
        boolean highClamp = u > n;
        l = Math.max(1, Math.min(l, point));
        u = Math.min(n, Math.max(u, point));
        if (l == u && n >= 2) {
            // widening down adds P(B = l-1), widening up adds P(B = u); take the larger one that exists
            boolean down = u == n || (l > 1 && b.probability((int) l - 1) >= b.probability((int) u));
            if (down) {
                l--;
            } else {
                u++;
            }
        }
        return new OrderStatisticInterval(l, point, u, lowClamp, highClamp);
    }

    /**
     * The exact coverage of the chosen ranks for continuous data: {@code F(u−1) − F(l−1)} with F the
     * Binomial(n, p) CDF (same sources as the class). This is the coverage of the ranks as returned, i.e. after any
     * clamping and widening: 0 when {@code lowerRank == upperRank}.
     *
     * @param n          number of samples the ranks were made for, in {@code upperRank..2^31−1}
     * @param percentile percent, in (0, 100)
     * @return the probability, in [0, 1], that {@code [x(lowerRank), x(upperRank)]} contains the true percentile
     * @throws IllegalArgumentException when n or the percentile is out of range
     */
    public double coverage(long n, double percentile) {
        if (n < upperRank || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("sample count must be in " + upperRank + ".." + Integer.MAX_VALUE
                    + " (at least the upper rank), was " + n);
        }
        if (!(percentile > 0 && percentile < 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100), was " + percentile);
        }
        BinomialDistribution b = new BinomialDistribution(null, (int) n, percentile / 100.0);
        // P(x(l) <= xi) = P(B >= l) = 1 - F(l-1); P(xi <= x(u)) = P(B <= u-1) = F(u-1)
        double upper = b.cumulativeProbability((int) upperRank - 1);
        double lower = b.cumulativeProbability((int) lowerRank - 1);
        // the difference of two rounded CDF values can stray a few ulps outside [0, 1]
        return Math.max(0.0, Math.min(1.0, upper - lower));
    }
}
