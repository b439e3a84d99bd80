package org.latencylab.engine.fit;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.correlation.Covariance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;

/**
 * Bootstrap intervals for power-law fits made on every request of a sweep: the fit is repeated on resampled data
 * sets, each drawn with replacement from the requests of every context length separately, as many as were measured
 * at that length (a stratified, or "balanced design", bootstrap: the design of the sweep is kept, only the
 * latencies are resampled; Davison &amp; Hinkley, <i>Bootstrap Methods and their Application</i>, Cambridge 1997,
 * §3.2 and §6.2.4). The interval is the expanded percentile interval: quantiles of the refitted α (Efron &amp;
 * Tibshirani 1993, §13.3) taken further out than 2.5 % and 97.5 % so as to undo the percentile interval's known
 * narrowness in small samples (Hesterberg, "What Teachers Should Know About the Bootstrap", <i>The American
 * Statistician</i> 69(4), 2015, §5.2): the tail probability is {@code Φ(−√(m/(m−1)) · t(0.975; m−1))}, Hesterberg's
 * one-sample formula applied to the smallest number m of requests at one length, since resampling within lengths
 * makes every length's requests a sample of their own. Why: resampling m values reproduces their spread only up to
 * the factor {@code (m−1)/m}, and the 2.5 % normal quantile is smaller than Student's. With 20 requests per length
 * both tails move from 2.5 % to 1.6 %.
 *
 * <p>Unlike the parametric interval it assumes neither normal residuals nor equal spread at every length; like it,
 * it assumes the power law is the right model (a fixed offset that the pure law cannot follow biases both).
 *
 * <p>Resampling is seeded ({@link SplittableRandom}), so the same data and seed give the same interval. Stateless
 * and thread-safe.
 */
public final class PowerLawBootstrap {
    /** Default number of resamples for log-space least-squares fits (each refit is a closed-form regression). */
    public static final int LEAST_SQUARES_RESAMPLES = 1000;
    /** Default number of resamples for fits with an offset (each refit is an iterative Levenberg–Marquardt fit). */
    public static final int OFFSET_RESAMPLES = 400;
    /** Default number of resamples for quantile-regression fits (each resample solves a linear program). */
    public static final int QUANTILE_RESAMPLES = 200;
    /** Default seed of the resampling. */
    public static final long DEFAULT_SEED = 0x5EEDF17L;

    private PowerLawBootstrap() {
    }

    /**
     * Bootstrap interval of α for a least-squares fit ({@link PowerLawFitter#fit}).
     *
     * @param n          loads per request (e.g. context tokens), as for {@link PowerLawFitter#fit}
     * @param y          values per request (e.g. TTFT in ms), same length
     * @param withOffset the model, as for {@link PowerLawFitter#fit}
     * @param resamples  number of resamples, >= 10
     * @param seed       seed of the resampling
     * @return the fit on the data with its {@link PowerLawFit#bootstrap()} interval set
     * @throws IllegalArgumentException as {@link PowerLawFitter#fit}, or when resamples &lt; 10
     */
    public static PowerLawFit leastSquares(double[] n, double[] y, boolean withOffset, int resamples, long seed) {
        PowerLawFit fit = PowerLawFitter.fit(n, y, withOffset);
        double[][] alphas = run(n, y, resamples, seed, (bn, by) -> PowerLawFitter.fit(bn, by, withOffset));
        return fit.withBootstrap(interval(alphas[1], seed, tailPercent(n)));
    }

    /**
     * Quantile-regression fit ({@link PowerLawFitter#fitQuantile}) with a bootstrap interval of α; its covariance
     * (for the bands) is the covariance of {@code [ln a, α]} over the resamples, and {@code alphaLower}/{@code
     * alphaUpper} are the bootstrap percentile interval, since quantile regression has no simple parametric one.
     *
     * @param n         loads per request, as for {@link PowerLawFitter#fitQuantile}
     * @param y         values per request, same length
     * @param tau       the quantile, in (0, 1)
     * @param resamples number of resamples, >= 10
     * @param seed      seed of the resampling
     * @return the fit with interval, covariance and bootstrap set
     * @throws IllegalArgumentException as {@link PowerLawFitter#fitQuantile}, or when resamples &lt; 10
     */
    public static PowerLawFit quantile(double[] n, double[] y, double tau, int resamples, long seed) {
        PowerLawFit fit = PowerLawFitter.fitQuantile(n, y, tau);
        double[][] p = run(n, y, resamples, seed, (bn, by) -> PowerLawFitter.fitQuantile(bn, by, tau));
        PowerLawFit.Bootstrap b = interval(p[1], seed, tailPercent(n));
        double[][] pairs = new double[p[1].length][];
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = new double[]{p[0][i], p[1][i]};
        }
        double[] cov = new double[4];
        var c = new Covariance(pairs, true).getCovarianceMatrix();
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                cov[i * 2 + j] = c.getEntry(i, j);
            }
        }
        return new PowerLawFit(fit.a(), fit.alpha(), Math.min(b.alphaLower(), fit.alpha()),
                Math.max(b.alphaUpper(), fit.alpha()), 0, false, fit.rSquared(), fit.residualStdError(),
                fit.points(), cov, PowerLawFitter.NORMAL_95, PowerLawFit.Estimator.LOG_QUANTILE, tau, b);
    }

    /**
     * @return {@code [ln a per resample, α per resample]} of the resamples that could be fitted (a resample of an
     *         offset model can be unidentifiable, e.g. when it drew one value many times)
     * @throws IllegalArgumentException when fewer than 90 % of the resamples could be fitted
     */
    private static double[][] run(double[] n, double[] y, int resamples, long seed,
                                  BiFunction<double[], double[], PowerLawFit> refit) {
        if (resamples < 10) {
            throw new IllegalArgumentException("resamples must be >= 10, was " + resamples);
        }
        Map<Double, List<Integer>> strata = new LinkedHashMap<>();
        for (int i = 0; i < n.length; i++) {
            strata.computeIfAbsent(n[i], k -> new ArrayList<>()).add(i);
        }
        int[][] groups = strata.values().stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] lnA = new double[resamples];
        double[] alpha = new double[resamples];
        int ok = 0;
        double[] bn = new double[n.length];
        double[] by = new double[n.length];
        for (int b = 0; b < resamples; b++) {
            int k = 0;
            for (int[] g : groups) {
                for (int j = 0; j < g.length; j++) {
                    int pick = g[rnd.nextInt(g.length)];
                    bn[k] = n[pick];
                    by[k] = y[pick];
                    k++;
                }
            }
            PowerLawFit f;
            try {
                f = refit.apply(bn, by);
            } catch (IllegalArgumentException | ArithmeticException e) {
                continue;
            }
            lnA[ok] = Math.log(f.a());
            alpha[ok] = f.alpha();
            ok++;
        }
        if (ok < 0.9 * resamples) {
            throw new IllegalArgumentException("the bootstrap could fit only " + ok + " of " + resamples
                    + " resamples; the model is not identifiable from these requests");
        }
        return new double[][]{Arrays.copyOf(lnA, ok), Arrays.copyOf(alpha, ok)};
    }

    /**
     * The expanded percentile interval's tail (see the class documentation).
     *
     * @param n loads per request (the strata are the distinct values)
     * @return the lower tail in percent, below 2.5 (1.59 for 20 requests at the least-measured length)
     */
    static double tailPercent(double[] n) {
        Map<Double, Integer> sizes = new LinkedHashMap<>();
        for (double v : n) {
            sizes.merge(v, 1, Integer::sum);
        }
        int m = sizes.values().stream().mapToInt(Integer::intValue).min().orElse(2);
        if (m < 2) {
            return (1 - PowerLawFit.CONFIDENCE) / 2 * 100;
        }
        double t = new TDistribution(null, m - 1).inverseCumulativeProbability(0.5 + PowerLawFit.CONFIDENCE / 2);
        return new NormalDistribution(null, 0, 1).cumulativeProbability(-Math.sqrt(m / (m - 1.0)) * t) * 100;
    }

    private static PowerLawFit.Bootstrap interval(double[] alphas, long seed, double tail) {
        double[] sorted = alphas.clone();
        Arrays.sort(sorted);
        return new PowerLawFit.Bootstrap(StatUtils.percentile(sorted, tail), StatUtils.percentile(sorted, 100 - tail),
                alphas.length, seed);
    }
}
