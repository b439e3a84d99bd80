package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
        javafx.geometry.Bounds plot = Pixels.plotArea(chart.get());
        // categories sit at x = 0 and 1 on an axis from -0.5 to 1.5: a quarter and three quarters of the plot width
        double xa = plot.getMinX() + plot.getWidth() * 0.25;
        double xb = plot.getMinX() + plot.getWidth() * 0.75;
        int blue = Pixels.argb(javafx.scene.paint.Color.web("#1f77b4"));
        int text = Pixels.argb(ChartTheme.LIGHT.textColor());
        double zero = plot.getMaxY();
        double topA = first(img, xa - 20, plot, blue);
        double topB = first(img, xb - 20, plot, blue);
        // bar heights in proportion to the values (the value axis starts at 0)
        assertThat((zero - topB) / (zero - topA)).as("bar b / bar a").isCloseTo(1.5, within(0.06));
        double[] wa = extent(img, xa, plot, text);
        double[] wb = extent(img, xb, plot, text);
        // each whisker spans its bar's top: lower bound below it, upper bound above it
        assertThat(wa[0]).isLessThan(topA);
        assertThat(wa[1]).isGreaterThan(topA);
        assertThat(wb[0]).isLessThan(topB);
        assertThat(wb[1]).isGreaterThan(topB);
        // whisker lengths in proportion to the intervals: 110 ms and 20 ms
        assertThat((wa[1] - wa[0]) / (wb[1] - wb[0])).as("whisker a / whisker b").isCloseTo(5.5, within(0.7));
        // the upper bound of a (190 ms) is where the bar of a value of 190 would end
        assertThat((zero - wa[0]) / (zero - topA)).as("upper a / value a").isCloseTo(1.9, within(0.08));
    }

    /** @return the first y from the top of the plot where the column has a pixel near {@code colour} */
    private static double first(BufferedImage img, double x, javafx.geometry.Bounds plot, int colour) {
        for (double y = plot.getMinY() + 1; y < plot.getMaxY(); y++) {
            if (Pixels.distance(Pixels.rgb(img, x, y), colour) < 40) {
                return y;
            }
        }
        throw new AssertionError("no pixel of the colour in column " + x);
    }

    /** @return the first and last y where the column (±1 px) has a pixel near {@code colour} */
    private static double[] extent(BufferedImage img, double x, javafx.geometry.Bounds plot, int colour) {
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (double y = plot.getMinY() + 1; y < plot.getMaxY() - 1; y++) {
            for (int dx = -1; dx <= 1; dx++) {
                if (Pixels.distance(Pixels.rgb(img, x + dx, y), colour) < 90) {
                    lo = Double.isNaN(lo) ? y : lo;
                    hi = y;
                }
            }
        }
        assertThat(lo).as("whisker pixels in column %s", x).isNotNaN();
        return new double[]{lo, hi};
    }

    @Test
    void boundsOnTheWrongSideAreRejected() {
        assertThatThrownBy(() -> new IntervalBarSeries("s", new double[]{100}, new double[]{120}, new double[]{130}))
                .hasMessageContaining("lower <= value <= upper");
    }
}
