package org.latencylab.charts;

import org.latencylab.engine.analysis.ParetoSet;
import java.nio.file.Path;
import java.util.function.Supplier;

import javafx.scene.layout.Region;

import java.util.List;

import org.latencylab.charts.data.ParetoFront;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.export.ChartImages;
import org.latencylab.charts.export.ChartExportException;

/**
 * Renders one sample PNG per chart type with realistic data into {@code charts/target/samples/}. Run it with
 * {@code mvn -pl charts -am test -Dtest=ChartSamplesTest} or as a plain main on the test class path.
 */
public final class ChartSamples {

    static final int WIDTH = 1000;
    static final int HEIGHT = 640;

    private ChartSamples() {
    }

    public static void main(String[] args) throws ChartExportException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/samples");
        writeAll(dir);
    }

    static void writeAll(Path dir) throws ChartExportException {
        write(dir, "cdf-probability.png", () -> cdf(CdfChart.YScale.PROBABILITY, ChartTheme.LIGHT));
        write(dir, "cdf-percentile.png", () -> cdf(CdfChart.YScale.PERCENTILE, ChartTheme.LIGHT));
        write(dir, "cdf-percentile-dark.png", () -> cdf(CdfChart.YScale.PERCENTILE, ChartTheme.DARK));
        write(dir, "power-law.png", () -> powerLaw(ChartTheme.LIGHT));
        write(dir, "power-law-dark.png", () -> powerLaw(ChartTheme.DARK));
        write(dir, "time-series.png", () -> timeSeries(ChartTheme.LIGHT));
        write(dir, "time-series-dark.png", () -> timeSeries(ChartTheme.DARK));
        write(dir, "heatmap.png", () -> heatmap(ChartTheme.LIGHT));
        write(dir, "heatmap-dark.png", () -> heatmap(ChartTheme.DARK));
        write(dir, "grouped-bars.png", () -> bars(ChartTheme.LIGHT));
        write(dir, "grouped-bars-dark.png", () -> bars(ChartTheme.DARK));
        write(dir, "pareto.png", () -> pareto(ChartTheme.LIGHT));
        write(dir, "pareto-dark.png", () -> pareto(ChartTheme.DARK));
    }

    static void write(Path dir, String file, Supplier<Region> factory) throws ChartExportException {
        ChartImages.writePng(factory, WIDTH, HEIGHT, 1.0, dir.resolve(file));
    }

    static Region cdf(CdfChart.YScale scale, ChartTheme theme) {
        CdfChart c = new CdfChart("TTFT distribution, 8k-token prompts", new Quantity("TTFT", "ms"), scale, true,
                theme);
        c.update(SampleData.ttftSets());
        return c.chart();
    }

    static Region powerLaw(ChartTheme theme) {
        PowerLawChart c = new PowerLawChart("Cold prefill: TTFT vs context length", new Quantity("Context", "tokens"),
                new Quantity("TTFT", "ms"), theme);
        var measured = SampleData.contextSweep();
        c.update(measured, List.of(SampleData.fit(measured.get(0), "P50"), SampleData.fit(measured.get(1), "P95")));
        return c.chart();
    }

    static Region timeSeries(ChartTheme theme) {
        TimeSeriesChart c = new TimeSeriesChart("TTFT per second, closed loop, 32 users", new Quantity("TTFT", "ms"),
                false, theme);
        c.update(SampleData.latencyOverTime());
        c.setTierBands(SampleData.defaultTiers());
        return c.chart();
    }

    static Region heatmap(ChartTheme theme) {
        HeatmapChart c = new HeatmapChart("P99 TTFT by concurrency and context length",
                new Quantity("Concurrency", "requests"), new Quantity("Context", "tokens"),
                new Quantity("P99 TTFT", "ms"), true, theme);
        c.update(SampleData.heat());
        return c.chart();
    }

    static Region bars(ChartTheme theme) {
        GroupedBarChart c = new GroupedBarChart("First-screen latency (400 characters) by network profile",
                new Quantity("Network profile", "profile"), new Quantity("First-screen latency", "ms"), theme);
        c.update(SampleData.networkProfiles(), SampleData.firstScreen());
        return c.chart();
    }

    static Region pareto(ChartTheme theme) {
        ParetoChart c = new ParetoChart("vLLM config grid: throughput vs P99 TTFT",
                new Quantity("Throughput", "tokens/s"), ParetoSet.Goal.MAXIMIZE, new Quantity("P99 TTFT", "ms"),
                ParetoSet.Goal.MINIMIZE, theme);
        c.update(SampleData.configGrid());
        return c.chart();
    }
}
