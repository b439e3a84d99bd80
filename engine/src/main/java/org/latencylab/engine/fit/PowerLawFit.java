package org.latencylab.engine.fit;

import java.util.Arrays;

/**
 * Result of fitting {@code y = c + a · n^α} (c = 0 for the pure power law) with {@link PowerLawFitter}.
 * Immutable and thread-safe.
 *
 * <p>Units: {@code y} (and {@code a}, {@code c}, predictions and bands) are in whatever unit the caller fitted,
 * typically seconds or milliseconds of latency; {@code n} is dimensionless (tokens).
 *
 * @param a                the scale a &gt; 0 (units of y at n = 1)
 * @param alpha            the exponent α
 * @param alphaLower       lower end of the 95 % confidence interval of α (t-quantile × standard error)
 * @param alphaUpper       upper end of the 95 % confidence interval of α
 * @param c                the offset c (0 when {@code withOffset} is false)
 * @param withOffset       true for the model {@code c + a · n^α}, fitted in linear space; false for {@code a · n^α},
 *                         fitted in log space
 * @param rSquared         coefficient of determination in the space of the fit (log y for the pure power law)
 * @param residualStdError residual standard error {@code sqrt(RSS / (points − parameters))} in the space of the fit
 *                         (for the pure law: natural-log units, ≈ relative error)
 * @param points           number of (n, y) points fitted
 * @param covariance       parameter covariance, row-major k×k, parameters in the order {@code [ln a, α]} (pure) or
 *                         {@code [c, a, α]} (offset); copied in and out
 * @param tQuantile        the two-sided 95 % Student-t quantile for {@code points − k} degrees of freedom
 */
public record PowerLawFit(double a, double alpha, double alphaLower, double alphaUpper, double c, boolean withOffset,
                          double rSquared, double residualStdError, int points, double[] covariance,
                          double tQuantile) {

    /** Confidence level of the α interval and of the bands: 0.95. */
    public static final double CONFIDENCE = 0.95;

    /** @throws IllegalArgumentException when the covariance is not k×k or values are not finite */
    public PowerLawFit {
        int k = withOffset ? 3 : 2;
        if (covariance == null || covariance.length != k * k) {
            throw new IllegalArgumentException("covariance must be " + k + "x" + k + ", had "
                    + (covariance == null ? "null" : covariance.length + " entries"));
        }
        if (!Double.isFinite(a) || !Double.isFinite(alpha) || !Double.isFinite(c)) {
            throw new IllegalArgumentException("fit parameters must be finite, were a=" + a + ", alpha=" + alpha
                    + ", c=" + c);
        }
        if (points < k + 1) {
            throw new IllegalArgumentException("a fit with " + k + " parameters needs >= " + (k + 1)
                    + " points, had " + points);
        }
        covariance = covariance.clone();
    }

    @Override
    public double[] covariance() {
        return covariance.clone();
    }

    /** @return the standard error of α */
    public double alphaStdError() {
        int k = withOffset ? 3 : 2;
        return Math.sqrt(covariance[k * k - 1]);
    }

    /**
     * @param n the load, e.g. context length in tokens, &gt; 0
     * @return the fitted {@code c + a · n^α}, in the unit of y
     * @throws IllegalArgumentException when n is not positive
     */
    public double predict(double n) {
        checkN(n);
        return c + a * Math.pow(n, alpha);
    }

    /**
     * 95 % confidence band of the fitted curve at n: where the true mean curve lies, given the parameter uncertainty
     * only (delta method: {@code Var(f(n)) ≈ gᵀ Σ g} with g the gradient of the model in the parameters and Σ the
     * covariance; Seber &amp; Wild 1989, §5.1). For the pure law the band is symmetric in log space, so it is
     * asymmetric (and always positive) in y. Extrapolation beyond the fitted range widens it, and it is only as
     * good as the model.
     *
     * @param n the load, &gt; 0
     * @return lower, fitted value and upper, in the unit of y
     * @throws IllegalArgumentException when n is not positive
     */
    public Band bandAt(double n) {
        return band(n, false);
    }

    /**
     * 95 % prediction band at n: where a single new measurement is expected to fall; the curve's variance plus the
     * residual variance ({@code gᵀ Σ g + s²}).
     *
     * @param n the load, &gt; 0
     * @return lower, fitted value and upper, in the unit of y
     * @throws IllegalArgumentException when n is not positive
     */
    public Band predictionBandAt(double n) {
        return band(n, true);
    }

    private Band band(double n, boolean newObservation) {
        checkN(n);
        double[] g;
        if (withOffset) {
            double pw = Math.pow(n, alpha);
            g = new double[]{1, pw, a * pw * Math.log(n)};
        } else {
            g = new double[]{1, Math.log(n)};
        }
        int k = g.length;
        double v = 0;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                v += g[i] * covariance[i * k + j] * g[j];
            }
        }
        if (newObservation) {
            v += residualStdError * residualStdError;
        }
        double half = tQuantile * Math.sqrt(Math.max(0, v));
        if (withOffset) {
            double y = predict(n);
            return new Band(y - half, y, y + half);
        }
        double logY = Math.log(a) + alpha * Math.log(n);
        return new Band(Math.exp(logY - half), Math.exp(logY), Math.exp(logY + half));
    }

    private static void checkN(double n) {
        if (!(n > 0) || Double.isInfinite(n)) {
            throw new IllegalArgumentException("n must be a positive finite number, was " + n);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PowerLawFit f && f.a == a && f.alpha == alpha && f.alphaLower == alphaLower
                && f.alphaUpper == alphaUpper && f.c == c && f.withOffset == withOffset && f.rSquared == rSquared
                && f.residualStdError == residualStdError && f.points == points && f.tQuantile == tQuantile
                && Arrays.equals(f.covariance, covariance);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new double[]{a, alpha, c, rSquared, points}) * 31 + Arrays.hashCode(covariance);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "PowerLawFit[y = %s%.6g * n^%.4f, alpha 95%% CI [%.4f, %.4f],"
                        + " R2=%.4f, s=%.4g, points=%d]", withOffset ? String.format(java.util.Locale.ROOT, "%.6g + ", c) : "",
                a, alpha, alphaLower, alphaUpper, rSquared, residualStdError, points);
    }

    /**
     * A band at one n. Immutable.
     *
     * @param lower lower end, unit of y
     * @param value fitted value, unit of y
     * @param upper upper end, unit of y
     */
    public record Band(double lower, double value, double upper) {
    }
}
