package org.latencylab.engine.fit;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PowerLawFitterTest {
    private static final double[] CONTEXTS = {1024, 2048, 4096, 8192, 16384, 32768};

    @Test
    void seedSweepGivesAlphaNearPointFiveSix() {
        PowerLawFit f = PowerLawFitter.fit(new double[]{2048, 8192, 32768}, new double[]{0.38, 1.21, 1.79}, false);
        assertThat(f.alpha()).isCloseTo(0.56, within(0.005));
        assertThat(f.points()).isEqualTo(3);
        assertThat(f.alphaLower()).isLessThan(f.alpha());
        assertThat(f.alphaUpper()).isGreaterThan(f.alpha());
        // 1 degree of freedom: t(0.975, 1) = 12.706
        assertThat(f.tQuantile()).isCloseTo(12.706, within(0.001));
        assertThat(f.predict(8192)).isCloseTo(Math.exp((Math.log(0.38) + Math.log(1.21) + Math.log(1.79)) / 3),
                within(1e-6)); // log-space fit passes through the geometric mean at the central log n
    }

    /** Multiplicative lognormal noise with log-sd sigma, `reps` measurements per context length. */
    private static double[][] draw(SplittableRandom rnd, double a, double alpha, double sigma, int reps) {
        double[] n = new double[CONTEXTS.length * reps];
        double[] y = new double[n.length];
        for (int i = 0; i < n.length; i++) {
            n[i] = CONTEXTS[i % CONTEXTS.length];
            y[i] = a * Math.pow(n[i], alpha) * Math.exp(sigma * rnd.nextGaussian());
        }
        return new double[][]{n, y};
    }

    @Test
    void recoversAlphaWithinWhatTheNoiseAllows() {
        double a = 2e-4;
        double alpha = 0.8;
        double sigma = 0.05;
        int reps = 10;
        double[][] d = draw(new SplittableRandom(42), a, alpha, sigma, reps);
        PowerLawFit f = PowerLawFitter.fit(d[0], d[1], false);
        // OLS theory in log space: se(alpha) = sigma / sqrt(sum (ln n - mean ln n)^2)
        double meanLn = Arrays.stream(d[0]).map(Math::log).average().orElseThrow();
        double sxx = Arrays.stream(d[0]).map(v -> Math.pow(Math.log(v) - meanLn, 2)).sum();
        double se = sigma / Math.sqrt(sxx);
        assertThat(f.alpha()).isCloseTo(alpha, within(4 * se));
        assertThat(f.alphaStdError()).isCloseTo(se, within(0.3 * se));
        assertThat(f.residualStdError()).isCloseTo(sigma, within(0.3 * sigma));
        assertThat(f.alphaLower()).isLessThanOrEqualTo(alpha);
        assertThat(f.alphaUpper()).isGreaterThanOrEqualTo(alpha);
        assertThat(f.a()).isCloseTo(a, within(0.5 * a));
        assertThat(f.rSquared()).isGreaterThan(0.95);
    }

    @Test
    void alphaIntervalCoversTheTrueValueInAboutNinetyFivePercentOfFits() {
        SplittableRandom rnd = new SplittableRandom(7);
        int fits = 300;
        int covered = 0;
        for (int k = 0; k < fits; k++) {
            double[][] d = draw(rnd, 1e-3, 0.6, 0.1, 2);
            PowerLawFit f = PowerLawFitter.fit(d[0], d[1], false);
            if (f.alphaLower() <= 0.6 && 0.6 <= f.alphaUpper()) {
                covered++;
            }
        }
        assertThat(covered / (double) fits).isBetween(0.91, 0.99);
    }

    @Test
    void offsetModelRecoversItsParameters() {
        // y = 0.05 s + 3e-7 s * n^1.4 with 2 ms additive noise
        SplittableRandom rnd = new SplittableRandom(3);
        int reps = 5;
        double[] n = new double[CONTEXTS.length * reps];
        double[] y = new double[n.length];
        for (int i = 0; i < n.length; i++) {
            n[i] = CONTEXTS[i % CONTEXTS.length];
            y[i] = 0.05 + 3e-7 * Math.pow(n[i], 1.4) + 0.002 * rnd.nextGaussian();
        }
        PowerLawFit f = PowerLawFitter.fit(n, y, true);
        assertThat(f.withOffset()).isTrue();
        assertThat(f.alpha()).isCloseTo(1.4, within(0.02));
        assertThat(f.alphaLower()).isLessThanOrEqualTo(1.4);
        assertThat(f.alphaUpper()).isGreaterThanOrEqualTo(1.4);
        assertThat(f.c()).isCloseTo(0.05, within(0.01));
        assertThat(f.residualStdError()).isCloseTo(0.002, within(0.001));
        assertThat(f.rSquared()).isGreaterThan(0.999);
        PowerLawFit.Band b = f.bandAt(65536);
        assertThat(b.lower()).isLessThan(b.value()).isLessThan(b.upper());
        assertThat(b.value()).isCloseTo(f.predict(65536), within(1e-12));
    }

    @Test
    void bandsWidenWhenExtrapolating() {
        double[][] d = draw(new SplittableRandom(5), 1e-3, 0.7, 0.08, 4);
        PowerLawFit f = PowerLawFitter.fit(d[0], d[1], false);
        PowerLawFit.Band mid = f.bandAt(6000);
        PowerLawFit.Band far = f.bandAt(262144);
        assertThat(mid.lower()).isLessThan(mid.value());
        assertThat(mid.upper()).isGreaterThan(mid.value());
        assertThat(far.upper() / far.lower()).isGreaterThan(mid.upper() / mid.lower());
        PowerLawFit.Band pred = f.predictionBandAt(6000);
        assertThat(pred.upper()).isGreaterThan(mid.upper());
        assertThat(pred.lower()).isLessThan(mid.lower());
        assertThatThrownBy(() -> f.predict(0)).hasMessage("n must be a positive finite number, was 0.0");
    }

    @Test
    void tooFewContextLengthsAreRejected() {
        assertThatThrownBy(() -> PowerLawFitter.fit(new double[]{2048, 8192, 8192}, new double[]{0.3, 1.2, 1.25}, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a power-law fit needs at least 3 context lengths, got 2");
        assertThatThrownBy(() -> PowerLawFitter.fit(new double[]{2048, 8192, 32768}, new double[]{0.3, 1.2, 1.8}, true))
                .hasMessage("a power-law fit with offset needs at least 4 context lengths, got 3");
        assertThatThrownBy(() -> PowerLawFitter.fit(new double[]{2048, 8192, 32768}, new double[]{0.3, 0, 1.8}, false))
                .hasMessage("y[1] must be positive and finite, was 0.0");
        assertThatThrownBy(() -> PowerLawFitter.fit(new double[]{2048, 8192}, new double[]{0.3}, false))
                .hasMessageContaining("same length");
    }
}
