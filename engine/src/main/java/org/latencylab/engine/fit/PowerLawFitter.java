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

import java.util.Arrays;

/**
 * Fits {@code y = a · n^α} (in log space) or {@code y = c + a · n^α} (in linear space) by least squares with Commons
 * Math's Levenberg–Marquardt optimizer, starting from the log-log linear regression. See the package documentation
 * for why the pure law is fitted in log space. Stateless and thread-safe.
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
        SimpleRegression loglog = new SimpleRegression(true);
        for (int i = 0; i < n.length; i++) {
            loglog.addData(Math.log(n[i]), Math.log(y[i]));
        }
        return withOffset ? fitOffset(n, y, loglog) : fitLog(n, y, loglog);
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
