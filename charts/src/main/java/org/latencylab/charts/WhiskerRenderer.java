package org.latencylab.charts;

import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;

import io.fair_acc.chartfx.renderer.spi.AbstractRendererXY;
import io.fair_acc.chartfx.ui.css.DataSetNode;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.DataSetError;

/**
 * Draws each point's y interval as a whisker: a vertical line from {@code y − negative error} to {@code y +
 * positive error} with short caps, in one colour (the theme's text colour). ChartFX's own error bars take the data
 * set's palette colour, which disappears inside a bar of the same colour, hence this renderer. Not shown in the
 * legend. JavaFX thread only, like every renderer.
 */
final class WhiskerRenderer extends AbstractRendererXY<WhiskerRenderer> {

    private static final double CAP_PX = 6;
    private final Color color;

    /** @param color whisker colour */
    WhiskerRenderer(Color color) {
        this.color = color;
        setShowInLegend(false);
    }

    @Override
    protected void render(GraphicsContext gc, DataSet dataSet, DataSetNode style) {
        if (!(dataSet instanceof DataSetError err)) {
            return;
        }
        gc.save();
        gc.setStroke(color);
        gc.setLineWidth(1.5);
        for (int i = 0; i < dataSet.getDataCount(); i++) {
            double x = dataSet.get(DataSet.DIM_X, i);
            double y = dataSet.get(DataSet.DIM_Y, i);
            if (!Double.isFinite(x) || !Double.isFinite(y)) {
                continue;
            }
            double px = xAxis.getDisplayPosition(x);
            double lo = yAxis.getDisplayPosition(y - err.getErrorNegative(DataSet.DIM_Y, i));
            double hi = yAxis.getDisplayPosition(y + err.getErrorPositive(DataSet.DIM_Y, i));
            gc.strokeLine(px, lo, px, hi);
            gc.strokeLine(px - CAP_PX / 2, lo, px + CAP_PX / 2, lo);
            gc.strokeLine(px - CAP_PX / 2, hi, px + CAP_PX / 2, hi);
        }
        gc.restore();
    }

    @Override
    public boolean drawLegendSymbol(DataSetNode style, Canvas canvas) {
        return false;
    }

    @Override
    protected WhiskerRenderer getThis() {
        return this;
    }
}
