package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** Writes the sample PNGs (for people to look at) and checks that each file exists. */
class ChartSamplesTest {

    @Test
    void writesOneSamplePerChartType() throws Exception {
        Path dir = Path.of("target", "samples");
        ChartSamples.writeAll(dir);
        try (var files = Files.list(dir)) {
            assertThat(files.filter(p -> p.toString().endsWith(".png")).count()).isGreaterThanOrEqualTo(3);
        }
    }
}
