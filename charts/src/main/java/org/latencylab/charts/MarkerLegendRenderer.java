package org.latencylab.charts;

import io.fair_acc.chartfx.marker.Marker;
import io.fair_acc.chartfx.renderer.LineStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.chartfx.ui.css.DataSetNode;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;

/**
 * ChartFX's error-data-set renderer whose legend symbol shows what the plot shows: the data set's marker (a dot, a
 * diamond) when markers are drawn, on a line only when the renderer also draws lines. ChartFX 11.3 draws a line for
 * every data set, so a scatter of dots had a line in its legend.
 *
 * <p>Not thread-safe: used on the JavaFX thread, like every renderer.
 */
final class MarkerLegendRenderer extends ErrorDataSetRenderer {
    @Override
    public boolean drawLegendSymbol(DataSetNode style, Canvas canvas) {
        if (!isDrawMarker()) {
            return super.drawLegendSymbol(style, canvas);
        }
        GraphicsContext gc = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double y = canvas.getHeight() / 2;
        gc.save();
        if (getPolyLineStyle() != LineStyle.NONE) {
            gc.setLineWidth(style.getLineWidth());
            gc.setLineDashes(style.getLineDashes());
            gc.setStroke(style.getLineColor());
            gc.strokeLine(1, y, w - 2.0, y);
        }
        Marker marker = style.getMarkerType();
        gc.setLineDashes((double[]) null);
        gc.setFill(style.getMarkerColor());
        gc.setStroke(style.getMarkerColor());
        gc.setLineWidth(style.getMarkerLineWidth());
        marker.draw(gc, w / 2, y, Math.min(style.getMarkerSize(), canvas.getHeight() / 2 - 1));
        gc.restore();
        return true;
    }
}
