package org.latencylab.engine.compare;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BootstrapDifferenceTest {
    private static long[] lognormal(int n, double medianMs, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            double z = Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
            v[i] = Math.round(medianMs * 1e6 * Math.exp(0.3 * z));
        }
        return v;
    }

    @Test
    void twoSamplesOfOneDistributionAreNotSignificantlyDifferent() {
        long[] a = lognormal(400, 100, 1);
        long[] b = lognormal(400, 100, 2);
        BootstrapDifference.Interval d = BootstrapDifference.of(a, b, 95, 0.95, 2000, 7);
        assertThat(d.excludesZero()).isFalse();
        assertThat(d.lowerNanos()).isNegative();
        assertThat(d.upperNanos()).isPositive();
    }

    @Test
    void aShiftOfAQuarterIsFoundAndItsSizeIsInsideTheInterval() {
        long[] a = lognormal(400, 100, 1);
        long[] b = lognormal(400, 125, 2);
        BootstrapDifference.Interval d = BootstrapDifference.of(a, b, 95, 0.95, 2000, 7);
        assertThat(d.excludesZero()).isTrue();
        // true P95 difference: 25 ms × exp(0.3 × 1.645) ≈ 41 ms
        assertThat(d.lowerMillis()).isLessThan(41);
        assertThat(d.upperMillis()).isGreaterThan(41);
        assertThat(d.differenceMillis()).isBetween(d.lowerMillis(), d.upperMillis());
    }

    @Test
    void theSameSeedGivesTheSameInterval() {
        long[] a = lognormal(100, 100, 1);
        long[] b = lognormal(100, 110, 2);
        assertThat(BootstrapDifference.of(a, b, 95, 0.95, 500, 3)).isEqualTo(BootstrapDifference.of(a, b, 95, 0.95, 500, 3));
    }

    @Test
    void emptySamplesAreRejected() {
        assertThatThrownBy(() -> BootstrapDifference.of(new long[0], new long[]{1}, 95, 0.95, 500, 1))
                .hasMessageContaining("both samples need values");
    }
}
