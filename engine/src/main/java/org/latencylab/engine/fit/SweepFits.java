package org.latencylab.engine.fit;

import org.apache.commons.math3.stat.descriptive.rank.Percentile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two fits of a context sweep, made on every measured request rather than on one summary value per context
 * length (which would leave a three-length sweep one degree of freedom):
 * <ul>
 *   <li><b>median curve</b>: {@code TTFT = a · n^α} by least squares in log space over all requests
 *       ({@link PowerLawFit.Estimator#LOG_LEAST_SQUARES}; with multiplicative noise this is the median curve), or
 *       {@code c + a · n^α} by least squares in linear space ({@link PowerLawFit.Estimator#LINEAR_LEAST_SQUARES}, the
 *       mean curve) when an offset is asked for. α gets the parametric Student-t interval and, beside it, a
 *       bootstrap interval from {@value PowerLawBootstrap#LEAST_SQUARES_RESAMPLES} resamples
 *       ({@value PowerLawBootstrap#OFFSET_RESAMPLES} with an offset) of the requests within each context length
 *       ({@link PowerLawBootstrap}).</li>
 *   <li><b>P95 curve</b>: {@code a · n^α} as the 0.95-quantile curve by quantile regression in log space
 *       ({@link PowerLawFit.Estimator#LOG_QUANTILE}, Commons Math's simplex solver), its interval from
 *       {@value PowerLawBootstrap#QUANTILE_RESAMPLES} bootstrap resamples. With an offset, or with more than
 *       {@link PowerLawFitter#MAX_QUANTILE_POINTS} requests, or when the bootstrap cannot fit 90 % of its resamples
 *       (a few requests per length), the P95 curve is fitted by least squares to the per-length P95 values instead
 *       (nearest rank).</li>
 * </ul>
 * When the bootstrap of the median curve cannot fit 90 % of its resamples, that fit has no bootstrap interval
 * ({@link PowerLawFit#bootstrap()} null) and keeps its parametric one.
 * Stateless and thread-safe.
 */
public final class SweepFits {
    /** The quantile of the upper fit: 0.95 (P95). */
    public static final double UPPER_QUANTILE = 0.95;

    private SweepFits() {
    }

    /**
     * @param n          context length per request, tokens, each &gt; 0
     * @param ttft       TTFT per request (any unit &gt; 0; the fits are in that unit), same length
     * @param withOffset fit {@code c + a · n^α} instead of {@code a · n^α}
     * @param seed       seed of the bootstrap resampling
     * @return the median (or mean, with offset) and P95 fits
     * @throws IllegalArgumentException when the inputs are invalid or the model cannot be fitted (too few distinct
     *                                  lengths: 3, or 4 with offset; an unidentifiable offset model)
     */
    public static Result fit(double[] n, double[] ttft, boolean withOffset, long seed) {
        PowerLawFit center = PowerLawFitter.fit(n, ttft, withOffset);
        try {
            center = PowerLawBootstrap.leastSquares(n, ttft, withOffset, withOffset
                    ? PowerLawBootstrap.OFFSET_RESAMPLES : PowerLawBootstrap.LEAST_SQUARES_RESAMPLES, seed);
        } catch (IllegalArgumentException e) {
            // too few requests per length for resamples that can all be fitted: the parametric interval only
        }
        PowerLawFit upper = null;
        if (!withOffset && n.length <= PowerLawFitter.MAX_QUANTILE_POINTS) {
            try {
                upper = PowerLawBootstrap.quantile(n, ttft, UPPER_QUANTILE, PowerLawBootstrap.QUANTILE_RESAMPLES,
                        seed);
            } catch (IllegalArgumentException e) {
                // e.g. 3 requests per length: the per-length fit below
            }
        }
        if (upper == null) {
            double[][] q = perLengthQuantile(n, ttft, UPPER_QUANTILE);
            upper = PowerLawFitter.fit(q[0], q[1], withOffset);
        }
        return new Result(center, upper);
    }

    /** @return {@code [lengths, nearest-rank quantile per length]} in first-seen order */
    static double[][] perLengthQuantile(double[] n, double[] y, double tau) {
        Map<Double, List<Double>> groups = new LinkedHashMap<>();
        for (int i = 0; i < n.length; i++) {
            groups.computeIfAbsent(n[i], k -> new ArrayList<>()).add(y[i]);
        }
        double[] xs = new double[groups.size()];
        double[] qs = new double[groups.size()];
        int k = 0;
        Percentile nearestRank = new Percentile().withEstimationType(Percentile.EstimationType.R_1);
        for (Map.Entry<Double, List<Double>> e : groups.entrySet()) {
            xs[k] = e.getKey();
            qs[k] = nearestRank.evaluate(e.getValue().stream().mapToDouble(Double::doubleValue).toArray(), tau * 100);
            k++;
        }
        return new double[][]{xs, qs};
    }

    /**
     * The fits of one sweep. Immutable.
     *
     * @param center the median curve (log least squares) or, with offset, the mean curve; with its bootstrap
     *               interval unless the bootstrap failed
     * @param upper  the P95 curve
     */
    public record Result(PowerLawFit center, PowerLawFit upper) {
        public Result {
            java.util.Objects.requireNonNull(center, "center");
            java.util.Objects.requireNonNull(upper, "upper");
        }
    }
}
