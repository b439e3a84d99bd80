package org.latencylab.engine.experiment;

import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.scenario.StepCatalog;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The JIT warm-up streams real requests through the client to an in-process simulator, within its time limit. */
class JitWarmUpTest {
    @Test
    void warmUpStreamsRequestsThroughTheClientWithinItsLimit() {
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            long t0 = System.nanoTime();
            java.util.List<org.latencylab.engine.api.RequestRecord> done = JitWarmUp.run(client, Protocol.OPENAI_CHAT);
            double seconds = (System.nanoTime() - t0) / 1e9;
            // a busy 2-core machine may stop at the time limit long before all requests; an idle one finishes them
            assertThat(done).hasSizeBetween(50, JitWarmUp.REQUESTS)
                    .allMatch(r -> r.succeeded() && r.outputTokens() == 8 && r.tokens().size() > 0);
            assertThat(seconds).isLessThan(JitWarmUp.LIMIT_MILLIS / 1000.0 + 3.0);
            // then the recording path: every record through a scratch model and the requests.jsonl serializer
            org.latencylab.engine.run.RunSpec spec = StepCatalog.loader().parse(new java.io.ByteArrayInputStream("""
                    format: 1
                    name: w
                    endpoint: {builtin: sim, profile: zero-latency}
                    experiments:
                      - type: probe
                        requests: 2
                    """.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "w.yaml");
            assertThat(JitWarmUp.recordingPath(done, spec, t0)).isEqualTo(done.size() * JitWarmUp.RECORDING_PASSES);
        }
    }

    @Test
    void aLoadStepRunnerWarmsItsOpenLoopAgainstTheSimulatorAndLeavesNothingBehind() throws Exception {
        java.util.List<java.nio.file.Path> dirs = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.List<org.latencylab.engine.api.RequestRecord> ended = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.latencylab.engine.load.LoadStepRunner load = new org.latencylab.engine.load.LoadStepRunner();
        // a runner that watches what the warm-up gives it, then runs the real load runner's warm-up
        StepRunner<org.latencylab.engine.load.LoadSpec> watching = new StepRunner<>() {
            @Override
            public org.latencylab.engine.run.StepResult run(org.latencylab.engine.load.LoadSpec spec, String label,
                                                            StepContext context) {
                throw new AssertionError("a warm-up never runs a step");
            }

            @Override
            public void warmUp(StepContext scratch) throws InterruptedException {
                dirs.add(scratch.runDirectory());
                load.warmUp(new Forwarding(scratch, ended));
            }
        };
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            long t0 = System.nanoTime();
            long sent = JitWarmUp.schedulingPaths(client, Protocol.OPENAI_CHAT, java.util.List.of(watching));
            double seconds = (System.nanoTime() - t0) / 1e9;
            // 1,000 requests/s for 0.6 s: a busy machine sends fewer, never none
            assertThat(sent).isBetween(50L, 2_000L);
            assertThat(ended).hasSizeGreaterThan(40)
                    .allMatch(r -> r.succeeded() && r.outputTokens() == 8 && r.stream());
            assertThat(seconds).isLessThan(JitWarmUp.SCHEDULING_LIMIT_MILLIS / 1000.0 + 3.0);
            assertThat(dirs).hasSize(1);
            assertThat(dirs.get(0)).doesNotExist(); // its interval logs went with it
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    /** A context that passes everything on and keeps the records the step runner hands over. */
    private record Forwarding(StepContext to, java.util.List<org.latencylab.engine.api.RequestRecord> ended)
            implements StepContext {
        public Endpoint endpoint() { return to.endpoint(); }
        public ClientOptions clientOptions() { return to.clientOptions(); }
        public org.latencylab.engine.api.RequestRecord send(org.latencylab.engine.api.GenerationRequest r,
                org.latencylab.engine.api.RequestTicket t) throws InterruptedException { return to.send(r, t); }
        public org.latencylab.engine.api.RequestRecord send(org.latencylab.engine.api.GenerationRequest r,
                org.latencylab.engine.api.RequestTicket t, Runnable f) throws InterruptedException {
            return to.send(r, t, f);
        }
        public void openConnections(int n, boolean stream) throws InterruptedException { to.openConnections(n, stream); }
        public String prompt(int tokens, boolean cold) { return to.prompt(tokens, cold); }
        public long nextRequestId() { return to.nextRequestId(); }
        public void finished(org.latencylab.engine.api.RequestRecord r) { ended.add(r); to.finished(r); }
        public void inFlight(int d) { to.inFlight(d); }
        public void targetRate(double r) { to.targetRate(r); }
        public boolean cancelled() { return to.cancelled(); }
        public void notice(String m) { to.notice(m); }
        public java.nio.file.Path runDirectory() { return to.runDirectory(); }
    }

    @Test
    void anEndpointServedByOkHttpIsWarmedThroughOkHttp() {
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            Endpoint tls = new Endpoint("tls", Protocol.OPENAI_CHAT, "https://api.example.invalid/v1", "m", null,
                    java.util.Map.of(), true);
            Endpoint plain = new Endpoint("plain", Protocol.OPENAI_CHAT, "http://127.0.0.1:9", "m", null,
                    java.util.Map.of(), true);
            assertThat(client.measuresDirectly(tls)).isFalse();
            assertThat(client.measuresDirectly(plain)).isTrue();
            // what run.json records as environment.http_path
            assertThat(client.httpPath(tls)).isEqualTo(org.latencylab.engine.api.HttpPath.OKHTTP);
            assertThat(client.httpPath(plain)).isEqualTo(org.latencylab.engine.api.HttpPath.DIRECT_HTTP1);
            assertThat(client.httpPath(new Endpoint("grpc", Protocol.KSERVE_GRPC, "http://127.0.0.1:9", "m", null,
                    java.util.Map.of(), true))).isEqualTo(org.latencylab.engine.api.HttpPath.GRPC);
            // the TLS endpoint itself is never contacted: the warm-up talks to its own simulator
            assertThat(JitWarmUp.forEndpoint(client, tls)).isNotEmpty();
            assertThat(JitWarmUp.forEndpoint(client, plain)).isNotEmpty();
        }
        try (LlmClient library = new LlmClient(ClientOptions.DEFAULTS, name -> null,
                org.latencylab.engine.client.HttpVersion.AUTO, false)) {
            assertThat(library.measuresDirectly(new Endpoint("plain", Protocol.OPENAI_CHAT, "http://127.0.0.1:9", "m",
                    null, java.util.Map.of(), true))).isFalse();
            assertThat(library.httpPath(new Endpoint("plain", Protocol.OPENAI_CHAT, "http://127.0.0.1:9", "m",
                    null, java.util.Map.of(), true))).isEqualTo(org.latencylab.engine.api.HttpPath.OKHTTP);
        }
    }

    @Test
    void otherProtocolsWarmUpWithTheirOwnParser() {
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            assertThat(JitWarmUp.run(client, Protocol.ANTHROPIC_MESSAGES)).isNotEmpty();
            assertThat(JitWarmUp.run(client, Protocol.KSERVE_GRPC)).isNotEmpty(); // warms the shared parts over HTTP
        }
    }
}
