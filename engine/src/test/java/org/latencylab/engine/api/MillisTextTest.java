package org.latencylab.engine.api;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MillisTextTest {
    @Test
    void aThresholdReadsAsAMeasuredDurationFromOneHundredthOfAMillisecondUp() {
        for (double ms : new double[] {0.01, 0.5, 9.999, 12.34, 300, 3000, 4500, 12_345}) {
            assertThat(MillisText.threshold(ms)).as("%s ms", ms).isEqualTo(MillisText.ms(ms));
        }
        assertThat(MillisText.threshold(3000)).isEqualTo("3.00 s");
        assertThat(MillisText.threshold(0.01)).isEqualTo("0.01 ms");
    }

    @Test
    void aThresholdBelowOneHundredthOfAMillisecondKeepsItsSignificantDigits() {
        assertThat(MillisText.ms(0.001)).isEqualTo("0.00 ms"); // what a measured value prints
        assertThat(MillisText.threshold(0.001)).isEqualTo("0.001 ms");
        assertThat(MillisText.threshold(0.00125)).isEqualTo("0.00125 ms");
        assertThat(MillisText.threshold(0.0099)).isEqualTo("0.0099 ms");
        assertThat(MillisText.threshold(0.000123456)).isEqualTo("0.000123 ms");
        assertThat(MillisText.threshold(Double.NaN)).isEqualTo("–");
        assertThat(MillisText.threshold(-1)).isEqualTo("–");
    }
}
