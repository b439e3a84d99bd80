package org.latencylab.charts;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

import io.fair_acc.chartfx.renderer.spi.AbstractRendererXY;
import io.fair_acc.chartfx.ui.css.DataSetNode;
import io.fair_acc.dataset.DataSet;

/**
 * Draws the data labels of its data sets ({@link DataSet#getDataLabel(int)}) as text next to their points: values
 * on top of bars, configuration names next to Pareto points. Points without a label are skipped. Not shown in the
 * legend (the same data sets are drawn, and named, by another renderer).
 *
 * <p>ChartFX 11.3 has no renderer that writes a text at each point (its {@code LabelledMarkerRenderer} draws
 * vertical marker lines), hence this one. Used on the JavaFX thread only, like every renderer.
 */
final class PointLabelRenderer extends AbstractRendererXY<PointLabelRenderer> {

    private final Color textColor;
    private final double dxPx;
    private final double dyPx;
    private final TextAlignment alignment;
    private final VPos baseline;
    private final Font font;

    /**
     * @param textColor colour of the labels (the theme's text colour)
     * @param dxPx      horizontal offset of a label from its point in pixels
     * @param dyPx      vertical offset in pixels (negative = above)
     * @param alignment horizontal alignment of the text at the offset point
     * @param baseline  vertical alignment of the text at the offset point
     * @param bold      whether the labels are bold
     */
    PointLabelRenderer(Color textColor, double dxPx, double dyPx, TextAlignment alignment, VPos baseline,
                       boolean bold) {
        this.textColor = textColor;
        this.dxPx = dxPx;
        this.dyPx = dyPx;
        this.alignment = alignment;
        this.baseline = baseline;
        this.font = Font.font("System", bold ? FontWeight.BOLD : FontWeight.NORMAL, 11);
        setShowInLegend(false);
    }

    @Override
    protected void render(GraphicsContext gc, DataSet dataSet, DataSetNode style) {
        if (!dataSet.hasDataLabels()) {
            return;
        }
        gc.save();
        gc.setFill(textColor);
        gc.setFont(font);
        gc.setTextAlign(alignment);
        gc.setTextBaseline(baseline);
        int n = dataSet.getDataCount();
        for (int i = 0; i < n; i++) {
            String label = dataSet.getDataLabel(i);
            double x = dataSet.get(DataSet.DIM_X, i);
            double y = dataSet.get(DataSet.DIM_Y, i);
            if (label == null || label.isEmpty() || !Double.isFinite(x) || !Double.isFinite(y)) {
                continue;
            }
            gc.fillText(label, xAxis.getDisplayPosition(x) + dxPx, yAxis.getDisplayPosition(y) + dyPx);
        }
        gc.restore();
    }

    @Override
    protected PointLabelRenderer getThis() {
        return this;
    }
}
