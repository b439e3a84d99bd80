package org.latencylab.engine.fit;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.apache.commons.math3.util.Pair;

import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fits {@code y = a · n^α} (in log space) or {@code y = c + a · n^α} (in linear space) by least squares with Commons
 * Math's Levenberg–Marquardt optimizer, starting from the log-log linear regression, and {@code a · n^α} as a
 * τ-quantile curve by quantile regression (Commons Math's simplex solver). See the package documentation for why
 * the pure law is fitted in log space. Stateless and thread-safe.
 */
public final class PowerLawFitter {
    private static final int MAX_EVALUATIONS = 10_000;

    private PowerLawFitter() {
    }

    /**
     * @param n          the loads (e.g. context lengths in tokens), each finite and &gt; 0; repeats allowed (one point per
     *                   measured request is fine)
     * @param y          the measured values (e.g. TTFT in seconds), same length, each finite and &gt; 0
     * @param withOffset false for {@code a · n^α} (needs at least 3 distinct n), true for {@code c + a · n^α} (at least
     *                   4 distinct n)
     * @return the fit with α's 95 % interval, R² and the parameter covariance
     * @throws IllegalArgumentException when the arrays differ in length, a value is not positive and finite, there are
     *                                  too few distinct n, or the offset model is not identifiable from the points
     */
    public static PowerLawFit fit(double[] n, double[] y, boolean withOffset) {
        check(n, y, withOffset);
        SimpleRegression loglog = new SimpleRegression(true);
        for (int i = 0; i < n.length; i++) {
            loglog.addData(Math.log(n[i]), Math.log(y[i]));
        }
        return withOffset ? fitOffset(n, y, loglog) : fitLog(n, y, loglog);
    }

    /**
     * Quantile regression of {@code ln y = ln a + α ln n}: minimises {@code Σ ρτ(ln yᵢ − ln a − α ln nᵢ)} with the
     * check function {@code ρτ(r) = r·(τ − [r < 0])} (Koenker &amp; Bassett 1978), written as a linear program
     * (Koenker, <i>Quantile Regression</i>, Cambridge 2005, §6.2; see {@code quantileLine}) and solved with Commons Math's
     * {@link SimplexSolver}. Because the logarithm is monotone, the fitted {@code a · n^α} is the τ-quantile curve of
     * y itself. The returned fit has no interval yet: its {@code alphaLower}/{@code alphaUpper} equal α and its
     * covariance is zero until {@link PowerLawBootstrap#quantile} fills them from resamples.
     *
     * <p>Cost: the simplex tableau is dense, about {@code 2m × m} doubles for m points, and the simplex's time grows
     * faster than that, so this is meant for sweeps of up to {@link #MAX_QUANTILE_POINTS} requests.
     *
     * @param n   the loads, each finite and &gt; 0, at least 3 distinct
     * @param y   the measured values, same length, each finite and &gt; 0
     * @param tau the quantile, in (0, 1), e.g. 0.95
     * @return the fit ({@link PowerLawFit.Estimator#LOG_QUANTILE}); {@code rSquared} is Koenker &amp; Machado's
     *         pseudo-R¹ {@code 1 − V(fit)/V(intercept only)} (JASA 94, 1999), {@code residualStdError} the standard
     *         deviation of the log residuals
     * @throws IllegalArgumentException when inputs are invalid, tau is outside (0, 1), there are more than
     *                                  {@link #MAX_QUANTILE_POINTS} points, or the solver fails
     */
    public static PowerLawFit fitQuantile(double[] n, double[] y, double tau) {
        check(n, y, false);
        if (!(tau > 0 && tau < 1)) {
            throw new IllegalArgumentException("tau must be in (0, 1), was " + tau);
        }
        int m = n.length;
        if (m > MAX_QUANTILE_POINTS) {
            throw new IllegalArgumentException("quantile regression is limited to " + MAX_QUANTILE_POINTS
                    + " points, got " + m);
        }
        double[] ln = new double[m];
        double[] ly = new double[m];
        double meanLn = 0;
        for (int i = 0; i < m; i++) {
            ln[i] = Math.log(n[i]);
            ly[i] = Math.log(y[i]);
            meanLn += ln[i] / m;
        }
        double[] b = quantileLine(ln, ly, meanLn, tau);
        double lnA = b[0] - b[1] * meanLn;
        double alpha = b[1];
        double vFit = 0;
        double sumRes = 0;
        double sumRes2 = 0;
        for (int i = 0; i < m; i++) {
            double r = ly[i] - lnA - alpha * ln[i];
            vFit += rho(r, tau);
            sumRes += r;
            sumRes2 += r * r;
        }
        double[] sorted = ly.clone();
        Arrays.sort(sorted);
        double q = new org.apache.commons.math3.stat.descriptive.rank.Percentile()
                .withEstimationType(org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType.R_1)
                .evaluate(sorted, tau * 100);
        double vNull = 0;
        for (double v : ly) {
            vNull += rho(v - q, tau);
        }
        double sigma = Math.sqrt(Math.max(0, (sumRes2 - sumRes * sumRes / m) / (m - 2)));
        double r1 = vNull > 0 ? 1 - vFit / vNull : 1.0;
        return new PowerLawFit(Math.exp(lnA), alpha, alpha, alpha, 0, false, r1, sigma, m, new double[4],
                NORMAL_95, PowerLawFit.Estimator.LOG_QUANTILE, tau, null);
    }

    /** Largest number of points {@link #fitQuantile} accepts (the dense simplex tableau grows as m²). */
    public static final int MAX_QUANTILE_POINTS = 400;

    /** Two-sided 95 % quantile of the standard normal distribution, 1.959964. */
    static final double NORMAL_95 = 1.959963984540054;

    private static double rho(double r, double tau) {
        return r * (tau - (r < 0 ? 1 : 0));
    }

    /**
     * Solves the quantile regression line through its dual linear program with Commons Math's
     * {@link SimplexSolver}:
     * <ol>
     *   <li>the dual problem (Koenker 2005, §6.2): maximise {@code Σ yᵢ aᵢ} subject to {@code Σ aᵢ = (1 − τ) m},
     *       {@code Σ aᵢ (xᵢ − x̄) = (1 − τ) Σ (xᵢ − x̄)} and {@code 0 ≤ aᵢ ≤ 1}. It has two equality constraints,
     *       where the primal has one per point, each needing an artificial variable in phase 1 of the simplex (the
     *       primal took minutes for 60 points; the dual takes milliseconds);</li>
     * </ol>
     * The line follows from the dual solution by complementary slackness: a point with {@code aᵢ = 1} lies on or
     * above the line, one with {@code aᵢ = 0} on or below, one in between on it. At every distinct x this bounds
     * the fitted value to an interval [highest point below, lowest point above], and an optimal line passes through
     * two points, so it is among the lines through two of these interval ends; of those the one with the smallest
     * check loss is returned (the first found, in order of x, when several are equally good).
     *
     * @return {@code [b0, α]} with b0 the intercept at the centred x
     */
    private static double[] quantileLine(double[] x, double[] y, double meanX, double tau) {
        int m = x.length;
        double[] ones = new double[m];
        double[] centred = new double[m];
        double sumCentred = 0;
        for (int i = 0; i < m; i++) {
            ones[i] = 1;
            centred[i] = x[i] - meanX;
            sumCentred += centred[i];
        }
        List<LinearConstraint> rows = new ArrayList<>(m + 2);
        rows.add(new LinearConstraint(ones, Relationship.EQ, (1 - tau) * m));
        rows.add(new LinearConstraint(centred, Relationship.EQ, (1 - tau) * sumCentred));
        for (int i = 0; i < m; i++) {
            double[] unit = new double[m];
            unit[i] = 1;
            rows.add(new LinearConstraint(unit, Relationship.LEQ, 1));
        }
        double[] a;
        try {
            a = new SimplexSolver().optimize(new MaxIter(100 * (m + 2)), new LinearObjectiveFunction(y, 0),
                    new LinearConstraintSet(rows), GoalType.MAXIMIZE, new NonNegativeConstraint(true)).getPoint();
        } catch (org.apache.commons.math3.exception.MathIllegalStateException e) {
            throw new IllegalArgumentException("quantile regression failed: " + e.getMessage(), e);
        }
        // bounds of the fitted value at each distinct centred x: [highest point below, lowest point above]
        java.util.TreeMap<Double, double[]> bounds = new java.util.TreeMap<>();
        for (int i = 0; i < m; i++) {
            double[] b = bounds.computeIfAbsent(centred[i], k -> new double[]{Double.NEGATIVE_INFINITY,
                    Double.POSITIVE_INFINITY});
            if (a[i] < 1 - DUAL_TOLERANCE) { // on or below the line
                b[0] = Math.max(b[0], y[i]);
            }
            if (a[i] > DUAL_TOLERANCE) { // on or above the line
                b[1] = Math.min(b[1], y[i]);
            }
        }
        // an optimal line passes through two points (p = 2 parameters; Koenker & Bassett 1978, Theorem 3.1); in
        // each group the only points the line can pass through are those at the group's two bounds
        List<double[]> knots = new ArrayList<>();
        for (var e : bounds.entrySet()) {
            for (double v : e.getValue()) {
                if (Double.isFinite(v)) {
                    knots.add(new double[]{e.getKey(), v});
                }
            }
        }
        double[] best = null;
        double bestLoss = Double.POSITIVE_INFINITY;
        for (int p = 0; p < knots.size(); p++) {
            for (int q = p + 1; q < knots.size(); q++) {
                double[] k1 = knots.get(p);
                double[] k2 = knots.get(q);
                if (k1[0] == k2[0]) {
                    continue;
                }
                double slope = (k2[1] - k1[1]) / (k2[0] - k1[0]);
                double b0 = k1[1] - slope * k1[0];
                double loss = 0;
                for (int i = 0; i < m; i++) {
                    loss += rho(y[i] - b0 - slope * centred[i], tau);
                }
                if (best == null || loss < bestLoss - 1e-12 * Math.abs(bestLoss)) {
                    bestLoss = loss;
                    best = new double[]{b0, slope};
                }
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("quantile regression failed: no line through the dual solution's"
                    + " bounds (points at fewer than 2 distinct loads?)");
        }
        return best;
    }

    /** How close to 0 or 1 a dual value counts as at its bound. */
    private static final double DUAL_TOLERANCE = 1e-7;

    private static void check(double[] n, double[] y, boolean withOffset) {
        if (n.length != y.length) {
            throw new IllegalArgumentException("n and y must have the same length, were " + n.length + " and " + y.length);
        }
        for (int i = 0; i < n.length; i++) {
            if (!(n[i] > 0) || !Double.isFinite(n[i])) {
                throw new IllegalArgumentException("n[" + i + "] must be positive and finite, was " + n[i]);
            }
            if (!(y[i] > 0) || !Double.isFinite(y[i])) {
                throw new IllegalArgumentException("y[" + i + "] must be positive and finite, was " + y[i]);
            }
        }
        long distinct = Arrays.stream(n).distinct().count();
        int needed = withOffset ? 4 : 3;
        if (distinct < needed) {
            throw new IllegalArgumentException("a power-law fit" + (withOffset ? " with offset" : "") + " needs at least "
                    + needed + " context lengths, got " + distinct);
        }
    }

    private static PowerLawFit fitLog(double[] n, double[] y, SimpleRegression start) {
        int m = n.length;
        double[] ln = new double[m];
        double[] ly = new double[m];
        for (int i = 0; i < m; i++) {
            ln[i] = Math.log(n[i]);
            ly[i] = Math.log(y[i]);
        }
        // parameters p = [ln a, alpha]; model ln y = ln a + alpha ln n
        MultivariateJacobianFunction model = p -> {
            double[] v = new double[m];
            double[][] jac = new double[m][2];
            for (int i = 0; i < m; i++) {
                v[i] = p.getEntry(0) + p.getEntry(1) * ln[i];
                jac[i][0] = 1;
                jac[i][1] = ln[i];
            }
            return new Pair<>(new ArrayRealVector(v, false), new Array2DRowRealMatrix(jac, false));
        };
        LeastSquaresOptimizer.Optimum opt = optimize(model, ly, new double[]{start.getIntercept(), start.getSlope()});
        double[] p = opt.getPoint().toArray();
        Stats s = stats(opt, ly, 2);
        double alphaSe = Math.sqrt(s.cov[3]);
        return new PowerLawFit(Math.exp(p[0]), p[1], p[1] - s.t * alphaSe, p[1] + s.t * alphaSe, 0, false,
                s.r2, s.sigma, m, s.cov, s.t);
    }

    private static PowerLawFit fitOffset(double[] n, double[] y, SimpleRegression start) {
        int m = n.length;
        // parameters p = [c, a, alpha]; model y = c + a n^alpha
        MultivariateJacobianFunction model = p -> {
            double[] v = new double[m];
            double[][] jac = new double[m][3];
            for (int i = 0; i < m; i++) {
                double pw = Math.pow(n[i], p.getEntry(2));
                v[i] = p.getEntry(0) + p.getEntry(1) * pw;
                jac[i][0] = 1;
                jac[i][1] = pw;
                jac[i][2] = p.getEntry(1) * pw * Math.log(n[i]);
            }
            return new Pair<>(new ArrayRealVector(v, false), new Array2DRowRealMatrix(jac, false));
        };
        double[] p0 = {0, Math.exp(start.getIntercept()), start.getSlope()};
        LeastSquaresOptimizer.Optimum opt = optimize(model, y, p0);
        double[] p = opt.getPoint().toArray();
        Stats s = stats(opt, y, 3);
        double alphaSe = Math.sqrt(s.cov[8]);
        if (!Double.isFinite(alphaSe)) {
            throw new IllegalArgumentException("the offset model is not identifiable from these points;"
                    + " fit without offset or add context lengths");
        }
        return new PowerLawFit(p[1], p[2], p[2] - s.t * alphaSe, p[2] + s.t * alphaSe, p[0], true, s.r2, s.sigma,
                m, s.cov, s.t);
    }

    private static LeastSquaresOptimizer.Optimum optimize(MultivariateJacobianFunction model, double[] target,
                                                          double[] start) {
        return new LevenbergMarquardtOptimizer().optimize(new LeastSquaresBuilder()
                .model(model)
                .target(target)
                .start(start)
                .maxEvaluations(MAX_EVALUATIONS)
                .maxIterations(MAX_EVALUATIONS)
                .lazyEvaluation(false)
                .build());
    }

    private record Stats(double[] cov, double sigma, double r2, double t) {
    }

    private static Stats stats(LeastSquaresOptimizer.Optimum opt, double[] target, int k) {
        int m = target.length;
        int df = m - k;
        RealVector res = opt.getResiduals();
        double rss = res.dotProduct(res);
        double mean = Arrays.stream(target).average().orElse(0);
        double tss = Arrays.stream(target).map(v -> (v - mean) * (v - mean)).sum();
        double sigma2 = rss / df;
        RealMatrix unscaled;
        try {
            // Commons Math returns (J^T J)^-1, not yet scaled by the residual variance
            unscaled = opt.getCovariances(1e-14);
        } catch (SingularMatrixException e) {
            throw new IllegalArgumentException("the model is not identifiable from these points (singular Jacobian);"
                    + " add context lengths or fit without offset", e);
        }
        double[] cov = new double[k * k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                cov[i * k + j] = unscaled.getEntry(i, j) * sigma2;
            }
        }
        double t = new TDistribution(null, df).inverseCumulativeProbability(0.5 + PowerLawFit.CONFIDENCE / 2);
        double r2 = tss > 0 ? 1 - rss / tss : 1.0;
        return new Stats(cov, Math.sqrt(sigma2), r2, t);
    }
}
