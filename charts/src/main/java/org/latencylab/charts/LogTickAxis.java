package org.latencylab.charts;

import io.fair_acc.chartfx.axes.spi.AxisRange;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.dataset.spi.fastutil.DoubleArrayList;

/**
 * The numeric axis of LatencyLab charts. Linear, it is ChartFX's {@link DefaultNumericAxis}. Logarithmic, it labels
 * 1, 2 and 5 of every decade when its range spans at most {@value #DENSE_DECADES} decades (ChartFX labels only powers
 * of ten, which leaves a 12–450 ms latency axis with the single label 100 and a 2k–131k token axis with two), and
 * powers of ten only beyond that; minor ticks mark the other integer multiples of each decade. Not thread-safe: the
 * JavaFX thread, like every node.
 */
final class LogTickAxis extends DefaultNumericAxis {
    /** Widest log range, in decades, whose 1-2-5 values are all labelled. */
    static final double DENSE_DECADES = 3;
    /** Beyond this many decades (or an infinite bound) ChartFX's own ticks are used: no loop over absurd ranges. */
    static final double MAX_DECADES = 60;
    private static final int[] DENSE = {1, 2, 5};
    private static final int[] SPARSE = {1};

    /**
     * @param name axis title, e.g. {@code latency}
     * @param unit unit shown in brackets, e.g. {@code ms}
     */
    LogTickAxis(String name, String unit) {
        super(name, unit);
    }

    @Override
    protected void calculateMajorTickValues(AxisRange range, DoubleArrayList ticks) {
        double lo = Math.min(range.getLowerBound(), range.getUpperBound());
        double hi = Math.max(range.getLowerBound(), range.getUpperBound());
        if (!isLogAxis() || !ownTicks(lo, hi)) {
            super.calculateMajorTickValues(range, ticks);
            return;
        }
        ticks.clear();
        addMultiples(lo, hi, Math.log10(hi / lo) <= DENSE_DECADES ? DENSE : SPARSE, true, ticks);
    }

    @Override
    protected void calculateMinorTickValues(DoubleArrayList ticks) {
        double lo = Math.min(getMin(), getMax());
        double hi = Math.max(getMin(), getMax());
        if (!isLogAxis() || !ownTicks(lo, hi)) {
            super.calculateMinorTickValues(ticks);
            return;
        }
        ticks.clear();
        if (getMinorTickCount() <= 0) {
            return;
        }
        addMultiples(lo, hi, Math.log10(hi / lo) <= DENSE_DECADES ? DENSE : SPARSE, false, ticks);
    }

    private static boolean ownTicks(double lo, double hi) {
        return lo > 0 && hi > lo && Double.isFinite(hi) && Math.log10(hi / lo) <= MAX_DECADES;
    }

    /**
     * Adds k·10^e inside [lo, hi]: the multiples in {@code major} when {@code wantMajor}, else the other k of 1–9.
     */
    private static void addMultiples(double lo, double hi, int[] major, boolean wantMajor, DoubleArrayList ticks) {
        int first = (int) Math.floor(Math.log10(lo));
        int last = (int) Math.ceil(Math.log10(hi));
        for (int e = first; e <= last; e++) {
            double decade = Math.pow(10, e);
            for (int k = 1; k <= 9; k++) {
                boolean isMajor = false;
                for (int m : major) {
                    isMajor |= m == k;
                }
                double v = k * decade;
                if (isMajor == wantMajor && v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) {
                    ticks.add(v);
                }
            }
        }
    }
}
