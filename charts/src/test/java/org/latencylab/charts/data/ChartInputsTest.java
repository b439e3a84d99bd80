package org.latencylab.charts.data;

import org.latencylab.engine.analysis.ParetoSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The JavaFX-free inputs: checks, CDF points, nines scale, Pareto front, fit legend. */
class ChartInputsTest {

    @Test
    void quantityLabelCarriesTheUnitAndAUnitIsRequired() {
        assertThat(new Quantity("TTFT", "ms").label()).isEqualTo("TTFT [ms]");
        assertThatThrownBy(() -> new Quantity("TTFT", " ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unit of 'TTFT' must not be blank");
    }

    @Test
    void ninesScaleMapsPercentilesToEvenlySpacedNines() {
        assertThat(NinesScale.toNines(0.9)).isCloseTo(1, within(1e-12));
        assertThat(NinesScale.toNines(0.99)).isCloseTo(2, within(1e-12));
        assertThat(NinesScale.toNines(0.999)).isCloseTo(3, within(1e-9));
        assertThat(NinesScale.toNines(0.5)).isCloseTo(Math.log10(2), within(1e-12));
        assertThat(NinesScale.fromNines(NinesScale.toNines(0.95))).isCloseTo(0.95, within(1e-12));
        assertThat(NinesScale.label(0.999)).isEqualTo("P99.9");
        assertThat(NinesScale.label(0.5)).isEqualTo("P50");
        assertThatThrownBy(() -> NinesScale.toNines(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[0, 1)");
    }

    @Test
    void empiricalCdfSortsAndUsesStepOrHazenPositions() {
        SampleSet s = new SampleSet("x", new double[] {30, 10, 20, 40});
        Series steps = EmpiricalCdf.steps(s);
        assertThat(steps.x()).containsExactly(10, 20, 30, 40);
        assertThat(steps.y()).containsExactly(0.25, 0.5, 0.75, 1.0);
        Series hazen = EmpiricalCdf.hazen(s);
        assertThat(hazen.y()).containsExactly(0.125, 0.375, 0.625, 0.875);
    }

    @Test
    void sampleSetsRejectNegativeLatencies() {
        assertThatThrownBy(() -> new SampleSet("x", new double[] {1, -2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2.0 at index 1");
    }

    @Test
    void recordsCopyTheirArrays() {
        double[] x = {1, 2};
        Series s = new Series("a", x, new double[] {3, 4});
        x[0] = 99;
        assertThat(s.x()).containsExactly(1, 2);
        s.x()[1] = 77;
        assertThat(s.x()).containsExactly(1, 2);
    }

    @Test
    void paretoFrontKeepsOnlyNonDominatedPointsSortedByX() {
        LabelledPoint a = new LabelledPoint("a", 100, 50);   // front: lowest latency
        LabelledPoint b = new LabelledPoint("b", 200, 80);   // front
        LabelledPoint c = new LabelledPoint("c", 150, 90);   // dominated by b (less throughput, more latency)
        LabelledPoint d = new LabelledPoint("d", 300, 200);  // front: highest throughput
        LabelledPoint e = new LabelledPoint("e", 100, 60);   // dominated by a (same x, worse y)
        List<LabelledPoint> front = ParetoFront.of(List.of(c, d, a, e, b), ParetoSet.Goal.MAXIMIZE,
                ParetoSet.Goal.MINIMIZE);
        assertThat(front).containsExactly(a, b, d);
        // with both minimised only the origin-most point survives
        assertThat(ParetoFront.of(List.of(a, b, c, d, e), ParetoSet.Goal.MINIMIZE, ParetoSet.Goal.MINIMIZE))
                .containsExactly(a);
    }

    @Test
    void powerLawLegendShowsExponentIntervalAndRSquared() {
        Series curve = new Series("P50", new double[] {1000, 2000}, new double[] {30, 50});
        Series lo = new Series("P50", new double[] {1000, 2000}, new double[] {28, 47});
        Series hi = new Series("P50", new double[] {1000, 2000}, new double[] {32, 53});
        PowerLawFit f = new PowerLawFit("P50", 0.02134, 0.72, 0.69, 0.75, 0.9981, 0.95, curve, lo, hi);
        Quantity ttft = Quantity.of("TTFT", "ms");
        assertThat(f.legendText(ttft)).isEqualTo("fit P50: TTFT ≈ 0.02134 ms · n^0.720 (α 95 % CI 0.690–0.750), R² 0.9981");
        assertThat(f.bandLegendText()).isEqualTo("95 % confidence band of the P50 fit");
        assertThat(PowerLawFit.rSquaredText(0.99984)).isEqualTo("0.9998");
        assertThat(PowerLawFit.rSquaredText(0.999996)).isEqualTo("> 0.9999");
        assertThat(PowerLawFit.rSquaredText(1.0)).isEqualTo("1.0000");
        assertThat(new PowerLawFit("P95", 1.48, 0.743, 0.684, 0.764, 0.848, 0.95, curve, lo, hi, "bootstrap",
                "pseudo-R¹").legendText(ttft)).isEqualTo("fit P95: TTFT ≈ 1.48 ms · n^0.743 (α 95 % bootstrap CI"
                + " 0.684–0.764), pseudo-R¹ 0.8480");
        // a fit with an offset shows it: y = c + a · n^α
        assertThat(new PowerLawFit("mean", 0.5, 0.8, 0.7, 0.9, 0.99, 0.95, curve, lo, hi, "", "R²", 12.3)
                .legendText(ttft)).startsWith("fit mean: TTFT ≈ 12.3 ms + 0.5 ms · n^0.800 (");
        assertThatThrownBy(() -> f.legendText(Quantity.of("TTFT", ""))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PowerLawFit("P50", 1, 0.8, 0.69, 0.75, 0.9, 0.95, curve, lo, hi))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must contain α");
    }

    @Test
    void heatGridChecksItsShape() {
        assertThatThrownBy(() -> new HeatGrid(List.of("1", "2"), List.of("a"), new double[][] {{1}}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row 0 of the heat grid must have 2");
        assertThatThrownBy(() -> new HeatGrid(List.of("1"), List.of("a"), new double[][] {{Double.NaN}}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no measured cell");
        HeatGrid g = new HeatGrid(List.of("1", "2"), List.of("a"), new double[][] {{Double.NaN, 7}});
        assertThat(g.min()).isEqualTo(7);
        assertThat(g.max()).isEqualTo(7);
    }

    @Test
    void tierBandNeedsANonEmptyRange() {
        assertThatThrownBy(() -> new TierBand("Tier-1", 300, 80)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lower < upper");
    }
}
