/**
 * Curve fits of latency against a load variable, with parameter uncertainty.
 *
 * <p>The context sweep fits {@code latency = a · n^α} (optionally {@code c + a · n^α}) to latencies measured at several
 * prompt lengths n. α says how prefill scales: near 1 for compute-bound linear attention cost, near 2 when the
 * quadratic attention term dominates, well below 1 when fixed overheads hide the growth.
 *
 * <p>Fitting uses Commons Math's {@code LevenbergMarquardtOptimizer} through a {@code LeastSquaresBuilder}, started
 * from the log-log linear regression. Parameter covariance {@code σ² (JᵀJ)⁻¹} (σ² = residual sum of squares /
 * degrees of freedom) gives Student-t intervals for α and, by the delta method, bands for the fitted curve
 * (Seber &amp; Wild, <i>Nonlinear Regression</i>, Wiley 1989, §2.3 and §5.1; Bates &amp; Watts, <i>Nonlinear Regression
 * Analysis and Its Applications</i>, 1988, §2.3). These intervals are asymptotic: with 3–5 context lengths they are
 * a guide, not a guarantee.
 *
 * <p>The pure power law is fitted in log space: latency noise is roughly multiplicative (a 5 % jitter at 2k tokens is
 * also about 5 % at 32k), so logarithms make the residuals homoscedastic, and every decade of n weighs the same
 * instead of the longest context dominating the fit. The offset model cannot be linearised and is fitted in linear
 * space.
 *
 * <p>A context sweep fits every measured request, not one summary value per length ({@link
 * org.latencylab.engine.fit.SweepFits}): least squares in log space for the median curve, quantile regression
 * (Koenker &amp; Bassett 1978, as a linear program for Commons Math's {@code SimplexSolver}) for the P95 curve, and
 * beside the parametric interval a bootstrap interval of α that resamples requests within each context length
 * ({@link org.latencylab.engine.fit.PowerLawBootstrap}, seeded and so reproducible).
 */
package org.latencylab.engine.fit;
