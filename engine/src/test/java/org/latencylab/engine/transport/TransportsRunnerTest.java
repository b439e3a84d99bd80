package org.latencylab.engine.transport;

import org.latencylab.engine.results.RunLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transports experiment end to end through the run engine: a scenario with every transport over an emulated
 * link, warm and cold, against the simulator's HTTP/1.1, HTTP/2 (TLS and h2c) and gRPC (plaintext and TLS)
 * listeners; real loopback sockets, real files.
 */
class TransportsRunnerTest {
    @TempDir
    Path dir;

    private static RunSpec scenario(String experiments) {
        String yaml = """
                format: 1
                name: transports-test
                endpoint: {builtin: sim, profile: small-fast}
                seed: 1
                experiments:
                """ + experiments;
        return StepCatalog.loader().parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)),
                "transports-test.yaml");
    }

    @Test
    void eachNetworkAndConnectionModePublishesTheCellsSoFar() throws Exception {
        RunSpec spec = scenario("""
                  - type: transports
                    transports: [sse-h1, grpc]
                    networks: [wired]
                    connections: [warm, cold]
                    requests: 1
                    promptTokens: 32
                    maxOutputTokens: 8
                """);
        java.util.List<TransportsProgress> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.latencylab.engine.step.StepProgressListener listener =
                new org.latencylab.engine.step.StepProgressListener() {
                    @Override
                    public void onSnapshot(org.latencylab.engine.api.IntervalSnapshot snapshot) {
                    }

                    @Override
                    public void onStepProgress(org.latencylab.engine.step.StepProgress p) {
                        if (p instanceof TransportsProgress t) {
                            seen.add(t);
                        }
                    }
                };
        RunResult run = StepCatalog.engine().start(spec, dir.resolve("live"), listener).await(Duration.ofSeconds(120));
        assertThat(run.status()).as(run.failure()).isEqualTo(RunResult.Status.COMPLETED);
        TransportsResult last = (TransportsResult) run.steps().get(0).result();
        assertThat(seen).extracting(t -> t.soFar().cells().size()).containsExactly(2, 4);
        assertThat(seen.get(1).soFar().cells()).isEqualTo(last.cells());
        assertThat(seen.get(0).step()).isEqualTo(last.label());
    }

    @Test
    void everyTransportWarmAndColdThroughAnEmulatedLink() throws Exception {
        RunSpec spec = scenario("""
                  - type: transports
                    transports: [sse-h1, sse-h2, sse-h2c, grpc, grpc-tls, json]
                    networks: [stable-4g]
                    connections: [warm, cold]
                    requests: 2
                    promptTokens: 64
                    maxOutputTokens: 60
                """);
        RunResult run = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(120));
        assertThat(run.status()).as(run.failure()).isEqualTo(RunResult.Status.COMPLETED);
        TransportsResult t = (TransportsResult) run.steps().get(0).result();
        assertThat(t.cells()).hasSize(12);
        assertThat(t.screen()).isEqualTo("200 characters");
        for (TransportsResult.Cell c : t.cells()) {
            assertThat(c.succeeded()).as(c.label() + " " + c.errors()).isEqualTo(2);
            assertThat(c.firstScreen().p50Ms()).as(c.label()).isNotNull();
            assertThat(c.bytesDownPerResponse()).as(c.label()).isPositive();
            // stable-4g: 50 ms round trip; every request pays at least one, a cold one at least two (TCP handshake)
            assertThat(c.e2e().p50Ms()).as(c.label()).isGreaterThanOrEqualTo(50.0);
            if (!c.transport().equals("json")) {
                assertThat(c.ttft().p50Ms()).as(c.label()).isLessThanOrEqualTo(c.firstScreen().p50Ms());
                assertThat(c.firstScreen().p50Ms()).as(c.label()).isLessThanOrEqualTo(c.e2e().p50Ms());
                assertThat(c.eventsPerResponse()).as(c.label()).isEqualTo(60.0);
            }
            if (c.connection().equals("cold")) {
                assertThat(c.setup().p50Ms()).as(c.label() + " connect inside the measurement").isPositive();
                assertThat(c.e2e().p50Ms()).as(c.label()).isGreaterThanOrEqualTo(100.0);
            } else {
                assertThat(c.setup().p50Ms()).as(c.label() + " reused connection").isZero();
            }
        }
        // protobuf frames are smaller than OpenAI's JSON chunks in SSE events
        assertThat(t.cell("grpc", "stable-4g", "warm").bytesPerEvent())
                .isLessThan(t.cell("sse-h1", "stable-4g", "warm").bytesPerEvent() / 2);
        // a cold TLS connection costs more round trips than a cold plaintext one
        assertThat(t.cell("grpc-tls", "stable-4g", "cold").e2e().p50Ms())
                .isGreaterThan(t.cell("grpc", "stable-4g", "cold").e2e().p50Ms());

        List<RequestRecord> logged = RequestLog.read(dir.resolve("run").resolve(RunLayout.REQUESTS_JSONL));
        assertThat(logged).hasSize(24);
        assertThat(logged.stream().map(RequestRecord::label).distinct()).hasSize(12)
                .contains("transports-stable-4g-grpc-cold");
        // the per-event answer characters survive the log, so first-screen latency can be recomputed from it
        RequestRecord back = logged.stream().filter(r -> r.label().endsWith("grpc-warm")).findFirst().orElseThrow();
        assertThat(back.tokens().hasAnswerChars()).isTrue();
        assertThat(Files.readString(dir.resolve("run").resolve("run.json"))).contains("\"transports\"");
    }

    @Test
    void badProfilesAndTransportsAreScenarioErrorsNamingTheField() throws Exception {
        Path bad = dir.resolve("negative.yaml");
        Files.writeString(bad, "down: {delayMs: 1, bandwidthMbps: -2}\nup: {delayMs: 1, bandwidthMbps: 1}\n");
        assertThatThrownBy(() -> scenario("  - {type: transports, networks: [wired, '" + bad + "']}\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transports-test.yaml")
                .hasMessageContaining("networks[1]")
                .hasMessageContaining("negative.yaml")
                .hasMessageContaining("down.bandwidthMbps");
        assertThatThrownBy(() -> scenario("  - {type: transports, transports: [sse-h1, carrier-pigeon]}\n"))
                .hasMessageContaining("transports[1]").hasMessageContaining("carrier-pigeon");
        assertThatThrownBy(() -> scenario("  - {type: transports, connections: [lukewarm]}\n"))
                .hasMessageContaining("connections[0]");
    }
}
