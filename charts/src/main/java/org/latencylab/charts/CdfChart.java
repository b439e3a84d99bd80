package org.latencylab.charts;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.renderer.ErrorStyle;
import io.fair_acc.chartfx.renderer.LineStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.spi.DoubleDataSet;

import org.latencylab.charts.data.EmpiricalCdf;
import org.latencylab.charts.data.NinesScale;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;

/**
 * Empirical CDF of one or more sample sets (e.g. the TTFT of several endpoints), one line per set, legend entries
 * with the sample count so a thin tail is visible as such.
 *
 * <p>Two y scales: {@link YScale#PROBABILITY} draws the textbook step ECDF against 0–100 %; {@link
 * YScale#PERCENTILE} draws Hazen plotting positions on a {@link NinesAxis}, where P90, P99 and P99.9 are evenly
 * spaced and the tail gets as much room as the body (see {@link EmpiricalCdf}).
 *
 * <p>Threading: build and {@link #update(List)} on the JavaFX thread.
 */
public final class CdfChart {

    /** The y scale of a CDF chart. */
    public enum YScale {
        /** y = cumulative probability in %, linear, drawn as a staircase */
        PROBABILITY,
        /** y = percentile on the nines scale (−log10(1 − p)), ticks P50, P90, P99, P99.9 */
        PERCENTILE
    }

    /** A log x axis is used only when the largest value is at least this many times the smallest. */
    public static final double LOG_X_MIN_SPAN = 10;

    private final XYChart chart;
    private final YScale yScale;
    private final Quantity value;
    private final boolean logAllowed;
    private final DefaultNumericAxis xAxis;
    private final ErrorDataSetRenderer renderer;
    private final NinesAxis ninesAxis;

    /**
     * @param title  chart title, e.g. {@code "TTFT distribution"}; not blank
     * @param value  the measured quantity on x, e.g. {@code TTFT [ms]}
     * @param yScale probability (linear %) or percentile (nines)
     * @param logX   whether x may be logarithmic: it is, on each {@link #update}, only when the values span at least
     *               {@link #LOG_X_MIN_SPAN} times and the log axis spreads the narrowest set at least as wide as a
     *               linear one would (a log axis squashes a narrow distribution into vertical lines)
     * @param theme  light or dark
     */
    public CdfChart(String title, Quantity value, YScale yScale, boolean logX, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        this.value = Objects.requireNonNull(value, "value");
        this.yScale = Objects.requireNonNull(yScale, "yScale");
        this.logAllowed = logX;
        Objects.requireNonNull(theme, "theme");
        DefaultNumericAxis x = ChartScaffold.axis(value, Side.BOTTOM);
        xAxis = x;
        DefaultNumericAxis y;
        if (yScale == YScale.PERCENTILE) {
            ninesAxis = new NinesAxis("Percentile (nines scale)");
            ninesAxis.setSide(Side.LEFT);
            y = ninesAxis;
        } else {
            ninesAxis = null;
            y = ChartScaffold.axis(new Quantity("Cumulative share of requests", "%"), Side.LEFT);
            y.setAutoRanging(false);
            y.set(0, 100);
            y.setTickUnit(10);
        }
        chart = ChartScaffold.chart(title, x, y, theme);
        renderer = new ErrorDataSetRenderer();
        renderer.setErrorStyle(ErrorStyle.NONE);
        renderer.setDrawMarker(false);
        renderer.setDashSize(0); // plain line as legend symbol, not an error-bar cross
        renderer.setPolyLineStyle(yScale == YScale.PROBABILITY ? LineStyle.STAIR_CASE : LineStyle.NORMAL);
        renderer.setPointReduction(true);
        chart.getRenderers().add(renderer);
    }

    /** @return the ready chart (a {@link javafx.scene.layout.Region}) */
    public XYChart chart() {
        return chart;
    }

    /** @return the y scale chosen at construction */
    public YScale yScale() {
        return yScale;
    }

    /** @return whether the x axis is logarithmic now (see {@link #LOG_X_MIN_SPAN}) */
    public boolean logX() {
        return xAxis.isLogAxis();
    }

    /**
     * Replaces the drawn sample sets. Each set's values are sorted, turned into CDF points and written under the
     * data set's lock; the chart redraws once on the next pulse. The x axis always reaches past the largest value
     * of every set, so the whole curve up to P100 is inside the plot; the legend gives each set's count and maximum.
     * On the percentile scale the y axis grows to the next whole nine above the highest percentile any set can
     * show (at least P99), so a set of 100 gets a P99.9 tick and one of 1000 a P99.99 tick. On the probability
     * scale each staircase starts at 0 % at its smallest value and ends at 100 % at its largest.
     *
     * @param sets the sample sets in legend order; values in the x quantity's unit
     * @throws IllegalStateException when not called on the JavaFX thread
     */
    public void update(List<SampleSet> sets) {
        ChartScaffold.requireFxThread("CdfChart.update");
        Objects.requireNonNull(sets, "sets");
        List<DataSet> datasets = renderer.getDatasets();
        ChartScaffold.resize(datasets, sets.size(), i -> new DoubleDataSet("cdf-" + i, 0));
        double maxNines = 2;
        List<double[]> ranges = new java.util.ArrayList<>();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < sets.size(); i++) {
            SampleSet s = sets.get(i);
            Series cdf = yScale == YScale.PROBABILITY ? EmpiricalCdf.steps(s) : EmpiricalCdf.hazen(s);
            double[] x = cdf.x();
            double[] y = cdf.y();
            for (int k = 0; k < y.length; k++) {
                y[k] = yScale == YScale.PROBABILITY ? y[k] * 100 : NinesScale.toNines(y[k]);
            }
            if (yScale == YScale.PROBABILITY && x.length > 0) { // the staircase rises from 0 % at the minimum
                x = prepend(x[0], x);
                y = prepend(0, y);
            }
            String name = String.format(Locale.ROOT, "%s (n = %d)", s.name(), s.size());
            if (x.length > 0) {
                maxNines = Math.max(maxNines, y[y.length - 1]);
                lo = Math.min(lo, x[0]);
                hi = Math.max(hi, x[x.length - 1]);
                ranges.add(new double[] {x[0], x[x.length - 1]});
                name = String.format(Locale.ROOT, "%s (n = %d, max %s %s)", s.name(), s.size(),
                        NumberLabels.value(x[x.length - 1]), value.unit());
            }
            ChartScaffold.write((DoubleDataSet) datasets.get(i), name, x, y);
        }
        if (ninesAxis != null) {
            ninesAxis.setNinesRange(Math.ceil(maxNines - 1e-9));
        }
        if (hi >= lo) {
            rangeX(lo, hi, ranges);
        }
    }

    /**
     * Whether a log x axis shows these distributions better than a linear one: only when all values together span
     * at least {@link #LOG_X_MIN_SPAN} times, and the narrowest distribution covers at least as large a share of
     * the axis on log as on linear. (TTFT at 12–67 ms beside E2E at 380–444 ms spans 37 times, but on a log axis
     * E2E would be a vertical line covering 4 % of the width; on a linear one it covers 15 %, TTFT 13 %.)
     *
     * @param lo     smallest value of all sets, &gt; 0 for log
     * @param hi     largest value of all sets
     * @param ranges {min, max} of each non-empty set
     * @return true for a log axis
     */
    static boolean preferLog(double lo, double hi, List<double[]> ranges) {
        if (!(lo > 0) || hi / lo < LOG_X_MIN_SPAN) {
            return false;
        }
        double linear = Double.POSITIVE_INFINITY;
        double log = Double.POSITIVE_INFINITY;
        for (double[] r : ranges) {
            linear = Math.min(linear, (r[1] - r[0]) / (hi - lo));
            log = Math.min(log, Math.log(r[1] / r[0]) / Math.log(hi / lo));
        }
        return log >= linear;
    }

    /** Sets the x range to hold [lo, hi] with a margin, log when allowed and it spreads the sets better. */
    private void rangeX(double lo, double hi, List<double[]> ranges) {
        boolean log = logAllowed && preferLog(lo, hi, ranges);
        ChartScaffold.log(xAxis, log);
        xAxis.setAutoRanging(false);
        if (log) {
            // a twentieth of a decade either side, so the extreme points are not drawn on the plot's border
            xAxis.set(lo / 1.12, hi * 1.12);
            return;
        }
        double span = hi - lo;
        if (span <= 0) {
            span = Math.max(Math.abs(hi) * 0.1, 1e-9);
        }
        double unit = ChartScaffold.niceStep(span / 8);
        double min = Math.floor((lo - 0.02 * span) / unit) * unit;
        if (lo >= 0 && min < 0) {
            min = 0;
        }
        double max = Math.ceil((hi + 0.02 * span) / unit) * unit;
        xAxis.set(min, max);
        xAxis.setTickUnit(unit);
    }

    private static double[] prepend(double first, double[] rest) {
        double[] out = new double[rest.length + 1];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }
}
