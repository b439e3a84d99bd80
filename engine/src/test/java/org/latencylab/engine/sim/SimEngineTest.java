package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.telemetry.GpuReading;
import org.latencylab.engine.telemetry.NvidiaSmi;
import org.latencylab.engine.telemetry.PrometheusText;
import org.latencylab.engine.telemetry.ServerSample;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The engine section of simulator profiles: metric naming, simulated GPU memory, OOM, chunked prefill. */
class SimEngineTest {
    private static String text(Loopback.Result r) {
        return r.lines().stream().map(Loopback.Line::text).collect(Collectors.joining("\n"));
    }

    @Test
    void builtInEngineProfilesLoadWithTheirNaming() {
        assertThat(SimProfile.builtin("vllm-like").engine().metrics()).isEqualTo("vllm");
        assertThat(SimProfile.builtin("tgi-like").engine().metrics()).isEqualTo("tgi");
        assertThat(SimProfile.builtin("ollama-like").engine().metrics()).isEqualTo("none");
        assertThat(SimProfile.builtin("tgi-like").engine().reserveFullBatch()).isTrue();
        assertThat(SimProfile.builtin("llama-8b-class").engine()).isEqualTo(SimProfile.Engine.NONE);
    }

    @Test
    void simulatedGpuMemoryGrowsWithTokensInFlightAndIsServedAsNvidiaSmiCsv() throws Exception {
        SimProfile p = Loopback.profile("""
                model: m
                prefill: {t0: 0.001, k: 0, alpha: 1}
                decode: {tpot: 0.05}
                engine:
                  gpu: {name: Test GPU, memoryGiB: 24}
                  weightsGiB: 10
                  overheadGiB: 1
                  kvBytesPerToken: 1048576
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            List<GpuReading> idle = NvidiaSmi.parse(text(http.get("/sim/gpu")));
            assertThat(idle).hasSize(1);
            assertThat(idle.get(0).name()).isEqualTo("Test GPU");
            assertThat(idle.get(0).memoryUsedMiB()).isEqualTo(11 * 1024);
            assertThat(idle.get(0).memoryTotalMiB()).isEqualTo(24 * 1024);
            assertThat(idle.get(0).utilizationPct()).isZero();
            // a 1000-token prompt streaming 40 tokens: while it runs, its KV (1 MiB per token) is on the GPU
            Thread t = Thread.ofVirtual().start(() -> http.post("/v1/completions",
                    "{\"model\":\"m\",\"prompt\":" + ids(1000) + ",\"max_tokens\":40,\"stream\":true}"));
            long deadline = System.nanoTime() + 5_000_000_000L;
            double used = 0;
            while (System.nanoTime() < deadline && used < 11 * 1024 + 1000) {
                used = NvidiaSmi.parse(text(http.get("/sim/gpu"))).get(0).memoryUsedMiB();
                Thread.sleep(20);
            }
            assertThat(used).isBetween(11 * 1024 + 1000.0, 11 * 1024 + 1040.0);
            t.join();
            assertThat(server.gpuMemoryUsedBytes()).isEqualTo(11L << 30);
        }
    }

    private static String ids(int n) {
        return java.util.stream.IntStream.range(0, n).mapToObj(i -> Integer.toString(100 + i % 500))
                .collect(Collectors.joining(",", "[", "]"));
    }

    @Test
    void aReservedBatchThatDoesNotFitFailsAtStart() {
        SimProfile tgi = SimMain.withOverrides(SimProfile.builtin("tgi-like"), 16, 2048, null);
        assertThatThrownBy(() -> SimServer.start(tgi, SimOptions.defaults()))
                .isInstanceOf(SimOutOfMemoryException.class).hasMessageContaining("CUDA out of memory")
                .hasMessageContaining("16 sequences × 2048 prefill tokens");
        // one step smaller fits: 8 x 2048 or 16 x 1024 tokens of 512 KiB are 8 GiB next to 13.55 GiB
        SimServer.start(SimMain.withOverrides(SimProfile.builtin("tgi-like"), 8, 2048, null), SimOptions.defaults())
                .close();
        SimServer.start(SimMain.withOverrides(SimProfile.builtin("tgi-like"), 16, 1024, null), SimOptions.defaults())
                .close();
    }

    @Test
    void aRequestThatOverflowsThePagedCacheFailsAndCallsTheHandler() throws Exception {
        SimProfile p = Loopback.profile("""
                model: m
                prefill: {t0: 0.001, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                engine:
                  gpu: {name: Small GPU, memoryGiB: 2}
                  weightsGiB: 1
                  kvBytesPerToken: 2097152
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            java.util.concurrent.atomic.AtomicReference<String> oom = new java.util.concurrent.atomic.AtomicReference<>();
            server.onOutOfMemory(oom::set);
            // 1000 tokens x 2 MiB = 1.95 GiB of KV next to 1 GiB of weights: more than 2 GiB
            Loopback.Result r = http.post("/v1/completions",
                    "{\"model\":\"m\",\"prompt\":" + ids(1000) + ",\"max_tokens\":4}");
            assertThat(r.status()).isEqualTo(500);
            assertThat(oom.get()).contains("CUDA out of memory").contains("1000 tokens in flight");
            // a small one still fits
            assertThat(http.post("/v1/completions",
                    "{\"model\":\"m\",\"prompt\":" + ids(100) + ",\"max_tokens\":4}").status()).isEqualTo(200);
        }
    }

    @Test
    void tgiNamingHasQueueAndBatchGaugesAndNoTtftHistogram() throws Exception {
        try (SimServer server = SimServer.start(SimProfile.builtin("tgi-like"), SimOptions.defaults());
             Loopback http = new Loopback(server)) {
            List<PrometheusText.Sample> s = PrometheusText.parse(text(http.get("/metrics")));
            assertThat(PrometheusText.sum(s, "tgi_batch_current_size")).isZero();
            assertThat(PrometheusText.sum(s, "tgi_queue_size")).isZero();
            assertThat(PrometheusText.sum(s, "vllm:num_requests_running")).isNull();
            ServerSample x = ServerSample.of(0, s);
            assertThat(x.running()).isZero();
            assertThat(x.ttftCount()).isNaN();
        }
    }

    @Test
    void sglangNamingIsScrapedUnderItsOwnNames() throws Exception {
        SimProfile p = Loopback.profile("""
                model: m
                prefill: {t0: 0.002, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                engine: {metrics: sglang}
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            assertThat(http.post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"hello there\",\"max_tokens\":5}")
                    .status()).isEqualTo(200);
            List<PrometheusText.Sample> s = PrometheusText.parse(text(http.get("/metrics")));
            assertThat(PrometheusText.sum(s, "sglang:num_running_reqs")).isZero();
            ServerSample x = ServerSample.of(0, s);
            assertThat(x.ttftCount()).isEqualTo(1);
            assertThat(x.ttftSumSeconds()).isGreaterThanOrEqualTo(0.002);
            assertThat(x.itlCount()).isEqualTo(4);
        }
    }

    @Test
    void ollamaLikeServesNoMetrics() throws Exception {
        try (SimServer server = SimServer.start(SimProfile.builtin("ollama-like"), SimOptions.defaults());
             Loopback http = new Loopback(server)) {
            assertThat(http.get("/metrics").status()).isEqualTo(404);
            assertThat(http.get("/api/tags").status()).isEqualTo(200);
        }
    }

    @Test
    void chunkedPrefillAddsOneStepPerExtraChunk() {
        SimProfile p = Loopback.profile("""
                model: m
                prefill: {t0: 0.1, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                engine: {maxBatchedTokens: 512, chunkOverheadSeconds: 0.05}
                """);
        assertThat(p.prefillTime(512).toMillis()).isEqualTo(100);
        assertThat(p.prefillTime(513).toMillis()).isEqualTo(150);
        assertThat(p.prefillTime(2048).toMillis()).isEqualTo(250);
        assertThat(p.prefillTime(2048).toNanos() / 1e9).isCloseTo(0.25, within(1e-9));
    }

    @Test
    void badEngineFieldsNameTheField() {
        assertThatThrownBy(() -> Loopback.profile("""
                prefill: {t0: 0.1, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                engine: {metrics: triton}
                """)).hasMessageContaining("engine.metrics");
        assertThatThrownBy(() -> Loopback.profile("""
                prefill: {t0: 0.1, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                engine: {gpu: {name: x}}
                """)).hasMessageContaining("engine.gpu.memoryGiB");
    }
}
