package org.latencylab.charts.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;
import org.latencylab.engine.telemetry.TelemetrySummary;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ServerBenchChartsTest {
    @TempDir
    Path dir;

    private static VariantResult variant(int i, String name, VariantResult.Status status, double tokS, double p99,
                                         Double memGiB, boolean optimal) {
        TelemetrySummary t = new TelemetrySummary(0, null, null, null, null, null, null, null, 1, 1, "GPU",
                memGiB == null ? null : memGiB * 1024, 24576.0, null, null, null, "test", List.of());
        List<VariantResult.Point> pts = status != VariantResult.Status.OK ? List.of()
                : List.of(new VariantResult.Point("b-v" + i, "concurrency 8", tokS, 1, 1, p99, 50.0, 200.0, null,
                "Tier-2", null, null, null, 8.0, optimal, null));
        return new VariantResult(i, name, "b-v" + i, Map.of(), null, "http://127.0.0.1:1", status, null, 0, 1.0,
                null, null, null, pts, t, null, 1, null);
    }

    @Test
    void writesTheThreeParetoProjectionsAndTheHeatmapWithItsOomCell() throws Exception {
        ServerBenchResult r = new ServerBenchResult("b", List.of(
                variant(1, "tgi batch_size=8 prefill=1024", VariantResult.Status.OK, 60, 2500, 17.5, true),
                variant(2, "tgi batch_size=8 prefill=2048", VariantResult.Status.OK, 73, 2300, 21.5, true),
                variant(3, "tgi batch_size=16 prefill=1024", VariantResult.Status.OK, 120, 800, 21.5, true),
                variant(4, "tgi batch_size=16 prefill=2048", VariantResult.Status.OOM, 0, 0, null, false)),
                List.of("output tokens/s (higher is better)", "P99 TTFT ms (lower is better)",
                        "peak GPU memory GiB (lower is better)"),
                new ServerBenchResult.Heatmap("batch_size", "prefill", List.of("8", "16"), List.of("1024", "2048"),
                        List.of(Arrays.asList(60.0, 73.0), Arrays.asList(120.0, null)),
                        List.of(Arrays.asList(17.5, 21.5), Arrays.asList(21.5, null)),
                        List.of(Arrays.asList(null, null), Arrays.asList(null, "OOM"))),
                null, List.of());
        List<Path> files = ServerBenchCharts.write(r, dir, "grid", 900, 560);
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly(
                "pareto-b-throughput-latency.png", "pareto-b-throughput-memory.png", "pareto-b-latency-memory.png",
                "batching-heatmap-b.png");
        for (Path f : files) {
            assertThat(Files.size(f)).as(f.toString()).isGreaterThan(5_000);
            assertThat(org.latencylab.engine.results.RunLayout.isRunFile(f.getFileName().toString()))
                    .as("--overwrite deletes %s", f.getFileName()).isTrue();
        }
        assertThat(ServerBenchCharts.unitOf("max_prefill_tokens")).isEqualTo("tokens");
        assertThat(ServerBenchCharts.unitOf("batch_size")).isEqualTo("sequences");
    }

    @Test
    void withoutGpuMemoryOnlyTheThroughputLatencyProjectionIsDrawn() throws Exception {
        ServerBenchResult r = new ServerBenchResult("b", List.of(
                variant(1, "a", VariantResult.Status.OK, 60, 2500, null, true),
                variant(2, "b", VariantResult.Status.OK, 30, 3000, null, false)),
                List.of("output tokens/s (higher is better)", "P99 TTFT ms (lower is better)"), null, null,
                List.of());
        assertThat(ServerBenchCharts.write(r, dir, "two", 900, 560)).extracting(p -> p.getFileName().toString())
                .containsExactly("pareto-b-throughput-latency.png");
    }
}
