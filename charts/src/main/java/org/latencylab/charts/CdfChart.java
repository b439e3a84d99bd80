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

    private final XYChart chart;
    private final YScale yScale;
    private final ErrorDataSetRenderer renderer;
    private final NinesAxis ninesAxis;

    /**
     * @param title  chart title, e.g. {@code "TTFT distribution"}; not blank
     * @param value  the measured quantity on x, e.g. {@code TTFT [ms]}
     * @param yScale probability (linear %) or percentile (nines)
     * @param logX   whether x is logarithmic (useful when values span decades)
     * @param theme  light or dark
     */
    public CdfChart(String title, Quantity value, YScale yScale, boolean logX, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(value, "value");
        this.yScale = Objects.requireNonNull(yScale, "yScale");
        Objects.requireNonNull(theme, "theme");
        DefaultNumericAxis x = ChartScaffold.axis(value, Side.BOTTOM);
        ChartScaffold.log(x, logX);
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

    /**
     * Replaces the drawn sample sets. Each set's values are sorted, turned into CDF points and written under the
     * data set's lock; the chart redraws once on the next pulse. On the percentile scale the y axis grows to the
     * highest percentile any set can show (at least P99), rounded up to half a nine.
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
        for (int i = 0; i < sets.size(); i++) {
            SampleSet s = sets.get(i);
            String name = String.format(Locale.ROOT, "%s (n = %d)", s.name(), s.size());
            Series cdf = yScale == YScale.PROBABILITY ? EmpiricalCdf.steps(s) : EmpiricalCdf.hazen(s);
            double[] y = cdf.y();
            for (int k = 0; k < y.length; k++) {
                y[k] = yScale == YScale.PROBABILITY ? y[k] * 100 : NinesScale.toNines(y[k]);
            }
            if (y.length > 0) {
                maxNines = Math.max(maxNines, y[y.length - 1]);
            }
            ChartScaffold.write((DoubleDataSet) datasets.get(i), name, cdf.x(), y);
        }
        if (ninesAxis != null) {
            ninesAxis.setNinesRange(Math.ceil(maxNines * 2 - 1e-9) / 2);
        }
    }
}
