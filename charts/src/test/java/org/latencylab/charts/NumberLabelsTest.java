package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NumberLabelsTest {

    @Test
    void ticksArePlainBelowTenThousandThenKiloAndMega() {
        assertThat(NumberLabels.tick(0)).isEqualTo("0");
        assertThat(NumberLabels.tick(250)).isEqualTo("250");
        assertThat(NumberLabels.tick(2500)).isEqualTo("2500");
        assertThat(NumberLabels.tick(1.5)).isEqualTo("1.5");
        assertThat(NumberLabels.tick(32768)).isEqualTo("32.8k");
        assertThat(NumberLabels.tick(100_000)).isEqualTo("100k");
        assertThat(NumberLabels.tick(2_500_000)).isEqualTo("2.5M");
        assertThat(NumberLabels.tick(Double.NaN)).isEmpty();
    }

    @Test
    void valuesKeepIntegersInFullAndThreeSignificantDigitsBelowAThousand() {
        assertThat(NumberLabels.value(1210.4)).isEqualTo("1210");
        assertThat(NumberLabels.value(12.345)).isEqualTo("12.3");
        assertThat(NumberLabels.value(0.754)).isEqualTo("0.754");
        assertThat(NumberLabels.value(25_412)).isEqualTo("25.4k");
    }

    @Test
    void ninesAxisLabelsSnapToTheTickPercentiles() {
        assertThat(NinesAxis.label(Math.log10(2))).isEqualTo("P50");
        assertThat(NinesAxis.label(1)).isEqualTo("P90");
        assertThat(NinesAxis.label(3)).isEqualTo("P99.9");
        assertThat(NinesAxis.label(0)).isEqualTo("P0");
    }
}
