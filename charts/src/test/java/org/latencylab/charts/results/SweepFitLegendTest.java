package org.latencylab.charts.results;

import org.junit.jupiter.api.Test;
import org.latencylab.charts.data.PowerLawFit;
import org.latencylab.charts.data.Quantity;
import org.latencylab.engine.fit.PowerLawFitter;

import static org.assertj.core.api.Assertions.assertThat;

class SweepFitLegendTest {
    private static final double[] N = {1024, 4096, 16384, 65536, 1024, 4096, 16384, 65536};

    @Test
    void thePureLawIsTheP50WithItsParametricIntervalNamed() {
        double[] y = new double[N.length];
        for (int i = 0; i < N.length; i++) {
            y[i] = 1.7 * Math.pow(N[i], 0.72) * (i < 4 ? 1.02 : 0.98);
        }
        PowerLawFit f = ResultCharts.fitOf("P50", PowerLawFitter.fit(N, y, false), 1000, 70000);
        assertThat(f.name()).isEqualTo("P50");
        assertThat(f.legendText(new Quantity("TTFT", "ms"))).startsWith("fit P50: TTFT ≈ ")
                .contains("(α 95 % parametric CI ");
    }

    @Test
    void aFitWithAnOffsetIsTheMeanCurveNotTheP50() {
        double[] y = new double[N.length];
        for (int i = 0; i < N.length; i++) {
            y[i] = 14 + 0.75 * Math.pow(N[i], 0.70) * (i < 4 ? 1.02 : 0.98);
        }
        PowerLawFit f = ResultCharts.fitOf("P50", PowerLawFitter.fit(N, y, true), 1000, 70000);
        assertThat(f.name()).isEqualTo("mean");
        assertThat(f.legendText(new Quantity("TTFT", "ms"))).startsWith("fit mean: TTFT ≈ ")
                .contains(" ms + ").contains("parametric CI");
        assertThat(f.bandLegendText()).isEqualTo("95 % confidence band of the mean fit");
    }
}
