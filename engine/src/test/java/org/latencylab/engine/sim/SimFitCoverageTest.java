package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.fit.PowerLawBootstrap;
import org.latencylab.engine.fit.PowerLawFit;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coverage of the sweep fit's 95 % α intervals over 1,000 seeded sweeps drawn from the simulator's own prefill model
 * ({@link SimHandler#prefillDelayNanos}: the code that schedules a simulated request's first token), so that the
 * interval is checked against the profile's true α without the timing noise of a loaded machine. The same question
 * asked through loopback HTTP, with every overhead of client, simulator and machine, is
 * {@code bench.SweepFitCoverageBenchmark}.
 */
class SimFitCoverageTest {
    private static final int[] LENGTHS = {2048, 8192, 32768};
    private static final int PER_LENGTH = 20;
    /** 1,000 sweeps: coverage is then known to about ±0.7 % (binomial SD at 95 %); 100 would leave ±2.2 %. */
    private static final int SWEEPS = 1000;

    @Test
    void theAlphaIntervalsOfASweepFitCoverTheProfilesTrueAlphaInAtLeast93PercentOfSeededSweeps() {
        SimProfile base = SimProfile.builtin("llama-8b-class");
        double trueAlpha = base.prefill().alpha();
        // the quickstart's profile without its fixed cost t0, so that the pure power law fitted is the model itself
        SimProfile profile = new SimProfile("coverage", base.model(), "test", new SimProfile.Prefill(0,
                base.prefill().k(), trueAlpha), base.decode(), 1024, base.jitter(), SimProfile.PrefixCache.OFF, null,
                null);
        int parametric = 0;
        int bootstrap = 0;
        int parametricFirst100 = 0;
        int bootstrapFirst100 = 0;
        double halfWidth = 0;
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            // one simulator per sweep, seeded as SimOptions.seed(1000 + sweep) seeds it; each request splits its own
            // stream off the simulator's, as SimHandler does
            SplittableRandom simulator = new SplittableRandom(1000 + sweep);
            double[] n = new double[LENGTHS.length * PER_LENGTH];
            double[] ttft = new double[n.length];
            int i = 0;
            for (int len : LENGTHS) {
                for (int r = 0; r < PER_LENGTH; r++, i++) {
                    n[i] = len;
                    ttft[i] = SimHandler.prefillDelayNanos(profile, len, simulator.split()) / 1e9;
                }
            }
            PowerLawFit fit = PowerLawBootstrap.leastSquares(n, ttft, false, PowerLawBootstrap.LEAST_SQUARES_RESAMPLES,
                    PowerLawBootstrap.DEFAULT_SEED);
            halfWidth += fit.alphaHalfWidth() / SWEEPS;
            boolean p = fit.alphaLower() <= trueAlpha && trueAlpha <= fit.alphaUpper();
            boolean b = fit.bootstrap().alphaLower() <= trueAlpha && trueAlpha <= fit.bootstrap().alphaUpper();
            parametric += p ? 1 : 0;
            bootstrap += b ? 1 : 0;
            if (sweep < 100) {
                parametricFirst100 += p ? 1 : 0;
                bootstrapFirst100 += b ? 1 : 0;
            }
        }
        System.out.printf(Locale.ROOT, "alpha %.2f: %d of %d parametric and %d bootstrap 95 %% intervals hold it"
                        + " (of the first 100: %d and %d); mean half-width %.4f%n", trueAlpha, parametric, SWEEPS,
                bootstrap, parametricFirst100, bootstrapFirst100, halfWidth);
        assertThat(parametric).isGreaterThanOrEqualTo(SWEEPS * 93 / 100);
        assertThat(bootstrap).isGreaterThanOrEqualTo(SWEEPS * 93 / 100);
        // and the intervals are not wide enough to cover anything: 20 requests per length pin α to about ±0.01
        assertThat(halfWidth).isBetween(0.005, 0.02);
    }
}
