package org.latencylab.charts;

import org.latencylab.engine.analysis.ParetoSet;
import java.util.List;
import java.util.Objects;

import javafx.geometry.VPos;
import javafx.scene.text.TextAlignment;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.renderer.ErrorStyle;
import io.fair_acc.chartfx.renderer.LineStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.spi.DoubleDataSet;

import org.latencylab.charts.data.LabelledPoint;
import org.latencylab.charts.data.ParetoFront;
import org.latencylab.charts.data.Quantity;

/**
 * A scatter of configurations in two objectives (e.g. throughput [tokens/s] against P99 TTFT [ms]) with a label at
 * every point, and the Pareto-front points (see {@link ParetoFront}) highlighted and joined by a line.
 *
 * <p>Threading: build and {@link #update(List)} on the JavaFX thread.
 */
public final class ParetoChart {

    private final XYChart chart;
    private final ParetoSet.Goal xGoal;
    private final ParetoSet.Goal yGoal;
    private final DoubleDataSet all = new DoubleDataSet("configurations", 0);
    private final DoubleDataSet front = new DoubleDataSet("Pareto front", 0);
    private List<LabelledPoint> lastFront = List.of();
    private final DefaultNumericAxis xAxis;
    private final DefaultNumericAxis yAxis;

    /**
     * @param title chart title, e.g. {@code "vLLM config grid: throughput vs P99 TTFT"}; not blank
     * @param x     x objective, e.g. {@code throughput [tokens/s]}
     * @param xGoal whether larger or smaller x is better
     * @param y     y objective, e.g. {@code P99 TTFT [ms]}
     * @param yGoal whether larger or smaller y is better
     * @param theme light or dark
     */
    public ParetoChart(String title, Quantity x, ParetoSet.Goal xGoal, Quantity y, ParetoSet.Goal yGoal,
                       ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(theme, "theme");
        this.xGoal = Objects.requireNonNull(xGoal, "xGoal");
        this.yGoal = Objects.requireNonNull(yGoal, "yGoal");
        xAxis = ChartScaffold.axis(Objects.requireNonNull(x, "x"), Side.BOTTOM);
        yAxis = ChartScaffold.axis(Objects.requireNonNull(y, "y"), Side.LEFT);
        xAxis.setAutoRangePadding(0.08);
        yAxis.setAutoRangePadding(0.08);
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);

        ErrorDataSetRenderer scatter = new MarkerLegendRenderer();
        scatter.setErrorStyle(ErrorStyle.NONE);
        scatter.setPolyLineStyle(LineStyle.NONE);
        scatter.setDrawMarker(true);
        scatter.setDashSize(0);
        scatter.setPointReduction(false);
        scatter.getDatasets().add(all);
        all.setStyle("-fx-marker-size: 4; -fx-marker-type: circle;");

        ErrorDataSetRenderer frontLine = new MarkerLegendRenderer();
        frontLine.setErrorStyle(ErrorStyle.NONE);
        frontLine.setPolyLineStyle(LineStyle.NORMAL);
        frontLine.setDrawMarker(true);
        frontLine.setDashSize(0);
        frontLine.setPointReduction(false);
        frontLine.getDatasets().add(front);
        front.setStyle("-fx-marker-size: 6; -fx-marker-type: diamond; -fx-line-width: 2;");

        PointLabelRenderer labels = new PointLabelRenderer(theme.textColor(), 8, 0, TextAlignment.LEFT,
                VPos.CENTER, false);
        labels.getDatasets().add(all);
        chart.getRenderers().addAll(scatter, frontLine, labels);
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /** @return the points of the front drawn by the last {@link #update(List)}, sorted by x */
    public List<LabelledPoint> front() {
        return lastFront;
    }

    /**
     * Replaces the points and recomputes the front.
     *
     * @param points the configurations, each with a label
     * @throws IllegalStateException when not called on the JavaFX thread
     */
    public void update(List<LabelledPoint> points) {
        ChartScaffold.requireFxThread("ParetoChart.update");
        Objects.requireNonNull(points, "points");
        lastFront = ParetoFront.of(points, xGoal, yGoal);
        // ChartFX renderers assume data sorted by x (they clip by binary search), so sort the scatter too.
        List<LabelledPoint> sorted = points.stream()
                .sorted(java.util.Comparator.comparingDouble(LabelledPoint::x)).toList();
        double[] ax = sorted.stream().mapToDouble(LabelledPoint::x).toArray();
        double[] ay = sorted.stream().mapToDouble(LabelledPoint::y).toArray();
        all.lock().writeLockGuard(() -> {
            all.set(ax, ay, ax.length, true);
            all.getDataLabelMap().clear();
            for (int i = 0; i < sorted.size(); i++) {
                all.addDataLabel(i, sorted.get(i).label());
            }
        });
        double[] fx = lastFront.stream().mapToDouble(LabelledPoint::x).toArray();
        double[] fy = lastFront.stream().mapToDouble(LabelledPoint::y).toArray();
        ChartScaffold.write(front, "Pareto front (" + lastFront.size() + " of " + points.size() + ")", fx, fy);
        if (ax.length > 0) {
            // fixed ranges with a margin on every side, and more on the right where the labels go: auto-ranging
            // puts extreme points on the plot's edge and cuts their labels
            double[] xr = range(ax);
            double[] yr = range(ay);
            double xs = xr[1] - xr[0];
            double ys = yr[1] - yr[0];
            xAxis.setAutoRanging(false);
            yAxis.setAutoRanging(false);
            xAxis.set(xr[0] - 0.08 * xs, xr[1] + 0.4 * xs);
            yAxis.set(yr[0] - 0.08 * ys, yr[1] + 0.08 * ys);
        }
    }

    /** @return {min, max} of the values, widened around a single value so that the range is never empty */
    private static double[] range(double[] v) {
        double min = java.util.Arrays.stream(v).min().orElse(0);
        double max = java.util.Arrays.stream(v).max().orElse(1);
        if (max - min < 1e-9 * Math.max(1, Math.abs(max))) {
            double pad = Math.max(1e-9, Math.abs(max) * 0.1);
            return new double[] {min - pad, max + pad};
        }
        return new double[] {min, max};
    }
}
