package org.latencylab.charts;

import java.util.List;
import java.util.Objects;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.ColorGradientAxis;
import io.fair_acc.chartfx.renderer.spi.AbstractRendererXY;
import io.fair_acc.chartfx.renderer.spi.utils.ColorGradient;
import io.fair_acc.chartfx.ui.css.DataSetNode;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.DataSet3D;
import io.fair_acc.dataset.spi.DoubleGridDataSet;

import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.Quantity;

/**
 * A value over two categorical axes, e.g. P99 TTFT [ms] over concurrency × context length: one coloured cell per
 * combination (viridis gradient, dark = low), the value written in each cell when it fits, a colour bar with the
 * value's name and unit on the right, and translucent grey cells for combinations that were not measured.
 *
 * <p>The data live in a ChartFX {@link DoubleGridDataSet} ({@link DataSet3D}). The cells are drawn by a small
 * renderer of this class rather than ChartFX's {@code ContourDataSetRenderer}: that renderer maps the grid onto an
 * image spanning the first to the last grid coordinate (so edge cells are half cells and cells do not centre on
 * category ticks) and it cannot write values into cells; the colour bar is ChartFX's {@link ColorGradientAxis} with
 * ChartFX's {@link ColorGradient#VIRIDIS} (perceptually uniform, readable in grey and by colour-blind readers).
 *
 * <p>Threading: build and {@link #update(HeatGrid)} on the JavaFX thread.
 */
public final class HeatmapChart {
    private String[][] marks;

    private final XYChart chart;
    private final CategoryTickAxis xAxis;
    private final CategoryTickAxis yAxis;
    private final ColorGradientAxis zAxis;
    private final CellRenderer cells;
    private final DoubleGridDataSet data;
    private final ColorGradient gradient = ColorGradient.VIRIDIS;
    private final boolean logColour;

    /**
     * @param title chart title, e.g. {@code "P99 TTFT by concurrency and context"}; not blank
     * @param x     what the columns are, e.g. {@code concurrency [requests]}
     * @param y     what the rows are, e.g. {@code context [tokens]}
     * @param z         what the colour shows, e.g. {@code P99 TTFT [ms]}
     * @param logColour whether colours follow log10 of the value (for values spanning decades, as latencies over
     *                  a load grid do; then all values must be > 0) or the value itself
     * @param theme     light or dark
     */
    public HeatmapChart(String title, Quantity x, Quantity y, Quantity z, boolean logColour, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(theme, "theme");
        xAxis = new CategoryTickAxis(Objects.requireNonNull(x, "x"));
        xAxis.setSide(Side.BOTTOM);
        yAxis = new CategoryTickAxis(Objects.requireNonNull(y, "y"));
        yAxis.setSide(Side.LEFT);
        Objects.requireNonNull(z, "z");
        zAxis = new ColorGradientAxis(z.name(), z.unit(), gradient);
        zAxis.setSide(Side.RIGHT);
        zAxis.setAnimated(false);
        zAxis.setAutoRanging(false);
        zAxis.setAutoUnitScaling(false);
        zAxis.setTickLabelFormatter(NumberLabels.INSTANCE);
        zAxis.setLogAxis(logColour);
        this.logColour = logColour;
        zAxis.setDimIndex(DataSet.DIM_Z);
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);
        chart.getAxes().add(zAxis);
        chart.setLegendVisible(false); // the colour bar is the legend
        chart.getGridRenderer().getHorizontalMajorGrid().setVisible(false);
        chart.getGridRenderer().getVerticalMajorGrid().setVisible(false);
        data = new DoubleGridDataSet("heat", 3);
        cells = new CellRenderer();
        cells.getAxes().setAll(xAxis, yAxis);
        cells.getDatasets().add(data);
        chart.getRenderers().add(cells);
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /**
     * Replaces the grid. The colour scale spans the smallest to the largest measured value.
     *
     * @param grid labels and values; values in the z quantity's unit
     * @throws IllegalArgumentException when the colour scale is logarithmic and a value is not > 0
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public void update(HeatGrid grid) {
        update(grid, null);
    }

    /**
     * Replaces the grid and says why unmeasured cells have no value: each NaN cell shows its mark (e.g.
     * {@code OOM} for a configuration that ran out of GPU memory, drawn on a red tint) instead of {@code n/a}.
     *
     * @param grid  labels and values; values in the z quantity's unit
     * @param marks {@code marks[row][column]}: text for an unmeasured cell, or null; the whole array may be null
     * @throws IllegalArgumentException when the colour scale is logarithmic and a value is not &gt; 0, or the marks'
     *                                  shape does not match the grid
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public void update(HeatGrid grid, String[][] marks) {
        ChartScaffold.requireFxThread("HeatmapChart.update");
        if (marks != null && (marks.length != grid.yLabels().size()
                || java.util.Arrays.stream(marks).anyMatch(r -> r.length != grid.xLabels().size()))) {
            throw new IllegalArgumentException("marks must have " + grid.yLabels().size() + " rows of "
                    + grid.xLabels().size() + " cells");
        }
        this.marks = marks == null ? null : java.util.Arrays.stream(marks).map(String[]::clone)
                .toArray(String[][]::new);
        Objects.requireNonNull(grid, "grid");
        int nx = grid.xLabels().size();
        int ny = grid.yLabels().size();
        double[] xs = new double[nx];
        double[] ys = new double[ny];
        for (int i = 0; i < nx; i++) {
            xs[i] = i;
        }
        for (int j = 0; j < ny; j++) {
            ys[j] = j;
        }
        double[] z = new double[nx * ny];
        for (int j = 0; j < ny; j++) {
            for (int i = 0; i < nx; i++) {
                z[j * nx + i] = grid.value(j, i);
            }
        }
        data.lock().writeLockGuard(() -> data.set(false, new double[][] {xs, ys}, z));
        xAxis.setCategories(grid.xLabels());
        yAxis.setCategories(grid.yLabels());
        double min = grid.min();
        double max = grid.max();
        if (logColour && !(min > 0)) {
            throw new IllegalArgumentException("a logarithmic colour scale needs values > 0, smallest was " + min);
        }
        if (max <= min) {
            max = min + Math.max(1e-9, Math.abs(min) * 0.01);
        }
        zAxis.set(min, max);
        data.fireInvalidated(io.fair_acc.dataset.events.ChartBits.DataSetData);
    }

    /**
     * @param value a value in the z unit
     * @return the colour a cell with this value gets under the current scale
     */
    public Color colourOf(double value) {
        double min = zAxis.getMin();
        double max = zAxis.getMax();
        if (logColour) {
            min = Math.log10(min);
            max = Math.log10(max);
            value = Math.log10(value);
        }
        double t = max > min ? (value - min) / (max - min) : 0.5;
        return gradient.getColor(Math.max(0, Math.min(1, t)));
    }

    /** Draws one rectangle per cell, centred on its category, and the cell value when it fits. */
    private final class CellRenderer extends AbstractRendererXY<CellRenderer> {

        private final Font font = Font.font("System", FontWeight.BOLD, 12);

        CellRenderer() {
            setShowInLegend(false);
        }

        @Override
        protected void render(GraphicsContext gc, DataSet dataSet, DataSetNode style) {
            if (!(dataSet instanceof DataSet3D grid) || grid.getShape().length < 2) {
                return;
            }
            int nx = grid.getShape(DataSet.DIM_X);
            int ny = grid.getShape(DataSet.DIM_Y);
            gc.save();
            gc.setFont(font);
            gc.setTextAlign(TextAlignment.CENTER);
            gc.setTextBaseline(VPos.CENTER);
            for (int j = 0; j < ny; j++) {
                double y0 = yAxis.getDisplayPosition(grid.getGrid(DataSet.DIM_Y, j) - 0.5);
                double y1 = yAxis.getDisplayPosition(grid.getGrid(DataSet.DIM_Y, j) + 0.5);
                for (int i = 0; i < nx; i++) {
                    double x0 = xAxis.getDisplayPosition(grid.getGrid(DataSet.DIM_X, i) - 0.5);
                    double x1 = xAxis.getDisplayPosition(grid.getGrid(DataSet.DIM_X, i) + 0.5);
                    double v = grid.getZ(i, j);
                    double left = Math.min(x0, x1);
                    double top = Math.min(y0, y1);
                    double w = Math.abs(x1 - x0);
                    double h = Math.abs(y1 - y0);
                    if (Double.isNaN(v)) {
                        String mark = marks != null && marks[j][i] != null ? marks[j][i] : "n/a";
                        boolean oom = mark.equalsIgnoreCase("OOM");
                        gc.setFill(oom ? Color.rgb(200, 40, 40, 0.25) : Color.gray(0.5, 0.25));
                        gc.fillRect(left + 1, top + 1, w - 2, h - 2);
                        gc.setFill(oom ? Color.rgb(170, 20, 20) : Color.gray(0.5));
                        gc.fillText(mark, left + w / 2, top + h / 2);
                        continue;
                    }
                    Color c = colourOf(v);
                    gc.setFill(c);
                    gc.fillRect(left, top, w + 0.5, h + 0.5);
                    String text = NumberLabels.value(v);
                    if (w > 7.5 * text.length() && h > 16) {
                        gc.setFill(c.getBrightness() > 0.65 && luminance(c) > 0.45 ? Color.BLACK : Color.WHITE);
                        gc.fillText(text, left + w / 2, top + h / 2);
                    }
                }
            }
            gc.restore();
        }

        private static double luminance(Color c) {
            return 0.2126 * c.getRed() + 0.7152 * c.getGreen() + 0.0722 * c.getBlue();
        }

        @Override
        protected CellRenderer getThis() {
            return this;
        }
    }
}
