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
import io.fair_acc.dataset.spi.DoubleErrorDataSet;

import org.latencylab.charts.data.IntervalBarSeries;
import org.latencylab.charts.data.Quantity;

/**
 * Bars with interval whiskers, one group per category: e.g. the P95 TTFT of each endpoint of a ranking with its
 * 95 % confidence interval. The value is written beside each bar's top. Layout as {@link GroupedBarChart}
 * (categories at x = 0, 1, …, the series of a group side by side across 80 % of the slot).
 *
 * <p>Threading: build and {@link #update(List, List)} on the JavaFX thread.
 */
public final class IntervalBarChart {

    private static final double GROUP_WIDTH = 0.8;

    private final XYChart chart;
    private final CategoryTickAxis xAxis;
    private final BarRenderer bars;
    private final WhiskerRenderer whiskers;
    private final PointLabelRenderer labels;

    /**
     * @param title    chart title; not blank
     * @param category what the groups are, e.g. {@code endpoint [name]}
     * @param value    the bar value, e.g. {@code P95 TTFT [ms]}
     * @param theme    light or dark
     */
    public IntervalBarChart(String title, Quantity category, Quantity value, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(theme, "theme");
        xAxis = new CategoryTickAxis(Objects.requireNonNull(category, "category"));
        xAxis.setSide(Side.BOTTOM);
        DefaultNumericAxis yAxis = ChartScaffold.axis(Objects.requireNonNull(value, "value"), Side.LEFT);
        yAxis.setForceZeroInRange(true);
        yAxis.setAutoRangePadding(0.12);
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);
        chart.getGridRenderer().getVerticalMajorGrid().setVisible(false);
        bars = new BarRenderer();
        whiskers = new WhiskerRenderer(theme.textColor());
        labels = new PointLabelRenderer(theme.textColor(), 7, -3, TextAlignment.LEFT, VPos.BOTTOM, false);
        chart.getRenderers().addAll(bars, whiskers, labels);
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /**
     * Replaces categories and bars.
     *
     * @param categories group labels, left to right; at least one
     * @param series     series, each with one value and interval per category
     * @throws IllegalArgumentException when a series does not have one value per category
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public void update(List<String> categories, List<IntervalBarSeries> series) {
        ChartScaffold.requireFxThread("IntervalBarChart.update");
        if (categories.isEmpty()) {
            throw new IllegalArgumentException("an interval bar chart needs at least one category");
        }
        for (IntervalBarSeries s : series) {
            if (s.values().length != categories.size()) {
                throw new IllegalArgumentException("series '" + s.name() + "' has " + s.values().length
                        + " values for " + categories.size() + " categories");
            }
        }
        int m = series.size();
        List<DataSet> barSets = bars.getDatasets();
        ChartScaffold.resize(barSets, m, i -> new DoubleDataSet("bars-" + i, 0));
        List<DataSet> whiskerSets = whiskers.getDatasets();
        ChartScaffold.resize(whiskerSets, m, i -> new DoubleErrorDataSet("whiskers-" + i, 0));
        bars.setBarWidth(GROUP_WIDTH / Math.max(1, m) * 0.9);
        for (int k = 0; k < m; k++) {
            IntervalBarSeries s = series.get(k);
            double[] v = s.values();
            double[] lo = s.lower();
            double[] hi = s.upper();
            double offset = (k - (m - 1) / 2.0) * GROUP_WIDTH / m;
            double[] x = new double[v.length];
            double[] en = new double[v.length];
            double[] ep = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                x[i] = i + offset;
                en[i] = Double.isNaN(v[i]) ? 0 : v[i] - lo[i];
                ep[i] = Double.isNaN(v[i]) ? 0 : hi[i] - v[i];
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
            DoubleErrorDataSet es = (DoubleErrorDataSet) whiskerSets.get(k);
            es.lock().writeLockGuard(() -> {
                es.setName(s.name() + " interval");
                es.set(x, v, en, ep, x.length, true);
            });
        }
        labels.getDatasets().setAll(barSets);
        xAxis.setCategories(categories);
    }
}
