package org.latencylab.app.report;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;
import org.latencylab.engine.telemetry.TelemetrySummary;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ServerBenchReportTest {
    @Test
    void printsVariantsFrontRooflineCostAndTheHeatmapWithItsOomCell() {
        TelemetrySummary t = new TelemetrySummary(10, 6.0, 0.0, 0.2, 0.3, null, 270.0, 50.0, 10, 1, "GPU",
                15.5 * 1024, 24576.0, 60.0, 100.0, 1695.0, "simulated", List.of());
        VariantResult ok = new VariantResult(1, "tgi batch_size=8 prefill=1024", "b-v1", Map.of(), "cmd", "http://x",
                VariantResult.Status.OK, null, 0, 2.0, "b-v1.server.log", null, null,
                List.of(new VariantResult.Point("b-v1", "concurrency 8", 123.4, 4, 3.5, 321.0, 55.3, 290.0, 270.0,
                        "Tier-2", 2.27, 25.5, 216.9, 6.7, true, null)), t, 1.01, 1, "g5.xlarge");
        VariantResult oom = new VariantResult(2, "tgi batch_size=8 prefill=2048", "b-v2", Map.of(), "cmd", "http://x",
                VariantResult.Status.OOM, "exited with status 3", 3, null, "b-v2.server.log", null, null, List.of(),
                null, 1.01, 1, "g5.xlarge");
        ServerBenchResult r = new ServerBenchResult("b", List.of(ok, oom),
                List.of("output tokens/s (higher is better)", "P99 TTFT ms (lower is better)"),
                new ServerBenchResult.Heatmap("batch_size", "prefill", List.of("8"), List.of("1024", "2048"),
                        List.of(Arrays.asList(123.4, null)), List.of(Arrays.asList(15.5, null)),
                        List.of(Arrays.asList(null, "OOM"))),
                new ServerBenchResult.RooflineInfo("NVIDIA A10", 600, "llama-2-7b", 13.48e9, 524288, 528, 512, 55.2,
                        List.of("datasheet")), List.of("variant 'tgi batch_size=8 prefill=2048': oom"));
        StringWriter s = new StringWriter();
        ServerBenchReport.print(r, new PrintWriter(s, true));
        String out = s.toString();
        assertThat(out).contains("tgi batch_size=8 prefill=1024").contains("123.4").contains("321.0 ms")
                .contains("15.5 GiB").contains("★");
        assertThat(out).contains("Pareto front over [output tokens/s (higher is better); P99 TTFT ms (lower is "
                + "better)]: tgi batch_size=8 prefill=1024");
        assertThat(out).contains("client mean 290.0 ms, server mean 270.0 ms: 20.0 ms outside the engine");
        assertThat(out).contains("TPOT ≥ 25.5 ms at batch 6.7; measured TPOT (P50) 55.3 ms is 217 % of the bandwidth "
                + "limit");
        assertThat(out).contains("TTFT ≥ 55.2 ms");
        assertThat(out).containsPattern("g5\\.xlarge\\s+1\\.01\\s+1\\s+123\\.4\\s+2\\.27");
        assertThat(out).containsPattern("\\s+8\\s+123\\.4\\s+OOM");
        assertThat(out).contains("oom ");
    }
}
