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
 * @param tQuantile        the two-sided 95 % Student-t quantile for {@code points − k} degrees of freedom (for a
 *                         {@link Estimator#LOG_QUANTILE} fit: the normal quantile 1.96, used with the bootstrap
 *                         covariance for the bands)
 * @param estimator        what was minimised, see {@link Estimator}; never null
 * @param quantile         the quantile τ in (0, 1) of a {@link Estimator#LOG_QUANTILE} fit (e.g. 0.95 for the P95
 *                         curve); null for the least-squares estimators
 * @param bootstrap        the bootstrap interval of α, or null when none was computed
 */
public record PowerLawFit(double a, double alpha, double alphaLower, double alphaUpper, double c, boolean withOffset,
                          double rSquared, double residualStdError, int points, double[] covariance,
                          double tQuantile, Estimator estimator, Double quantile, Bootstrap bootstrap) {

    /** Confidence level of the α interval and of the bands: 0.95. */
    public static final double CONFIDENCE = 0.95;

    /**
     * @throws IllegalArgumentException when the covariance is not k×k, values are not finite, the estimator does
     *                                  not match {@code withOffset} or a quantile fit has no τ in (0, 1)
     */
    public PowerLawFit {
        java.util.Objects.requireNonNull(estimator, "estimator");
        if (withOffset != (estimator == Estimator.LINEAR_LEAST_SQUARES)) {
            throw new IllegalArgumentException("estimator " + estimator + " does not match withOffset=" + withOffset);
        }
        if (estimator == Estimator.LOG_QUANTILE ? quantile == null || !(quantile > 0 && quantile < 1) : quantile != null) {
            throw new IllegalArgumentException("quantile must be in (0, 1) for a quantile fit and null otherwise, was "
                    + quantile + " for " + estimator);
        }
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

    /**
     * A least-squares fit without bootstrap interval: {@link Estimator#LINEAR_LEAST_SQUARES} when
     * {@code withOffset}, else {@link Estimator#LOG_LEAST_SQUARES}. Parameters as in the canonical constructor.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public PowerLawFit(double a, double alpha, double alphaLower, double alphaUpper, double c, boolean withOffset,
                       double rSquared, double residualStdError, int points, double[] covariance, double tQuantile) {
        this(a, alpha, alphaLower, alphaUpper, c, withOffset, rSquared, residualStdError, points, covariance,
                tQuantile, withOffset ? Estimator.LINEAR_LEAST_SQUARES : Estimator.LOG_LEAST_SQUARES, null, null);
    }

    /**
     * @param interval the bootstrap interval of α (see {@link PowerLawBootstrap})
     * @return a copy of this fit carrying that interval
     */
    public PowerLawFit withBootstrap(Bootstrap interval) {
        return new PowerLawFit(a, alpha, alphaLower, alphaUpper, c, withOffset, rSquared, residualStdError, points,
                covariance, tQuantile, estimator, quantile, java.util.Objects.requireNonNull(interval, "interval"));
    }

    /** @return half the width of the 95 % interval of α ({@code (alphaUpper − alphaLower) / 2}), dimensionless */
    public double alphaHalfWidth() {
        return (alphaUpper - alphaLower) / 2;
    }

    @Override
    public double[] covariance() {
        return covariance.clone();
    }

    /**
     * The fitted law in words with y's name and unit, as the console, the HTML report and the sweep chart's legend
     * print it.
     *
     * @param yName what y is, e.g. {@code TTFT}; not blank
     * @param yUnit y's unit, e.g. {@code ms} (the unit this fit was made in); not blank
     * @return e.g. {@code TTFT ≈ 2.021 ms · n^0.589}, or with an offset {@code TTFT ≈ 12.3 ms + 0.5 ms · n^0.8}
     */
    public String formula(String yName, String yUnit) {
        return formula(yName, yUnit, withOffset ? c : 0, a, alpha);
    }

    /**
     * The one text of a power law {@code y ≈ c + a · n^α} for people; a and c with 4 significant digits (plain
     * notation), α with 3 decimals.
     *
     * @param yName what y is, e.g. {@code TTFT}; not blank
     * @param yUnit y's unit, e.g. {@code ms}; not blank
     * @param c     offset in y's unit; 0 for the pure law (then not shown)
     * @param a     scale in y's unit at n = 1
     * @param alpha exponent α
     * @return e.g. {@code TTFT ≈ 1.67 ms · n^0.711}
     * @throws IllegalArgumentException when the name or unit is blank
     */
    public static String formula(String yName, String yUnit, double c, double a, double alpha) {
        if (yName == null || yName.isBlank() || yUnit == null || yUnit.isBlank()) {
            throw new IllegalArgumentException("a fit formula needs y's name and unit, was '" + yName + "' ["
                    + yUnit + "]");
        }
        return yName + " ≈ " + (c == 0 ? "" : significant(c) + " " + yUnit + " + ") + significant(a) + " " + yUnit
                + " · n^" + String.format(java.util.Locale.ROOT, "%.3f", alpha);
    }

    private static String significant(double v) {
        if (!Double.isFinite(v)) {
            return Double.toString(v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
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
                && Arrays.equals(f.covariance, covariance) && f.estimator == estimator
                && java.util.Objects.equals(f.quantile, quantile) && java.util.Objects.equals(f.bootstrap, bootstrap);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new double[]{a, alpha, c, rSquared, points}) * 31 + Arrays.hashCode(covariance);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "PowerLawFit[%s%s: y = %s%.6g * n^%.4f, alpha 95%% CI [%.4f, %.4f]%s,"
                        + " R2=%.4f, s=%.4g, points=%d]", estimator,
                quantile == null ? "" : String.format(java.util.Locale.ROOT, "(%.3g)", quantile),
                withOffset ? String.format(java.util.Locale.ROOT, "%.6g + ", c) : "",
                a, alpha, alphaLower, alphaUpper,
                bootstrap == null ? "" : String.format(java.util.Locale.ROOT, ", bootstrap [%.4f, %.4f]",
                        bootstrap.alphaLower(), bootstrap.alphaUpper()),
                rSquared, residualStdError, points);
    }

    /** What a fit minimised. */
    public enum Estimator {
        /**
         * Least squares on {@code ln y = ln a + α ln n}: with multiplicative (lognormal) noise the fitted curve is
         * the median (geometric mean) of y at each n; parametric Student-t intervals.
         */
        LOG_LEAST_SQUARES,
        /** Least squares on {@code y = c + a · n^α} in y itself: the mean curve; parametric Student-t intervals. */
        LINEAR_LEAST_SQUARES,
        /**
         * Quantile regression on {@code ln y = ln a + α ln n} (Koenker &amp; Bassett, "Regression Quantiles",
         * Econometrica 46, 1978): the curve below which a share τ of the requests at each n lies. Its α interval
         * and covariance come from the bootstrap (no parametric interval).
         */
        LOG_QUANTILE
    }

    /**
     * A bootstrap percentile interval of α: the fit repeated on {@code resamples} data sets, each drawn with
     * replacement from the requests of every context length separately (as many as were measured there), and
     * quantiles of the refitted α (Efron &amp; Tibshirani, <i>An Introduction to the Bootstrap</i>, 1993, ch. 9.5 and
     * 13), expanded beyond 2.5 % and 97.5 % for small samples as {@link PowerLawBootstrap} describes. Immutable.
     *
     * @param alphaLower lower end of the 95 % interval of α
     * @param alphaUpper upper end
     * @param resamples  number of bootstrap resamples that could be fitted, >= 1
     * @param seed       seed of the resampling, so the interval is reproducible
     * @throws IllegalArgumentException when the ends are not finite and ordered or resamples &lt; 1
     */
    public record Bootstrap(double alphaLower, double alphaUpper, int resamples, long seed) {
        public Bootstrap {
            if (!Double.isFinite(alphaLower) || !Double.isFinite(alphaUpper) || alphaLower > alphaUpper) {
                throw new IllegalArgumentException("bootstrap interval must be finite and ordered, was ["
                        + alphaLower + ", " + alphaUpper + "]");
            }
            if (resamples < 1) {
                throw new IllegalArgumentException("resamples must be >= 1, was " + resamples);
            }
        }

        /** @return half the width of the interval, dimensionless */
        public double halfWidth() {
            return (alphaUpper - alphaLower) / 2;
        }
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
