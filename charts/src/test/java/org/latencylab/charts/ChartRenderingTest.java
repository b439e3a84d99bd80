package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import javafx.geometry.Bounds;
import javafx.scene.paint.Color;

import io.fair_acc.chartfx.XYChart;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.latencylab.charts.data.NinesScale;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.export.ChartImages;

/**
 * Renders every chart type headless to a real PNG, reads it back with ImageIO and checks what is in the pixels.
 */
class ChartRenderingTest {

    private static final int W = 800;
    private static final int H = 500;
    private static final Color BLUE = Color.web("#1f77b4"); // first colour of the light palette

    @TempDir
    Path dir;

    static Stream<Arguments> charts() {
        return Stream.of(
                Arguments.of("cdf-probability", (Function<ChartTheme, XYChart>) t ->
                        (XYChart) ChartSamples.cdf(CdfChart.YScale.PROBABILITY, t)),
                Arguments.of("cdf-percentile", (Function<ChartTheme, XYChart>) t ->
                        (XYChart) ChartSamples.cdf(CdfChart.YScale.PERCENTILE, t)),
                Arguments.of("power-law", (Function<ChartTheme, XYChart>) t -> (XYChart) ChartSamples.powerLaw(t)),
                Arguments.of("time-series", (Function<ChartTheme, XYChart>) t ->
                        (XYChart) ChartSamples.timeSeries(t)),
                Arguments.of("heatmap", (Function<ChartTheme, XYChart>) t -> (XYChart) ChartSamples.heatmap(t)),
                Arguments.of("grouped-bars", (Function<ChartTheme, XYChart>) t -> (XYChart) ChartSamples.bars(t)),
                Arguments.of("pareto", (Function<ChartTheme, XYChart>) t -> (XYChart) ChartSamples.pareto(t)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("charts")
    void rendersRequestedSizeWithAFilledPlotAreaInBothThemes(String name, Function<ChartTheme, XYChart> make)
            throws Exception {
        for (ChartTheme theme : ChartTheme.values()) {
            AtomicReference<XYChart> chart = new AtomicReference<>();
            Path png = dir.resolve(name + "-" + theme + ".png");
            ChartImages.writePng(() -> {
                chart.set(make.apply(theme));
                return chart.get();
            }, W, H, 1.0, png);

            BufferedImage img = Pixels.read(png);
            assertThat(img.getWidth()).isEqualTo(W);
            assertThat(img.getHeight()).isEqualTo(H);
            Bounds plot = Pixels.plotArea(chart.get());
            assertThat(plot.getWidth()).as("plot width").isGreaterThan(W * 0.6);
            assertThat(plot.getHeight()).as("plot height").isGreaterThan(H * 0.5);
            int drawn = Pixels.countDifferent(img, plot, theme.backgroundColor(), 40);
            assertThat(drawn).as("pixels drawn in the plot area of %s (%s)", name, theme)
                    .isGreaterThan((int) (plot.getWidth() * plot.getHeight() * 0.004));
            // the title is drawn above the plot, in the theme's text colour
            Bounds above = new javafx.geometry.BoundingBox(0, 0, W, plot.getMinY());
            assertThat(Pixels.countNear(img, above, theme.textColor(), 60)).as("title pixels").isGreaterThan(50);
        }
    }

    @Test
    void percentileAxisPutsP99AboveP90AndLabelsTheNines() throws Exception {
        AtomicReference<CdfChart> cdf = new AtomicReference<>();
        ChartImages.writePng(() -> {
            cdf.set(new CdfChart("TTFT", new Quantity("TTFT", "ms"), CdfChart.YScale.PERCENTILE, false,
                    ChartTheme.LIGHT));
            cdf.get().update(List.of(SampleData.lognormal("one", 5000, 200, 0.3, 0, 5)));
            return cdf.get().chart();
        }, W, H, 1.0, dir.resolve("nines.png"));

        NinesAxis y = (NinesAxis) cdf.get().chart().getYAxis();
        double p90 = Fx.call(() -> y.getDisplayPosition(NinesScale.toNines(0.90)));
        double p99 = Fx.call(() -> y.getDisplayPosition(NinesScale.toNines(0.99)));
        double p999 = Fx.call(() -> y.getDisplayPosition(NinesScale.toNines(0.999)));
        double p50 = Fx.call(() -> y.getDisplayPosition(NinesScale.toNines(0.50)));
        // screen y grows downwards: higher percentiles are drawn higher up, and the nines are evenly spaced
        assertThat(p99).isLessThan(p90);
        assertThat(p90).isLessThan(p50);
        assertThat(p90 - p99).isCloseTo(p99 - p999, org.assertj.core.data.Offset.offset(1.0));
        List<String> labels = Fx.call(() -> y.getTickMarks().stream().map(t -> t.getText()).toList());
        assertThat(labels).contains("P50", "P90", "P99", "P99.9");
    }

    @Test
    void cdfLineIsDrawnInThePaletteColourAndCrossesP50AtTheMedian() throws Exception {
        AtomicReference<CdfChart> cdf = new AtomicReference<>();
        double[] values = new double[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = 100 + i * 0.4; // uniform 100..500 ms, median 300
        }
        Path png = dir.resolve("cdf-line.png");
        ChartImages.writePng(() -> {
            cdf.set(new CdfChart("TTFT", new Quantity("TTFT", "ms"), CdfChart.YScale.PROBABILITY, false,
                    ChartTheme.LIGHT));
            cdf.get().update(List.of(new SampleSet("uniform", values)));
            return cdf.get().chart();
        }, W, H, 1.0, png);
        BufferedImage img = Pixels.read(png);
        XYChart chart = cdf.get().chart();
        Bounds plot = Pixels.plotArea(chart);
        assertThat(Pixels.countNear(img, plot, BLUE, 50)).as("CDF line pixels").isGreaterThan(300);

        // at the median (300 ms) the line must be at 50 %: look along the row of y = 50 % for the line colour
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + chart.getXAxis().getDisplayPosition(300),
            plot.getMinY() + chart.getYAxis().getDisplayPosition(50)});
        Bounds probe = new javafx.geometry.BoundingBox(at[0] - 6, at[1] - 3, 12, 6);
        assertThat(Pixels.countNear(img, probe, BLUE, 60)).as("line pixels at (300 ms, 50 %)").isGreaterThan(0);
        Bounds elsewhere = new javafx.geometry.BoundingBox(at[0] - 6, at[1] - 100, 12, 6);
        assertThat(Pixels.countNear(img, elsewhere, BLUE, 60)).as("no line at (300 ms, ~70 %)").isZero();
    }

    @Test
    void powerLawChartShadesTheConfidenceBand() throws Exception {
        AtomicReference<XYChart> chart = new AtomicReference<>();
        Path png = dir.resolve("band.png");
        ChartImages.writePng(() -> {
            chart.set((XYChart) ChartSamples.powerLaw(ChartTheme.LIGHT));
            return chart.get();
        }, W, H, 1.0, png);
        BufferedImage img = Pixels.read(png);
        Color bandFill = Pixels.over(BLUE, BandRenderer.OPACITY, Color.WHITE);
        assertThat(Pixels.countNear(img, Pixels.plotArea(chart.get()), bandFill, 8)).as("band fill pixels")
                .isGreaterThan(200);
    }

    @Test
    void timeSeriesDrawsItsTierBands() throws Exception {
        AtomicReference<TimeSeriesChart> ts = new AtomicReference<>();
        Path png = dir.resolve("tiers.png");
        ChartImages.writePng(() -> {
            ts.set(new TimeSeriesChart("TTFT", new Quantity("TTFT", "ms"), false, ChartTheme.LIGHT));
            ts.get().update(SampleData.latencyOverTime());
            ts.get().setTierBands(SampleData.defaultTiers());
            return ts.get().chart();
        }, W, H, 1.0, png);
        assertThat(Fx.call(() -> ts.get().tierBandLabels())).containsExactly("Tier-0 ≤ 80 ms", "Tier-1 ≤ 300 ms",
                "Tier-2 ≤ 1.2 s", "Tier-3 ≤ 4.5 s");
        BufferedImage img = Pixels.read(png);
        XYChart chart = ts.get().chart();
        Bounds plot = Pixels.plotArea(chart);
        // sample the background of the Tier-2 band (300..1200 ms) at t = 20 s, where all lines are below 600 ms
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + chart.getXAxis().getDisplayPosition(20),
            plot.getMinY() + chart.getYAxis().getDisplayPosition(1000)});
        int pixel = Pixels.rgb(img, at[0], at[1]);
        assertThat(Pixels.distance(pixel, Pixels.argb(Color.WHITE))).as("tier-2 band is shaded").isGreaterThan(5);
    }

    @Test
    void timeSeriesShadesItsMarkedTimeSpans() throws Exception {
        AtomicReference<TimeSeriesChart> ts = new AtomicReference<>();
        Path png = dir.resolve("spans.png");
        ChartImages.writePng(() -> {
            ts.set(new TimeSeriesChart("TTFT", new Quantity("TTFT", "ms"), false, ChartTheme.LIGHT));
            ts.get().update(SampleData.latencyOverTime());
            ts.get().setTimeSpans(List.of(new org.latencylab.charts.data.TimeSpan("warm-up: not in the statistics",
                    0, 10)));
            return ts.get().chart();
        }, W, H, 1.0, png);
        assertThat(Fx.call(() -> ts.get().timeSpanLabels())).containsExactly("warm-up: not in the statistics");
        BufferedImage img = Pixels.read(png);
        XYChart chart = ts.get().chart();
        Bounds plot = Pixels.plotArea(chart);
        // the same height, inside the span (t = 5 s) and outside it (t = 25 s), above the lines
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + chart.getXAxis().getDisplayPosition(5),
            plot.getMinX() + chart.getXAxis().getDisplayPosition(25),
            plot.getMinY() + plot.getHeight() * 0.3});
        int inside = Pixels.rgb(img, at[0], at[2]);
        int outside = Pixels.rgb(img, at[1], at[2]);
        assertThat(Pixels.distance(inside, outside)).as("the span is shaded, the rest is not").isGreaterThan(20);
    }
}
