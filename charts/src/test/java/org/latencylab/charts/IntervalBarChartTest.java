package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.fair_acc.chartfx.XYChart;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.latencylab.charts.data.IntervalBarSeries;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.export.ChartImages;

/** The interval bar chart rendered headless: bars where the values are, whiskers where the intervals are. */
class IntervalBarChartTest {
    @TempDir
    Path dir;

    @Test
    void whiskersReachFromTheLowerToTheUpperBound() throws Exception {
        AtomicReference<XYChart> chart = new AtomicReference<>();
        AtomicReference<double[]> px = new AtomicReference<>();
        Path png = dir.resolve("interval-bars.png");
        ChartImages.writePng(() -> {
            IntervalBarChart c = new IntervalBarChart("P95 TTFT per endpoint", Quantity.of("endpoint", "rank"),
                    Quantity.of("TTFT", "ms"), ChartTheme.LIGHT);
            c.update(List.of("a", "b"), List.of(new IntervalBarSeries("P95 TTFT", new double[]{100, 150},
                    new double[]{80, 140}, new double[]{190, 160})));
            chart.set(c.chart());
            return c.chart();
        }, 800, 500, 1.0, png);
        BufferedImage img = Pixels.read(png);
        XYChart c = chart.get();
        javafx.geometry.Bounds plot = Pixels.plotArea(c);
        // the canvas positions of category "a" (x = 0) and of the values 120 ms (inside the bar) and 170 ms (above
        // the bar, inside the whisker) and 200 ms (above the whisker), read from the axes on the FX thread
        px.set(Fx.call(() -> new double[]{
                c.getXAxis().getDisplayPosition(0), c.getYAxis().getDisplayPosition(120),
                c.getYAxis().getDisplayPosition(170), c.getYAxis().getDisplayPosition(200)}));
        double x = plot.getMinX() + px.get()[0];
        double inBar = plot.getMinY() + px.get()[1];
        double inWhisker = plot.getMinY() + px.get()[2];
        double above = plot.getMinY() + px.get()[3];
        int blue = Pixels.argb(javafx.scene.paint.Color.web("#1f77b4"));
        assertThat(Pixels.distance(Pixels.rgb(img, x - 20, inBar), blue)).as("bar fill").isLessThan(40);
        // the whisker is a 1.5 px line in the text colour at the bar's centre, from 80 to 190 ms
        int dark = 0;
        for (int dx = -2; dx <= 2; dx++) {
            if (Pixels.distance(Pixels.rgb(img, x + dx, inWhisker), Pixels.argb(ChartTheme.LIGHT.textColor())) < 120) {
                dark++;
            }
        }
        assertThat(dark).as("whisker pixels at 170 ms").isGreaterThan(0);
        assertThat(Pixels.distance(Pixels.rgb(img, x, above), Pixels.argb(ChartTheme.LIGHT.backgroundColor())))
                .as("nothing above the upper bound").isLessThan(60);
    }

    @Test
    void boundsOnTheWrongSideAreRejected() {
        assertThatThrownBy(() -> new IntervalBarSeries("s", new double[]{100}, new double[]{120}, new double[]{130}))
                .hasMessageContaining("lower <= value <= upper");
    }
}
