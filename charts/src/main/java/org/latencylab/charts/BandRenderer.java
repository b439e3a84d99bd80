package org.latencylab.charts;

import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;

import io.fair_acc.chartfx.renderer.spi.AbstractRendererXY;
import io.fair_acc.chartfx.ui.css.DataSetNode;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.DataSetError;

/**
 * Fills the band between {@code y − negative error} and {@code y + positive error} of each {@link DataSetError}
 * with a translucent solid colour: the data set's palette colour at {@value #OPACITY} opacity. Used for confidence
 * bands. ChartFX's own error surface fills with a hatch pattern, which reads as noise behind fitted lines at
 * export resolution, hence this renderer. Each band is listed in the legend under its data set's name with a
 * filled swatch of its fill. JavaFX thread only, like every renderer.
 */
final class BandRenderer extends AbstractRendererXY<BandRenderer> {

    static final double OPACITY = 0.22;

    BandRenderer() {
        setShowInLegend(true);
    }

    @Override
    public boolean drawLegendSymbol(DataSetNode style, javafx.scene.canvas.Canvas canvas) {
        GraphicsContext gc = canvas.getGraphicsContext2D();
        Paint line = style.getLineColor();
        Color c = line instanceof Color col ? col : Color.GRAY;
        gc.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
        gc.setFill(Color.color(c.getRed(), c.getGreen(), c.getBlue(), OPACITY));
        gc.fillRect(1, canvas.getHeight() * 0.2, canvas.getWidth() - 2, canvas.getHeight() * 0.6);
        return true;
    }

    @Override
    protected void render(GraphicsContext gc, DataSet dataSet, DataSetNode style) {
        if (!(dataSet instanceof DataSetError err) || dataSet.getDataCount() < 2) {
            return;
        }
        int n = dataSet.getDataCount();
        double[] px = new double[2 * n];
        double[] py = new double[2 * n];
        for (int i = 0; i < n; i++) {
            double x = xAxis.getDisplayPosition(dataSet.get(DataSet.DIM_X, i));
            double y = dataSet.get(DataSet.DIM_Y, i);
            px[i] = x;
            py[i] = yAxis.getDisplayPosition(y + err.getErrorPositive(DataSet.DIM_Y, i));
            px[2 * n - 1 - i] = x;
            py[2 * n - 1 - i] = yAxis.getDisplayPosition(y - err.getErrorNegative(DataSet.DIM_Y, i));
        }
        Paint line = style.getLineColor();
        Color c = line instanceof Color col ? col : Color.GRAY;
        gc.save();
        gc.setFill(Color.color(c.getRed(), c.getGreen(), c.getBlue(), OPACITY));
        gc.fillPolygon(px, py, 2 * n);
        gc.restore();
    }

    @Override
    protected BandRenderer getThis() {
        return this;
    }
}
