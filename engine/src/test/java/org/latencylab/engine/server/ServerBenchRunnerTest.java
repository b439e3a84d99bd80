package org.latencylab.engine.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server benchmarks with real child processes: simulator JVMs launched from templates ({@code {latencylab}} is this
 * test JVM's Java and class path), scraped, loaded, stopped; afterwards no process of theirs is left.
 */
class ServerBenchRunnerTest {
    @TempDir
    Path dir;

    private static Set<Long> children() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private RunResult run(String experiment) throws Exception {
        return run(experiment, new ServerBenchRunner());
    }

    private RunResult run(String experiment, ServerBenchRunner runner) throws Exception {
        return run(experiment, runner, RunListener.NONE);
    }

    private RunResult run(String experiment, ServerBenchRunner runner, RunListener listener) throws Exception {
        String yaml = """
                format: 1
                name: bench-test
                endpoint: {builtin: sim, profile: zero-latency}
                experiments:
                """ + experiment.indent(2);
        RunSpec spec = StepCatalog.loader().parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)),
                "bench-test.yaml");
        return StepCatalog.engine().register(ServerBenchSpec.class, runner)
                .start(spec, dir.resolve("run"), listener).await(Duration.ofSeconds(150));
    }

    @Test
    void launchesScrapesLoadsAndStopsASimulatorProcessLeavingNoProcess() throws Exception {
        Set<Long> before = children();
        RunResult r = run("""
                - type: server-bench
                  load: {concurrency: 2, requests: 12, contextTokens: 128, maxOutputTokens: 8}
                  scrapeInterval: 200ms
                  stopGrace: 5s
                  roofline: {gpu: A10, model: llama-2-7b}
                  pricePerGpuHour: 2.0
                  variants:
                    - name: vllm-like
                      launch: "{latencylab} sim --profile vllm-like --port {port} --seed 7"
                      env: {HF_TOKEN: hf_secret_value}
                """);
        assertThat(r.status()).as("failure: %s", r.failure()).isEqualTo(RunResult.Status.COMPLETED);
        ServerBenchResult b = (ServerBenchResult) r.steps().get(0).result();
        VariantResult v = b.variants().get(0);
        assertThat(v.status()).as("message: %s", v.message()).isEqualTo(VariantResult.Status.OK);
        assertThat(v.startupSeconds()).isPositive();
        VariantResult.Point p = v.points().get(0);
        assertThat(p.totals().succeeded()).isEqualTo(12);
        assertThat(p.outputTokensPerSecond()).isPositive();
        assertThat(p.latencyP99Ms()).isPositive();
        assertThat(p.paretoOptimal()).isTrue();
        // the cost follows from the measured throughput
        assertThat(p.costPerMillionTokens()).isCloseTo(2.0 / (p.outputTokensPerSecond() * 3600) * 1e6,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(p.tpotBoundMs()).isPositive();
        assertThat(p.tpotOfBoundPct()).isCloseTo(p.tpotP50Ms() / p.tpotBoundMs() * 100,
                org.assertj.core.api.Assertions.within(1e-9));
        // telemetry: the server's vLLM-named metrics and its simulated GPU were sampled
        assertThat(v.telemetry().metricsSamples()).isGreaterThanOrEqualTo(2);
        assertThat(v.telemetry().serverTtftMeanMs()).isPositive();
        assertThat(p.serverTtftMeanMs()).isNotNull();
        assertThat(v.telemetry().gpuSource()).contains("/sim/gpu");
        assertThat(v.telemetry().peakGpuMemoryMiB()).isGreaterThan(13.15 * 1024);
        Path run = dir.resolve("run");
        List<String> metrics = Files.readAllLines(run.resolve(v.metricsFile()));
        assertThat(metrics.get(0)).startsWith("t_s,running,waiting,kv_cache_usage");
        assertThat(metrics.size()).isGreaterThanOrEqualTo(3);
        assertThat(Files.readAllLines(run.resolve(v.gpuFile())).get(1)).contains("NVIDIA A10 (simulated)");
        String log = Files.readString(run.resolve(v.logFile()));
        assertThat(log).contains("ready on http://127.0.0.1:").contains("HF_TOKEN=****")
                .doesNotContain("hf_secret_value");
        assertThat(run.resolve("server-bench.variants.csv")).content().contains("vllm-like\",ok,concurrency 2,");
        // the server process is gone, and so is every other process the benchmark started
        assertThat(v.exitCode()).isNotNull();
        Set<Long> after = children();
        after.removeAll(before);
        assertThat(after).isEmpty();
    }

    @Test
    void outOfMemoryAtStartIsRecordedAsTheOomCellAndTheGridGoesOn() throws Exception {
        Set<Long> before = children();
        RunResult r = run("""
                - type: server-bench
                  load: {concurrency: 2, requests: 4, contextTokens: 64, maxOutputTokens: 4}
                  stopGrace: 2s
                  variants:
                    - name: tgi-like
                      launch: "{latencylab} sim --profile tgi-like --port {port} --max-num-seqs {batch_size} --max-batched-tokens {max_prefill_tokens}"
                      grid: {batch_size: [16], max_prefill_tokens: [1024, 2048]}
                """);
        ServerBenchResult b = (ServerBenchResult) r.steps().get(0).result();
        assertThat(b.variants()).extracting(VariantResult::status)
                .containsExactly(VariantResult.Status.OK, VariantResult.Status.OOM);
        VariantResult oom = b.variants().get(1);
        assertThat(oom.name()).isEqualTo("tgi-like batch_size=16 max_prefill_tokens=2048");
        assertThat(oom.message()).contains("exited with status 3").contains("CUDA out of memory");
        assertThat(b.heatmap().marks()).containsExactly(java.util.Arrays.asList(null, "OOM"));
        assertThat(b.heatmap().tokensPerSecond().get(0).get(0)).isPositive();
        assertThat(b.notes()).anyMatch(n -> n.contains("oom") && n.contains("max_prefill_tokens=2048"));
        Set<Long> after = children();
        after.removeAll(before);
        assertThat(after).isEmpty();
    }

    @Test
    void aServerThatNeverBecomesReadyIsKilledAndNamed() throws Exception {
        RunResult r = run("""
                - type: server-bench
                  load: {concurrency: 1, requests: 2}
                  readyTimeout: 3s
                  stopGrace: 1s
                  variants:
                    - name: deaf
                      launch: "{latencylab} sim --profile zero-latency --port {port}"
                      readiness: [/never-ready]
                    - name: missing-program
                      launch: "latencylab-no-such-program --port {port}"
                """);
        ServerBenchResult b = (ServerBenchResult) r.steps().get(0).result();
        assertThat(b.variants()).extracting(VariantResult::status)
                .containsExactly(VariantResult.Status.NOT_READY, VariantResult.Status.START_FAILED);
        assertThat(b.variants().get(0).message()).contains("variant 'deaf'").contains("not ready after 3 s")
                .contains("last lines of " + b.variants().get(0).logFile()).contains("SimMain sim --profile zero-latency");
        assertThat(b.variants().get(1).message()).contains("variant 'missing-program'")
                .contains("latencylab-no-such-program");
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .filter(h -> h.info().commandLine().orElse("").contains("SimMain"))).isEmpty();
    }

    @Test
    void aPortInUseIsAClearStartFailure() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RunResult r = run("""
                    - type: server-bench
                      load: {concurrency: 1, requests: 2}
                      variants:
                        - name: fixed-port
                          launch: "{latencylab} sim --profile zero-latency --port {port}"
                          port: %d
                    """.formatted(taken.getLocalPort()));
            VariantResult v = ((ServerBenchResult) r.steps().get(0).result()).variants().get(0);
            assertThat(v.status()).isEqualTo(VariantResult.Status.START_FAILED);
            assertThat(v.message()).contains("port " + taken.getLocalPort()).contains("in use");
        }
    }

    @Test
    void attachingNeedsNoLaunchAndTheSimulatedGpuIsUsedWhenOffered() throws Exception {
        var sim = org.latencylab.engine.sim.SimServer.start(org.latencylab.engine.sim.SimProfile.builtin("ollama-like"),
                org.latencylab.engine.sim.SimOptions.defaults());
        try (sim) {
            java.util.List<ServerBenchRunner.Progress> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.List<ServerBenchProgress> events = new java.util.concurrent.CopyOnWriteArrayList<>();
            RunResult r = run("""
                    - type: server-bench
                      load: {concurrency: 2, requests: 4, contextTokens: 32, maxOutputTokens: 4}
                      scrapeInterval: 100ms
                      variants:
                        - name: running-ollama
                          attach: %s
                          protocol: ollama-chat
                    """.formatted(sim.baseUrl()), new ServerBenchRunner(new org.latencylab.engine.load.LoadStepRunner(),
                    progress::add), new org.latencylab.engine.step.StepProgressListener() {
                        @Override
                        public void onStepProgress(org.latencylab.engine.step.StepProgress p) {
                            if (p instanceof ServerBenchProgress b) {
                                events.add(b);
                            }
                        }

                        @Override
                        public void onSnapshot(org.latencylab.engine.api.IntervalSnapshot s) {
                        }
                    });
            // the same phases reach the run's step-progress listeners, with the step's label and the final status
            assertThat(events).extracting(ServerBenchProgress::phase).startsWith(ServerBenchProgress.Phase.STARTING)
                    .endsWith(ServerBenchProgress.Phase.DONE).contains(ServerBenchProgress.Phase.LOAD);
            assertThat(events).allMatch(e -> e.step().equals("server-bench") && e.variant().equals("running-ollama")
                    && e.index() == 1 && e.count() == 1);
            assertThat(events.get(events.size() - 1).status()).isEqualTo(VariantResult.Status.OK);
            assertThat(events).filteredOn(e -> e.phase() == ServerBenchProgress.Phase.LOAD)
                    .allMatch(e -> e.tick() != null).anyMatch(e -> !e.tick().gpus().isEmpty());
            // live progress: the phases in order, and telemetry ticks with the simulated GPU while under load
            assertThat(progress).extracting(ServerBenchRunner.Progress::phase).startsWith("starting").endsWith("done")
                    .contains("load");
            assertThat(progress).filteredOn(x -> x.tick() != null).allMatch(x -> x.tick().gpus().size() == 1);
            VariantResult v = ((ServerBenchResult) r.steps().get(0).result()).variants().get(0);
            assertThat(v.status()).isEqualTo(VariantResult.Status.OK);
            assertThat(v.command()).isNull();
            assertThat(v.points().get(0).totals().succeeded()).isEqualTo(4);
            assertThat(v.telemetry().metricsSamples()).isZero();
            assertThat(v.telemetry().notes()).anyMatch(n -> n.contains("no Prometheus metrics"));
            // weights (3.6 GiB) and overhead (0.9 GiB) of the profile at least, as the simulated nvidia-smi reports
            assertThat(v.telemetry().peakGpuMemoryMiB()).isGreaterThanOrEqualTo(4.5 * 1024);
            assertThat(v.telemetry().gpuName()).isEqualTo("NVIDIA A10 (simulated)");
        }
    }

    @Test
    void aSweepRunsEveryLevelAgainstTheVariantWithItsOwnLabel() throws Exception {
        var sim = org.latencylab.engine.sim.SimServer.start(org.latencylab.engine.sim.SimProfile.builtin("vllm-like"),
                org.latencylab.engine.sim.SimOptions.defaults());
        try (sim) {
            RunResult r = run("""
                    - type: server-bench
                      load: {concurrency: 1, requests: 4, contextTokens: 32, maxOutputTokens: 4}
                      sweep: {concurrency: [1, 3]}
                      latencyMetric: e2e
                      variants:
                        - name: running-vllm
                          attach: %s
                    """.formatted(sim.baseUrl()));
            VariantResult v = ((ServerBenchResult) r.steps().get(0).result()).variants().get(0);
            assertThat(v.points()).extracting(VariantResult.Point::label)
                    .containsExactly("server-bench-v1-l1", "server-bench-v1-l2");
            assertThat(v.points()).extracting(VariantResult.Point::level)
                    .containsExactly("concurrency 1", "concurrency 3");
            assertThat(v.points()).allMatch(p -> p.totals().succeeded() == 4);
            // the latency objective is E2E here: its P99 is the load totals' E2E from the send
            assertThat(v.points().get(0).latencyP99Ms()).isEqualTo(v.points().get(0).totals().e2eSend().p99Ms());
            assertThat(r.steps().get(0).parts()).containsKeys("server-bench-v1-l1", "server-bench-v1-l2");
        }
    }
}
