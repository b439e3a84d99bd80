package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javafx.geometry.BoundingBox;
import javafx.geometry.Bounds;
import javafx.scene.paint.Color;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.Axis;
import io.fair_acc.dataset.DataSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.latencylab.charts.data.NinesScale;
import org.latencylab.charts.data.PowerLawFit;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.export.ChartImages;

/**
 * Axis ranges and labels of exported charts, read back from the rendered chart and its PNG: a CDF reaches P100
 * inside the plot, the nines axis ticks above P99, a narrow CDF stays linear, a sweep-fit axis ends near its last
 * point, a sparse time series stays one line.
 */
class ChartAxesTest {

    private static final int W = 1000;
    private static final int H = 640;
    private static final Color ORANGE = Color.web("#e8741c"); // second colour of the light palette

    @TempDir
    Path dir;

    /** 100 TTFTs around 200 ms and 100 E2Es around 300 ms whose maximum, 329 ms, is a single far point. */
    private static List<SampleSet> probe() {
        SampleSet ttft = SampleData.lognormal("TTFT", 100, 200, 0.05, 0, 1);
        double[] e2e = SampleData.lognormal("E2E", 100, 300, 0.02, 0, 2).values();
        Arrays.sort(e2e);
        e2e[e2e.length - 1] = 329;
        return List.of(ttft, new SampleSet("E2E", e2e));
    }

    private XYChart render(String file, CdfChart.YScale scale, List<SampleSet> sets, AtomicReference<CdfChart> out)
            throws Exception {
        ChartImages.writePng(() -> {
            out.set(new CdfChart("TTFT and E2E distribution", new Quantity("latency", "ms"), scale, true,
                    ChartTheme.LIGHT));
            out.get().update(sets);
            return out.get().chart();
        }, W, H, 1.0, dir.resolve(file));
        return out.get().chart();
    }

    @Test
    void percentileCdfShowsTheSampleMaximumInsideThePlotAndTicksAboveP99() throws Exception {
        AtomicReference<CdfChart> cdf = new AtomicReference<>();
        XYChart chart = render("cdf-nines.png", CdfChart.YScale.PERCENTILE, probe(), cdf);
        Axis x = chart.getXAxis();
        assertThat(Fx.call(x::getMax)).as("x axis end [ms]").isGreaterThan(329);
        assertThat(Fx.call(x::getMax)).as("no wasted decade").isLessThan(400);
        assertThat(Fx.call(x::getMin)).isLessThan(180);
        assertThat(cdf.get().logX()).as("200–329 ms is narrow: linear x").isFalse();
        List<String> ticks = Fx.call(() -> chart.getYAxis().getTickMarks().stream().map(t -> t.getText()).toList());
        assertThat(ticks).contains("P50", "P90", "P99", "P99.9");
        List<String> legend = Fx.call(() -> chart.getRenderers().get(0).getDatasets().stream()
                .map(DataSet::getName).toList());
        assertThat(legend).containsExactly("TTFT (n = 100, max " + NumberLabels.value(
                Arrays.stream(probe().get(0).values()).max().orElseThrow()) + " ms)", "E2E (n = 100, max 329 ms)");

        // the E2E curve's last point (329 ms at the Hazen position 99.5 %) is drawn inside the PNG's plot area
        BufferedImage img = Pixels.read(dir.resolve("cdf-nines.png"));
        Bounds plot = Pixels.plotArea(chart);
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + x.getDisplayPosition(329),
            plot.getMinY() + chart.getYAxis().getDisplayPosition(NinesScale.toNines(0.995))});
        assertThat(at[0]).isLessThan(plot.getMaxX() - 5);
        assertThat(Pixels.countNear(img, new BoundingBox(at[0] - 4, at[1] - 4, 8, 8), ORANGE, 60))
                .as("E2E line at its maximum").isGreaterThan(0);
    }

    @Test
    void probabilityCdfReachesOneHundredPercentAtTheMaximum() throws Exception {
        AtomicReference<CdfChart> cdf = new AtomicReference<>();
        XYChart chart = render("cdf-probability.png", CdfChart.YScale.PROBABILITY, probe(), cdf);
        assertThat(Fx.call(chart.getXAxis()::getMax)).isGreaterThan(329);
        BufferedImage img = Pixels.read(dir.resolve("cdf-probability.png"));
        Bounds plot = Pixels.plotArea(chart);
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + chart.getXAxis().getDisplayPosition(329),
            plot.getMinY() + chart.getYAxis().getDisplayPosition(100)});
        assertThat(Pixels.countNear(img, new BoundingBox(at[0] - 3, at[1] - 3, 6, 6), ORANGE, 60))
                .as("E2E staircase at (329 ms, 100 %)").isGreaterThan(0);
    }

    @Test
    void aThousandSamplesGetAP9999TickAndAWideSpreadALogAxis() throws Exception {
        AtomicReference<CdfChart> cdf = new AtomicReference<>();
        XYChart chart = render("cdf-wide.png", CdfChart.YScale.PERCENTILE,
                List.of(SampleData.lognormal("TTFT", 1000, 80, 1.0, 0.01, 3)), cdf);
        assertThat(cdf.get().logX()).isTrue();
        // a log axis of up to three decades labels 1, 2 and 5 of each decade, not only the powers of ten
        List<String> xTicks = Fx.call(() -> chart.getXAxis().getTickMarks().stream().map(t -> t.getText()).toList());
        assertThat(xTicks).contains("50", "100", "200", "500");
        List<String> ticks = Fx.call(() -> chart.getYAxis().getTickMarks().stream().map(t -> t.getText()).toList());
        assertThat(ticks).contains("P99.9", "P99.99");
        double max = Arrays.stream(SampleData.lognormal("TTFT", 1000, 80, 1.0, 0.01, 3).values()).max().orElseThrow();
        assertThat(Fx.call(chart.getXAxis()::getMax)).isGreaterThan(max).isLessThan(max * 1.5);
    }

    @Test
    void aNarrowDistributionBesideAFastOneKeepsALinearAxisSoItIsNoVerticalLine() throws Exception {
        // a load step at 1.5 req/s: TTFT 12–67 ms, E2E 380–444 ms; pooled they span 37 times
        double[] ttft = new double[28];
        double[] e2e = new double[28];
        for (int i = 0; i < 28; i++) {
            ttft[i] = 12 + 55.0 * i * i / (27 * 27);
            e2e[i] = 380 + 64.0 * i / 27;
        }
        AtomicReference<CdfChart> cdf = new AtomicReference<>();
        XYChart chart = render("cdf-two-narrow.png", CdfChart.YScale.PROBABILITY,
                List.of(new SampleSet("TTFT", ttft), new SampleSet("E2E", e2e)), cdf);
        assertThat(cdf.get().logX()).as("log would squash E2E to 4 % of the width").isFalse();
        double width = Fx.call(() -> chart.getXAxis().getDisplayPosition(444) - chart.getXAxis().getDisplayPosition(380));
        double axis = Fx.call(() -> chart.getXAxis().getDisplayPosition(chart.getXAxis().getMax())
                - chart.getXAxis().getDisplayPosition(chart.getXAxis().getMin()));
        assertThat(width / axis).as("share of the x axis E2E covers").isGreaterThan(0.1);
        // a single wide set, or sets each wide on a log scale, still get a log axis
        assertThat(CdfChart.preferLog(20, 5000, List.of(new double[] {20, 2000}, new double[] {500, 5000}))).isTrue();
        assertThat(CdfChart.preferLog(12, 444, List.of(new double[] {12, 67}, new double[] {380, 444}))).isFalse();
    }

    @Test
    void sweepFitAxisEndsNearTheLargestExtrapolatedLength() throws Exception {
        AtomicReference<PowerLawChart> c = new AtomicReference<>();
        double[] n = {2048, 8192, 32768};
        double[] p50 = {380, 1000, 2700};
        int k = 30;
        double[] cx = new double[k];
        double[] cy = new double[k];
        double[] lo = new double[k];
        double[] hi = new double[k];
        for (int i = 0; i < k; i++) {
            cx[i] = Math.exp(Math.log(2048) + (Math.log(131072) - Math.log(2048)) * i / (k - 1));
            cy[i] = 0.1528 * 10 * Math.pow(cx[i], 0.72);
            lo[i] = cy[i] * 0.97;
            hi[i] = cy[i] * 1.03;
        }
        PowerLawFit fit = new PowerLawFit("P50", 1.528, 0.72, 0.71, 0.73, 0.99984, 0.95, new Series("fit", cx, cy),
                new Series("lo", cx, lo), new Series("hi", cx, hi));
        ChartImages.writePng(() -> {
            c.set(new PowerLawChart("TTFT vs context length", new Quantity("context", "tokens"),
                    new Quantity("TTFT", "ms"), ChartTheme.LIGHT));
            c.get().update(List.of(new Series("P50 TTFT", n, p50)), List.of(fit));
            return c.get().chart();
        }, W, H, 1.0, dir.resolve("sweep.png"));
        XYChart chart = c.get().chart();
        assertThat(Fx.call(chart.getXAxis()::getMax)).isGreaterThan(131072).isLessThan(300_000);
        assertThat(Fx.call(chart.getXAxis()::getMin)).isLessThan(2048).isGreaterThan(1000);
        List<String> legend = Fx.call(() -> chart.getRenderers().stream().flatMap(r -> r.getDatasets().stream())
                .map(DataSet::getName).toList());
        // the fitted law with y's name and unit, as the console prints it
        assertThat(legend).contains("fit P50: TTFT ≈ 1.528 ms · n^0.720 (α 95 % CI 0.710–0.730), R² 0.9998",
                "95 % confidence band of the P50 fit", "P50 fit extrapolated beyond 32.8k tokens (a model, not measured)");
        // solid up to the longest measured length, dashed from there: the two parts meet at 32,768 tokens
        List<DataSet> fitted = Fx.call(() -> chart.getRenderers().stream().flatMap(r -> r.getDatasets().stream())
                .filter(d -> d.getName().startsWith("fit P50") || d.getName().startsWith("P50 fit extrapolated"))
                .toList());
        assertThat(fitted).hasSize(2);
        DataSet solid = fitted.get(0);
        DataSet dashed = fitted.get(1);
        assertThat(solid.get(DataSet.DIM_X, solid.getDataCount() - 1)).isEqualTo(32768.0);
        assertThat(dashed.get(DataSet.DIM_X, 0)).isEqualTo(32768.0);
        assertThat(dashed.get(DataSet.DIM_X, dashed.getDataCount() - 1)).isEqualTo(131072.0, within(1e-6));
        assertThat(dashed.getStyle()).contains("-fx-line-dash-array");
    }

    @Test
    void aSparseTimeSeriesIsOneLineAcrossEmptySeconds() throws Exception {
        AtomicReference<TimeSeriesChart> ts = new AtomicReference<>();
        double[] x = new double[30];
        double[] y = new double[30];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
            y[i] = i % 4 == 0 ? 100 + i : Double.NaN; // one request every 4 s
        }
        ChartImages.writePng(() -> {
            ts.set(new TimeSeriesChart("TTFT over time", new Quantity("TTFT", "ms"), false, ChartTheme.LIGHT));
            ts.get().update(List.of(new Series("P50 TTFT", x, y)));
            return ts.get().chart();
        }, W, H, 1.0, dir.resolve("sparse.png"));
        XYChart chart = ts.get().chart();
        DataSet ds = chart.getRenderers().get(0).getDatasets().get(0);
        assertThat(ds.getDataCount()).isEqualTo(8);
        // midway between the values at 4 s and 8 s (106 ms at 6 s) the connecting line is drawn
        BufferedImage img = Pixels.read(dir.resolve("sparse.png"));
        Bounds plot = Pixels.plotArea(chart);
        double[] at = Fx.call(() -> new double[] {
            plot.getMinX() + chart.getXAxis().getDisplayPosition(6),
            plot.getMinY() + chart.getYAxis().getDisplayPosition(106)});
        assertThat(Pixels.countNear(img, new BoundingBox(at[0] - 3, at[1] - 4, 6, 8), Color.web("#1f77b4"), 60))
                .as("line between 4 s and 8 s").isGreaterThan(0);
    }

    @Test
    void metricNamesReadAsTheFieldsTerms() {
        assertThat(MetricNames.metricWithStatistic("ttft_from_intended p99")).isEqualTo("P99 TTFT from intended start");
        assertThat(MetricNames.metricWithStatistic("e2e p999")).isEqualTo("P99.9 E2E");
        assertThat(MetricNames.metricWithStatistic("goodput_rps")).isEqualTo("goodput");
        assertThat(MetricNames.quantity("goodput_rps").label()).isEqualTo(new Quantity("goodput", "req/s").label());
        assertThat(MetricNames.unit("ttft")).isEqualTo("ms");
        assertThat(MetricNames.statistic("mean")).isEqualTo("mean");
        assertThat(MetricNames.title("TTFT and E2E distribution", "probe", "probe", "probe"))
                .isEqualTo("TTFT and E2E distribution — probe");
        // a step named as people say it: "load step", not "step load"
        assertThat(MetricNames.title("Latency over time", "soak", "load", "load"))
                .isEqualTo("Latency over time — soak, load step");
        assertThat(MetricNames.title("Latency over time", "soak", "burst", "load"))
                .isEqualTo("Latency over time — soak, load step “burst”");
        assertThat(MetricNames.title("Latency over time", "", "burst", null)).isEqualTo("Latency over time — step “burst”");
    }
}
