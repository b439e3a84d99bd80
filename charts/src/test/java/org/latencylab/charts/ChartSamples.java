package org.latencylab.charts;

import java.nio.file.Path;
import java.util.function.Supplier;

import javafx.scene.layout.Region;

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
}
