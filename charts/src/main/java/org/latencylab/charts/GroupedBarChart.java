package org.latencylab.charts;

import java.util.List;
import java.util.Objects;

import javafx.geometry.VPos;
import javafx.scene.text.TextAlignment;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.spi.DoubleDataSet;

import org.latencylab.charts.data.BarSeries;
import org.latencylab.charts.data.Quantity;

/**
 * Bars grouped by category, one bar per series inside each group, with the value written on top of each bar:
 * e.g. first-screen latency of SSE vs gRPC streaming (series) per network profile (categories).
 *
 * <p>Categories sit at x = 0, 1, 2, …; inside a group the m bars are placed side by side across 80 % of the
 * category width, each 90 % of its slot wide (see {@link BarRenderer}).
 *
 * <p>Threading: build and {@link #update(List, List)} on the JavaFX thread.
 */
public final class GroupedBarChart {

    private static final double GROUP_WIDTH = 0.8;

    private final XYChart chart;
    private final CategoryTickAxis xAxis;
    private final BarRenderer bars;
    private final PointLabelRenderer labels;

    /**
     * @param title    chart title, e.g. {@code "First-screen latency: SSE vs gRPC"}; not blank
     * @param category what the groups are, e.g. {@code network profile [profile]}
     * @param value    the bar value, e.g. {@code first-screen latency [ms]}
     * @param theme    light or dark
     */
    public GroupedBarChart(String title, Quantity category, Quantity value, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(theme, "theme");
        xAxis = new CategoryTickAxis(Objects.requireNonNull(category, "category"));
        xAxis.setSide(Side.BOTTOM);
        DefaultNumericAxis yAxis = ChartScaffold.axis(Objects.requireNonNull(value, "value"), Side.LEFT);
        yAxis.setForceZeroInRange(true);
        yAxis.setAutoRangePadding(0.12); // room for the value labels above the bars
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);
        chart.getGridRenderer().getVerticalMajorGrid().setVisible(false);
        bars = new BarRenderer();
        labels = new PointLabelRenderer(theme.textColor(), 0, -3, TextAlignment.CENTER, VPos.BOTTOM, false);
        chart.getRenderers().addAll(bars, labels);
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /**
     * Replaces categories and bars.
     *
     * @param categories group labels, left to right; at least one
     * @param series     bar series, each with one value per category (NaN = no bar)
     * @throws IllegalArgumentException when a series does not have one value per category
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public void update(List<String> categories, List<BarSeries> series) {
        ChartScaffold.requireFxThread("GroupedBarChart.update");
        Objects.requireNonNull(categories, "categories");
        Objects.requireNonNull(series, "series");
        if (categories.isEmpty()) {
            throw new IllegalArgumentException("a grouped bar chart needs at least one category");
        }
        for (BarSeries s : series) {
            if (s.values().length != categories.size()) {
                throw new IllegalArgumentException("bar series '" + s.name() + "' has " + s.values().length
                        + " values for " + categories.size() + " categories");
            }
        }
        int m = series.size();
        List<DataSet> barSets = bars.getDatasets();
        ChartScaffold.resize(barSets, m, i -> new DoubleDataSet("bars-" + i, 0));
        bars.setBarWidth(GROUP_WIDTH / Math.max(1, m) * 0.9);
        for (int k = 0; k < m; k++) {
            BarSeries s = series.get(k);
            double[] v = s.values();
            double offset = (k - (m - 1) / 2.0) * GROUP_WIDTH / m;
            double[] x = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                x[i] = i + offset;
            }
            DoubleDataSet ds = (DoubleDataSet) barSets.get(k);
            ds.lock().writeLockGuard(() -> {
                ds.setName(s.name());
                ds.set(x, v, x.length, true);
                ds.getDataLabelMap().clear();
                for (int i = 0; i < v.length; i++) {
                    if (Double.isFinite(v[i])) {
                        ds.addDataLabel(i, NumberLabels.value(v[i]));
                    }
                }
            });
        }
        labels.getDatasets().setAll(barSets);
        xAxis.setCategories(categories);
    }
}
