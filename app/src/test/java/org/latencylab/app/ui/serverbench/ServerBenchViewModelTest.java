package org.latencylab.app.ui.serverbench;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.server.ServerBenchProgress;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;
import org.latencylab.engine.telemetry.GpuReading;
import org.latencylab.engine.telemetry.PrometheusText;
import org.latencylab.engine.telemetry.ServerSample;
import org.latencylab.engine.telemetry.TelemetryRecorder;
import org.latencylab.engine.telemetry.TelemetrySummary;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The server-benchmark panel's state, fed with the engine's progress events and a finished result. */
class ServerBenchViewModelTest {
    private static final String STEP = "server-bench";

    private static ServerBenchProgress event(int index, String name, ServerBenchProgress.Phase phase,
                                             VariantResult.Status status, String message,
                                             TelemetryRecorder.TelemetryTick tick) {
        return new ServerBenchProgress(STEP, name, index, 2, phase, status, message, tick);
    }

    private static TelemetryRecorder.TelemetryTick tick(double t, int running, int waiting, double kv, double mib) {
        ServerSample s = ServerSample.of(t, PrometheusText.parse("""
                vllm:num_requests_running{model_name="m"} %d
                vllm:num_requests_waiting{model_name="m"} %d
                vllm:gpu_cache_usage_perc{model_name="m"} %s
                """.formatted(running, waiting, kv)));
        return new TelemetryRecorder.TelemetryTick(s, List.of(new GpuReading(t, 0, "NVIDIA A10 (simulated)", mib,
                23028, 50, 120, 1700)));
    }

    @Test
    void progressEventsGiveEachVariantItsStateAndTheRunningOnesTelemetry() {
        ServerBenchViewModel vm = new ServerBenchViewModel();
        vm.accept(event(1, "vllm-like", ServerBenchProgress.Phase.STARTING, null, null, null));
        assertThat(vm.variants()).extracting(ServerBenchViewModel.VariantState::state).containsExactly("starting");
        assertThat(vm.liveTextProperty().get()).isEqualTo("variant 1/2 'vllm-like' · starting");
        vm.accept(event(1, "vllm-like", ServerBenchProgress.Phase.LOAD, null, null, tick(0.0, 0, 0, 0.0, 5000)));
        vm.accept(event(1, "vllm-like", ServerBenchProgress.Phase.LOAD, null, null, tick(1.0, 8, 2, 0.25, 6144)));
        vm.accept(() -> "server-bench-v1"); // another step's event: ignored
        ServerBenchViewModel.Telemetry t = vm.telemetryProperty().get();
        assertThat(t.index()).isEqualTo(1);
        assertThat(t.server()).extracting(ServerSample::running).containsExactly(0.0, 8.0);
        assertThat(t.gpus()).extracting(GpuReading::memoryUsedMiB).containsExactly(5000.0, 6144.0);
        assertThat(vm.liveTextProperty().get()).isEqualTo("variant 1/2 'vllm-like' · under load · KV cache 25.0 %"
                + " · 8 running · 2 waiting · GPU memory 6.0 GiB");
        vm.accept(event(1, "vllm-like", ServerBenchProgress.Phase.STOPPING, null, null, null));
        vm.accept(event(1, "vllm-like", ServerBenchProgress.Phase.DONE, VariantResult.Status.OK, null, null));
        vm.accept(event(2, "tgi-like batch_size=16", ServerBenchProgress.Phase.STARTING, null, null, null));
        // a new variant starts with empty series of its own
        assertThat(vm.telemetryProperty().get().index()).isEqualTo(2);
        assertThat(vm.telemetryProperty().get().server()).isEmpty();
        vm.accept(event(2, "tgi-like batch_size=16", ServerBenchProgress.Phase.DONE, VariantResult.Status.OOM,
                "variant 'tgi-like batch_size=16': exited with status 3 before it was ready: out of memory", null));
        assertThat(vm.variants()).extracting(ServerBenchViewModel.VariantState::state).containsExactly("ok", "oom");
        assertThat(vm.variants().get(1).detail()).contains("out of memory");
        assertThat(vm.liveTextProperty().get()).endsWith("oom · comparing variants");
        // the first variant's series are still there to look at
        vm.showTelemetry(1);
        assertThat(vm.telemetryProperty().get().server()).hasSize(2);
        vm.reset();
        assertThat(vm.variants()).isEmpty();
        assertThat(vm.telemetryProperty().get()).isNull();
    }

    private static VariantResult variant(int i, String name, VariantResult.Status status, double tokS, double p99,
                                         Double memGiB, boolean optimal, String message) {
        TelemetrySummary t = new TelemetrySummary(0, null, null, null, null, null, null, null, 1, 1, "GPU",
                memGiB == null ? null : memGiB * 1024, 24576.0, null, null, null, "test", List.of());
        List<VariantResult.Point> pts = status != VariantResult.Status.OK ? List.of()
                : List.of(new VariantResult.Point("b-v" + i, "concurrency 8", tokS, 1, 1, p99, 50.0, 200.0, null,
                "Tier-2", null, null, null, 8.0, optimal, null));
        return new VariantResult(i, name, "b-v" + i, Map.of(), null, "http://127.0.0.1:1", status, message, 0, 1.0,
                null, null, null, pts, t, null, 1, null);
    }

    @Test
    void aFinishedBenchmarkShowsEveryVariantsOutcomeAndTheConsoleReport() {
        ServerBenchResult r = new ServerBenchResult("bench", List.of(
                variant(1, "tgi batch_size=8", VariantResult.Status.OK, 60.25, 2500, 17.5, true, null),
                variant(2, "tgi batch_size=16", VariantResult.Status.OOM, 0, 0, null, false,
                        "variant 'tgi batch_size=16': exited with status 3 before it was ready\nlast lines: …")),
                List.of("output tokens/s (higher is better)", "P99 TTFT ms (lower is better)",
                        "peak GPU memory GiB (lower is better)"),
                new ServerBenchResult.Heatmap("batch_size", "prefill", List.of("8", "16"), List.of("1024"),
                        List.of(Arrays.asList(60.25), Arrays.asList((Double) null)),
                        List.of(Arrays.asList(17.5), Arrays.asList((Double) null)),
                        List.of(Arrays.asList((String) null), Arrays.asList("OOM"))), null, List.of());
        ServerBenchViewModel vm = new ServerBenchViewModel();
        vm.showResult("grid-run", Path.of("runs", "r1"), r);
        assertThat(vm.resultProperty().get()).isSameAs(r);
        assertThat(vm.variants()).containsExactly(
                new ServerBenchViewModel.VariantState(1, "tgi batch_size=8", "ok",
                        "60.3 tokens/s · P99 2.50 s · peak 17.5 GiB · Pareto ★"),
                new ServerBenchViewModel.VariantState(2, "tgi batch_size=16", "oom",
                        "variant 'tgi batch_size=16': exited with status 3 before it was ready"));
        assertThat(vm.reportProperty().get()).contains("Pareto front over").contains("tgi batch_size=8");
        assertThat(vm.liveTextProperty().get()).isEqualTo("bench · 1 of 2 variants measured");
        assertThat(vm.variantsCsv()).isEqualTo(Path.of("runs", "r1", "bench.variants.csv"));
        assertThat(vm.runName()).isEqualTo("grid-run");
    }
}
