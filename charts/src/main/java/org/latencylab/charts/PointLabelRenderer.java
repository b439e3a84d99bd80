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
 * vertical marker lines), hence this one. A left-aligned label that would run past the plot's right edge or over a
 * label drawn before it moves to the point's left, or a line up or down. Used on the JavaFX thread only, like every
 * renderer.
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
        java.util.List<javafx.geometry.Rectangle2D> placed = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String label = dataSet.getDataLabel(i);
            double x = dataSet.get(DataSet.DIM_X, i);
            double y = dataSet.get(DataSet.DIM_Y, i);
            if (label == null || label.isEmpty() || !Double.isFinite(x) || !Double.isFinite(y)) {
                continue;
            }
            double px = xAxis.getDisplayPosition(x);
            double py = yAxis.getDisplayPosition(y) + dyPx;
            if (alignment != TextAlignment.LEFT) {
                gc.fillText(label, px + dxPx, py);
                continue;
            }
            // right of the point; if that runs past the plot's right edge or over a label already drawn, the
            // point's left, then a line above or below on either side; else right of the point regardless
            double w = textWidth(label);
            double h = font.getSize() + 2;
            double[][] tries = {{px + dxPx, py}, {px - dxPx - w, py}, {px + dxPx, py - h}, {px - dxPx - w, py - h},
                {px + dxPx, py + h}, {px - dxPx - w, py + h}};
            double[] at = tries[0];
            for (double[] t : tries) {
                javafx.geometry.Rectangle2D r = box(t[0], t[1], w, h);
                if (t[0] >= 0 && t[0] + w <= gc.getCanvas().getWidth()
                        && placed.stream().noneMatch(r::intersects)) {
                    at = t;
                    break;
                }
            }
            placed.add(box(at[0], at[1], w, h));
            gc.fillText(label, at[0], at[1]);
        }
        gc.restore();
    }

    /** @return the box a left-aligned label drawn at (x, y) covers, for the renderer's baseline */
    private javafx.geometry.Rectangle2D box(double x, double y, double w, double h) {
        double top = baseline == VPos.BOTTOM ? y - h : baseline == VPos.TOP ? y : y - h / 2;
        return new javafx.geometry.Rectangle2D(x, top, w, h);
    }

    private double textWidth(String label) {
        javafx.scene.text.Text t = new javafx.scene.text.Text(label);
        t.setFont(font);
        return t.getLayoutBounds().getWidth();
    }

    @Override
    protected PointLabelRenderer getThis() {
        return this;
    }
}
