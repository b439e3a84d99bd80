package org.latencylab.charts;

import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Paint;

import io.fair_acc.chartfx.renderer.spi.AbstractRendererXY;
import io.fair_acc.chartfx.ui.css.DataSetNode;
import io.fair_acc.dataset.DataSet;

/**
 * Draws each point of its data sets as a vertical bar from y = 0 to the point, centred on the point's x, with a
 * width given in x-axis units (so bars of a group keep their share of the category however wide the chart is),
 * filled in the data set's palette colour. NaN values draw no bar.
 *
 * <p>ChartFX's {@code ErrorDataSetRenderer} bar mode derives the bar width from the pixel distance of reduced
 * points, which came out 1 px wide for category data with point reduction off; a bar is simple enough to draw
 * here. JavaFX thread only, like every renderer.
 */
final class BarRenderer extends AbstractRendererXY<BarRenderer> {

    private double barWidth = 0.25;

    /** @param widthInXUnits width of one bar in x-axis units, > 0 */
    void setBarWidth(double widthInXUnits) {
        if (!(widthInXUnits > 0)) {
            throw new IllegalArgumentException("bar width must be > 0 x units, was " + widthInXUnits);
        }
        barWidth = widthInXUnits;
        invalidateCanvas();
    }

    @Override
    protected void render(GraphicsContext gc, DataSet dataSet, DataSetNode style) {
        double zero = yAxis.getDisplayPosition(Math.max(0, Math.min(yAxis.getMin(), yAxis.getMax())));
        gc.save();
        gc.setFill(style.getLineColor());
        int n = dataSet.getDataCount();
        for (int i = 0; i < n; i++) {
            double x = dataSet.get(DataSet.DIM_X, i);
            double y = dataSet.get(DataSet.DIM_Y, i);
            if (!Double.isFinite(x) || !Double.isFinite(y)) {
                continue;
            }
            double x0 = xAxis.getDisplayPosition(x - barWidth / 2);
            double x1 = xAxis.getDisplayPosition(x + barWidth / 2);
            double top = yAxis.getDisplayPosition(y);
            gc.fillRect(Math.min(x0, x1), Math.min(top, zero), Math.abs(x1 - x0), Math.abs(zero - top));
        }
        gc.restore();
    }

    @Override
    public boolean drawLegendSymbol(DataSetNode style, Canvas canvas) {
        GraphicsContext gc = canvas.getGraphicsContext2D();
        Paint fill = style.getLineColor();
        gc.save();
        gc.setFill(fill);
        gc.fillRect(3, 3, canvas.getWidth() - 6, canvas.getHeight() - 6);
        gc.restore();
        return true;
    }

    @Override
    protected BarRenderer getThis() {
        return this;
    }
}
