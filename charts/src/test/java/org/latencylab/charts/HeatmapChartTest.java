package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javafx.geometry.Bounds;
import javafx.scene.paint.Color;

import io.fair_acc.chartfx.XYChart;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.export.ChartImages;

class HeatmapChartTest {

    @TempDir
    Path dir;

    @Test
    void lowAndHighCellsGetTheirScaleColoursWithRowZeroAtTheBottom() throws Exception {
        // row 0 (bottom) is low, row 1 (top) is high; column 1 of row 1 is the maximum
        HeatGrid grid = new HeatGrid(List.of("1", "8"), List.of("2k", "32k"),
                new double[][] {{50, 80}, {900, 4000}});
        AtomicReference<HeatmapChart> heat = new AtomicReference<>();
        Path png = dir.resolve("heat.png");
        ChartImages.writePng(() -> {
            heat.set(new HeatmapChart("P99", new Quantity("Concurrency", "requests"),
                    new Quantity("Context", "tokens"), new Quantity("P99 TTFT", "ms"), false, ChartTheme.LIGHT));
            heat.get().update(grid);
            return heat.get().chart();
        }, 800, 500, 1.0, png);
        BufferedImage img = Pixels.read(png);
        XYChart chart = heat.get().chart();
        Bounds plot = Pixels.plotArea(chart);

        int low = pixelInCell(img, chart, plot, 0, 0);
        int high = pixelInCell(img, chart, plot, 1, 1);
        assertThat(Pixels.distance(low, high)).as("low and high cells differ").isGreaterThan(100);
        assertThat(Pixels.distance(low, Pixels.argb(Fx.call(() -> heat.get().colourOf(50))))).isLessThan(12);
        assertThat(Pixels.distance(high, Pixels.argb(Fx.call(() -> heat.get().colourOf(4000))))).isLessThan(12);
        assertThat(Pixels.distance(low, Pixels.argb(Color.WHITE))).isGreaterThan(30);
    }

    /** A pixel inside the cell, off its centre so that the written value is not sampled. */
    private static int pixelInCell(BufferedImage img, XYChart chart, Bounds plot, int row, int column) {
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + chart.getXAxis().getDisplayPosition(column + 0.3),
            plot.getMinY() + chart.getYAxis().getDisplayPosition(row + 0.3)});
        return Pixels.rgb(img, at[0], at[1]);
    }

    @Test
    void anOutOfMemoryCellIsTintedRedAndOtherUnmeasuredCellsGrey() throws Exception {
        HeatGrid grid = new HeatGrid(List.of("512", "2048"), List.of("8", "16"),
                new double[][] {{60, 70}, {110, Double.NaN}});
        AtomicReference<HeatmapChart> heat = new AtomicReference<>();
        Path png = dir.resolve("oom.png");
        ChartImages.writePng(() -> {
            heat.set(new HeatmapChart("tokens/s", new Quantity("prefill", "tokens"),
                    new Quantity("batch", "sequences"), new Quantity("output", "tokens/s"), false, ChartTheme.LIGHT));
            heat.get().update(grid, new String[][] {{null, null}, {null, "OOM"}});
            return heat.get().chart();
        }, 800, 500, 1.0, png);
        BufferedImage img = Pixels.read(png);
        XYChart chart = heat.get().chart();
        Bounds plot = Pixels.plotArea(chart);
        int oom = pixelInCell(img, chart, plot, 1, 1);
        int red = (oom >> 16) & 0xff;
        int green = (oom >> 8) & 0xff;
        assertThat(red - green).as("red tint of the OOM cell").isGreaterThan(25);
        assertThatThrownBy(() -> Fx.run(() -> heat.get().update(grid, new String[][] {{null}})))
                .hasMessageContaining("marks must have 2 rows");
    }

    @Test
    void logColourScaleRejectsValuesAtOrBelowZero() {
        HeatGrid grid = new HeatGrid(List.of("a"), List.of("b"), new double[][] {{0}});
        assertThatThrownBy(() -> Fx.run(() -> {
            HeatmapChart h = new HeatmapChart("t", new Quantity("x", "u"), new Quantity("y", "u"),
                    new Quantity("z", "ms"), true, ChartTheme.LIGHT);
            h.update(grid);
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("values > 0");
    }
}
