package org.latencylab.charts;

import javafx.util.StringConverter;

import io.fair_acc.chartfx.axes.spi.AxisRange;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.dataset.spi.fastutil.DoubleArrayList;

import org.latencylab.charts.data.NinesScale;

/**
 * A percentile axis on the nines scale ({@link NinesScale}): values on this axis are {@code −log10(1 − p)}, major
 * ticks sit at fixed percentiles (P0, P50, P90, P95, P99, P99.9, P99.99, P99.999) and are labelled as such. The
 * range is set by the chart ({@link #setNinesRange(double)}), not auto-ranged, so the ticks never move to round
 * numbers that mean nothing as percentiles.
 *
 * <p>Not thread-safe: use on the JavaFX thread like any node.
 */
public final class NinesAxis extends DefaultNumericAxis {

    /** Probabilities that get a major tick, ascending. */
    static final double[] TICK_PROBABILITIES = {0, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999};

    /**
     * @param name axis name (e.g. {@code "Percentile (nines scale)"}); the unit is {@code %}
     */
    public NinesAxis(String name) {
        super(name, "%");
        setAnimated(false);
        setAutoRanging(false);
        setAutoUnitScaling(false);
        setMinorTickCount(0);
        setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number nines) {
                return label(nines.doubleValue());
            }

            @Override
            public Number fromString(String string) {
                throw new UnsupportedOperationException("nines tick labels are not parsed");
            }
        });
        setNinesRange(3);
    }

    /**
     * Shows the axis from P0 to {@code maxNines} (e.g. 3 = P99.9).
     *
     * @param maxNines top of the axis on the nines scale, > 0
     */
    public void setNinesRange(double maxNines) {
        if (!(maxNines > 0) || Double.isInfinite(maxNines)) {
            throw new IllegalArgumentException("maxNines must be finite and > 0, was " + maxNines);
        }
        set(0, maxNines);
        setTickUnit(1);
    }

    @Override
    protected void calculateMajorTickValues(AxisRange range, DoubleArrayList ticks) {
        ticks.clear();
        double min = Math.min(range.getMin(), range.getMax());
        double max = Math.max(range.getMin(), range.getMax());
        for (double p : TICK_PROBABILITIES) {
            double n = NinesScale.toNines(p);
            if (n >= min - 1e-9 && n <= max + 1e-9) {
                ticks.add(n);
            }
        }
    }

    @Override
    protected void calculateMinorTickValues(DoubleArrayList ticks) {
        ticks.clear();
    }

    static String label(double nines) {
        double p = NinesScale.fromNines(Math.max(0, nines));
        // snap to a tick probability so that 0.30103 prints as P50, not P50.0001
        for (double t : TICK_PROBABILITIES) {
            if (Math.abs(NinesScale.toNines(t) - nines) < 1e-6) {
                p = t;
            }
        }
        return NinesScale.label(Math.min(p, 0.999999));
    }
}
