package org.latencylab.charts;

import java.util.Objects;

import io.fair_acc.chartfx.Chart;

/**
 * Light or dark look of a LatencyLab chart: background, text, grid and a colour palette (Tableau 10, with lighter
 * tints on dark) chosen so that lines, bands and labels stay readable on white paper and on a dark desktop theme.
 *
 * <p>The look lives in the stylesheet {@code latencylab-charts.css} next to this class; a theme adds it to the
 * chart and toggles the {@code ll-dark} style class. Must be applied on the JavaFX thread once the chart is in a
 * scene, or before (styles are applied with the next CSS pass).
 */
public enum ChartTheme {
    /** dark text on white */
    LIGHT,
    /** light text on near-black (#1e1f22) */
    DARK;

    static final String STYLESHEET = Objects.requireNonNull(ChartTheme.class.getResource("latencylab-charts.css"),
            "latencylab-charts.css missing from the class path").toExternalForm();
    static final String BASE_CLASS = "ll-chart";
    static final String DARK_CLASS = "ll-dark";

    /**
     * Applies this theme to a chart (replacing the other theme).
     *
     * @param chart a ChartFX chart
     */
    public void apply(Chart chart) {
        if (!chart.getStylesheets().contains(STYLESHEET)) {
            chart.getStylesheets().add(STYLESHEET);
        }
        if (!chart.getStyleClass().contains(BASE_CLASS)) {
            chart.getStyleClass().add(BASE_CLASS);
        }
        chart.getStyleClass().remove(DARK_CLASS);
        if (this == DARK) {
            chart.getStyleClass().add(DARK_CLASS);
        }
    }

    /** @return the text colour of this theme, for text a renderer draws itself */
    public javafx.scene.paint.Color textColor() {
        return this == DARK ? javafx.scene.paint.Color.web("#e6e6e6") : javafx.scene.paint.Color.web("#1a1a1a");
    }

    /** @return the background colour of this theme */
    public javafx.scene.paint.Color backgroundColor() {
        return this == DARK ? javafx.scene.paint.Color.web("#1e1f22") : javafx.scene.paint.Color.WHITE;
    }
}
