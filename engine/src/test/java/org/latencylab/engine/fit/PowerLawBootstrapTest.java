package org.latencylab.engine.fit;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Quantile regression and the stratified bootstrap, on data drawn from a known power law. */
class PowerLawBootstrapTest {
    private static final double[] LENGTHS = {2048, 8192, 32768};

    /** {@code reps} requests per length, y = a · n^α · exp(σ Z). */
    private static double[][] sweep(SplittableRandom rnd, double a, double alpha, double sigma, int reps) {
        double[] n = new double[LENGTHS.length * reps];
        double[] y = new double[n.length];
        for (int i = 0; i < n.length; i++) {
            n[i] = LENGTHS[i / reps];
            y[i] = a * Math.pow(n[i], alpha) * Math.exp(sigma * rnd.nextGaussian());
        }
        return new double[][]{n, y};
    }

    @Test
    void theSameSeedGivesTheSameIntervalAndTheIntervalIsNearTheParametricOne() {
        double[][] d = sweep(new SplittableRandom(1), 1.5, 0.72, 0.05, 20);
        PowerLawFit one = PowerLawBootstrap.leastSquares(d[0], d[1], false, 1000, 9);
        PowerLawFit two = PowerLawBootstrap.leastSquares(d[0], d[1], false, 1000, 9);
        PowerLawFit other = PowerLawBootstrap.leastSquares(d[0], d[1], false, 1000, 10);
        assertThat(two.bootstrap()).isEqualTo(one.bootstrap());
        assertThat(other.bootstrap().alphaLower()).isNotEqualTo(one.bootstrap().alphaLower());
        assertThat(one.bootstrap().resamples()).isEqualTo(1000);
        assertThat(one.bootstrap().seed()).isEqualTo(9);
        assertThat(one.bootstrap().alphaLower()).isLessThan(one.alpha());
        assertThat(one.bootstrap().alphaUpper()).isGreaterThan(one.alpha());
        // both estimate the same sampling spread: within 30 % of each other
        assertThat(one.bootstrap().halfWidth()).isCloseTo(one.alphaHalfWidth(), within(0.3 * one.alphaHalfWidth()));
        // the fit itself is the plain least-squares fit of every point
        assertThat(one.alpha()).isEqualTo(PowerLawFitter.fit(d[0], d[1], false).alpha());
        assertThat(one.points()).isEqualTo(60);
        assertThat(one.estimator()).isEqualTo(PowerLawFit.Estimator.LOG_LEAST_SQUARES);
    }

    @Test
    void bothIntervalsCoverTheTrueAlphaInAboutNinetyFivePercentOfSweeps() {
        SplittableRandom rnd = new SplittableRandom(11);
        int sweeps = 400;
        int parametric = 0;
        int bootstrap = 0;
        for (int k = 0; k < sweeps; k++) {
            double[][] d = sweep(rnd, 1.5, 0.72, 0.05, 20);
            PowerLawFit f = PowerLawBootstrap.leastSquares(d[0], d[1], false, 400, k);
            parametric += f.alphaLower() <= 0.72 && 0.72 <= f.alphaUpper() ? 1 : 0;
            bootstrap += f.bootstrap().alphaLower() <= 0.72 && 0.72 <= f.bootstrap().alphaUpper() ? 1 : 0;
        }
        System.out.printf(java.util.Locale.ROOT, "coverage of alpha over %d sweeps: parametric %d, bootstrap %d%n",
                sweeps, parametric, bootstrap);
        // binomial sd at 95 % over 400 sweeps is 1.1 %: [0.92, 0.98] is about 3 sd either side
        assertThat(parametric / (double) sweeps).isBetween(0.92, 0.98);
        assertThat(bootstrap / (double) sweeps).isBetween(0.92, 0.98);
    }

    @Test
    void quantileRegressionFindsTheP95CurveAndLeavesFivePercentAbove() {
        double sigma = 0.1;
        double[][] d = sweep(new SplittableRandom(3), 1.5, 0.72, sigma, 100);
        PowerLawFit f = PowerLawFitter.fitQuantile(d[0], d[1], 0.95);
        assertThat(f.estimator()).isEqualTo(PowerLawFit.Estimator.LOG_QUANTILE);
        assertThat(f.quantile()).isEqualTo(0.95);
        // the true P95 curve is a·exp(1.645 σ)·n^α
        assertThat(f.alpha()).isCloseTo(0.72, within(0.03));
        assertThat(f.predict(8192)).isCloseTo(1.5 * Math.exp(1.6449 * sigma) * Math.pow(8192, 0.72),
                within(0.04 * f.predict(8192)));
        // defining property of a regression quantile with p = 2 parameters (Koenker & Bassett 1978, Theorem 3.4):
        // #(residuals < 0) <= τ·m <= #(residuals <= 0), up to the p points the line passes through
        int below = 0;
        int belowOrOn = 0;
        for (int i = 0; i < d[0].length; i++) {
            double r = Math.log(d[1][i]) - Math.log(f.predict(d[0][i]));
            below += r < -1e-9 ? 1 : 0;
            belowOrOn += r <= 1e-9 ? 1 : 0;
        }
        assertThat(below).isLessThanOrEqualTo(285);
        assertThat(belowOrOn).isGreaterThanOrEqualTo(285);
        assertThat(belowOrOn - below).isLessThanOrEqualTo(2);
    }

    @Test
    void quantileFitGetsItsIntervalAndCovarianceFromTheBootstrap() {
        double[][] d = sweep(new SplittableRandom(4), 1.5, 0.72, 0.05, 20);
        PowerLawFit f = PowerLawBootstrap.quantile(d[0], d[1], 0.95, 200, 5);
        assertThat(f.bootstrap()).isNotNull();
        assertThat(f.alphaLower()).isEqualTo(Math.min(f.bootstrap().alphaLower(), f.alpha()));
        assertThat(f.alphaUpper()).isEqualTo(Math.max(f.bootstrap().alphaUpper(), f.alpha()));
        assertThat(f.alphaStdError()).isPositive();
        PowerLawFit.Band band = f.bandAt(131072);
        assertThat(band.lower()).isLessThan(band.value()).isLessThan(band.upper());
        assertThat(PowerLawBootstrap.quantile(d[0], d[1], 0.95, 200, 5)).isEqualTo(f);
    }

    @Test
    void sweepFitsGiveAMedianAndAP95Curve() {
        double[][] d = sweep(new SplittableRandom(6), 1.5, 0.72, 0.05, 20);
        SweepFits.Result r = SweepFits.fit(d[0], d[1], false, 1);
        assertThat(r.center().estimator()).isEqualTo(PowerLawFit.Estimator.LOG_LEAST_SQUARES);
        assertThat(r.center().bootstrap()).isNotNull();
        assertThat(r.upper().estimator()).isEqualTo(PowerLawFit.Estimator.LOG_QUANTILE);
        assertThat(r.upper().predict(8192)).isGreaterThan(r.center().predict(8192));
        assertThat(r.center().alphaHalfWidth()).as("60 requests at σ = 0.05").isLessThan(0.02);
    }

    @Test
    void aSweepOfThreeRequestsPerLengthStillGetsBothFits() {
        double[][] d = sweep(new SplittableRandom(8), 1.5, 0.72, 0.05, 3);
        SweepFits.Result r = SweepFits.fit(d[0], d[1], false, 1);
        assertThat(r.center().alpha()).isCloseTo(0.72, within(0.1));
        assertThat(r.center().points()).isEqualTo(9);
        // nine requests: the P95 curve is either the quantile regression or the fit to the three per-length P95s
        assertThat(r.upper().predict(8192)).isGreaterThanOrEqualTo(r.center().predict(8192) * 0.99);
    }

    @Test
    void badInputIsRejected() {
        double[][] d = sweep(new SplittableRandom(6), 1.5, 0.72, 0.05, 5);
        assertThatThrownBy(() -> PowerLawFitter.fitQuantile(d[0], d[1], 1.0))
                .hasMessage("tau must be in (0, 1), was 1.0");
        assertThatThrownBy(() -> PowerLawBootstrap.leastSquares(d[0], d[1], false, 5, 1))
                .hasMessage("resamples must be >= 10, was 5");
        assertThatThrownBy(() -> new PowerLawFit.Bootstrap(0.8, 0.7, 10, 1))
                .hasMessageContaining("finite and ordered");
    }
}
