package org.latencylab.engine.load;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyPercentilesTest {
    private static final double[] PERCENTILES = {0, 1, 25, 50, 90, 95, 99, 99.9, 99.99, 100};

    /** The one-pass reading must give HdrHistogram's own answers, value for value, whatever the distribution. */
    @Test
    void onePassEqualsTheHistogramsOwnPercentilesAndMean() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 200; trial++) {
            Histogram h = new Histogram(3);
            int n = 1 + random.nextInt(trial < 20 ? 5 : 5_000); // a few tiny histograms, where rounding bites most
            for (int i = 0; i < n; i++) {
                // lognormal-ish latencies from 0.1 ms to minutes, with repeats, in ns
                long v = (long) (1e5 * Math.exp(random.nextDouble() * (trial % 2 == 0 ? 4 : 14)));
                h.recordValueWithCount(v, 1 + (random.nextInt(10) == 0 ? random.nextInt(50) : 0));
            }
            double[] mean = new double[1];
            long[] got = LatencyPercentiles.valuesAt(h, PERCENTILES, mean);
            for (int i = 0; i < PERCENTILES.length; i++) {
                assertThat(got[i]).as("trial %d, P%s of %d values", trial, PERCENTILES[i], h.getTotalCount())
                        .isEqualTo(h.getValueAtPercentile(PERCENTILES[i]));
            }
            assertThat(mean[0]).as("trial %d mean", trial).isEqualTo(h.getMean());

            LatencyPercentiles p = LatencyPercentiles.of(h);
            assertThat(p.count()).isEqualTo(h.getTotalCount());
            assertThat(p.p99Ms()).isEqualTo(h.getValueAtPercentile(99) / 1e6);
            assertThat(p.p999Ms()).isEqualTo(h.getValueAtPercentile(99.9) / 1e6);
            assertThat(p.meanMs()).isEqualTo(h.getMean() / 1e6);
            assertThat(p.maxMs()).isEqualTo(h.getMaxValue() / 1e6);
        }
    }

    @Test
    void emptyHistogramHasNoPercentilesAndUnorderedRequestsAreRefused() {
        assertThat(LatencyPercentiles.of(new Histogram(3))).isEqualTo(LatencyPercentiles.EMPTY);
        assertThat(LatencyPercentiles.valuesAt(new Histogram(3), new double[] {50, 99}, null)).containsExactly(0, 0);
        assertThatThrownBy(() -> LatencyPercentiles.valuesAt(new Histogram(3), new double[] {99, 50}, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending");
    }
}
