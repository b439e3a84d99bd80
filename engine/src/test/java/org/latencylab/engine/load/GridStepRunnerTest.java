package org.latencylab.engine.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GridStepRunnerTest {
    @TempDir
    Path dir;

    @Test
    void concurrencyByContextGridFillsTheMatrixAndWritesCsv() throws Exception {
        SimProfile prefillHeavy = SimProfile.parse("test", "prefill-heavy", """
                name: prefill-heavy
                model: m
                prefill: {t0: 0.005, k: 0.00002, alpha: 1.0}
                decode: {tpot: 0.001, batchSlowdown: 0}
                maxRunningSeqs: 2
                """);
        GridSpec spec = new GridSpec("concurrency", List.of(1.0, 4.0), List.of(64, 2048), null, 12L, null, null, 2,
                true, true, "ttft_from_intended", "p50", null);
        try (SimServer sim = SimServer.start(prefillHeavy, SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            TestContext ctx = new TestContext(ep, dir, (req, t) -> client.execute(ep, req, t));
            GridResult g = new GridStepRunner().run(spec, "grid", ctx);

            assertThat(g.rowValues()).containsExactly(1.0, 4.0);
            assertThat(g.columnValues()).containsExactly(64.0, 2048.0);
            assertThat(g.unit()).isEqualTo("ms");
            assertThat(g.metric()).isEqualTo("ttft_from_intended p50");
            assertThat(g.cells()).hasSize(4);
            assertThat(ctx.finished).hasSize(48);
            assertThat(ctx.records().stream().map(r -> r.label()).distinct())
                    .containsExactlyInAnyOrder("grid-concurrency=1,contextTokens=64", "grid-concurrency=1,contextTokens=2048",
                            "grid-concurrency=4,contextTokens=64", "grid-concurrency=4,contextTokens=2048");
            double[][] m = g.matrix();
            // prefill grows with the prompt (5 ms + 0.02 ms/token: 6 ms vs 46 ms) ...
            assertThat(m[0][1]).isGreaterThan(m[0][0] + 25);
            // ... and 4 workers on a server running 2 sequences queue behind each other
            assertThat(m[1][1]).isGreaterThan(m[0][1] * 1.5);

            StringWriter csv = new StringWriter();
            GridCsv.write(g, csv);
            String[] lines = csv.toString().split("\r\n");
            assertThat(lines).hasSize(3);
            assertThat(lines[0]).startsWith("\"ttft_from_intended p50 [ms]: concurrency [requests] \\ context [tokens]\"")
                    .endsWith(",64,2048");
            assertThat(lines[1]).startsWith("1,");
            assertThat(Double.parseDouble(lines[2].split(",")[2])).isCloseTo(m[1][1], org.assertj.core.api.Assertions.within(0.001));
        }
    }

    @Test
    void sampleGridScenarioReadsAndRejectsBadAxes() {
        Path repo = Path.of(System.getProperty("latencylab.repo.dir", ".."));
        RunSpec run = StepCatalog.loader().load(repo.resolve("sample-data/scenarios/grid-concurrency-context.yaml"));
        GridSpec g = (GridSpec) run.experiments().get(0);
        assertThat(g.rowValues()).hasSize(4);
        assertThat(g.cell(3, 2).concurrency()).isEqualTo(128);
        assertThat(g.cell(3, 2).contextTokens()).isEqualTo(8192);
        assertThatThrownBy(() -> new GridSpec("batch", List.of(1.0), List.of(1), null, 1L, null, null, null, null,
                null, null, null, null)).hasMessageContaining("rowAxis");
        assertThatThrownBy(() -> new GridSpec("concurrency", List.of(1.5), List.of(1), null, 1L, null, null, null,
                null, null, null, null, null)).hasMessageContaining("whole numbers");
    }

    @Test
    void allSampleLoadScenariosRead() {
        Path repo = Path.of(System.getProperty("latencylab.repo.dir", ".."));
        for (String f : List.of("load-200rps-10min.yaml", "load-burst-tiers.yaml")) {
            RunSpec run = StepCatalog.loader().load(repo.resolve("sample-data/scenarios").resolve(f));
            assertThat(run.experiments().get(0)).isInstanceOf(LoadSpec.class);
        }
        RunSpec soak = StepCatalog.loader().load(repo.resolve("sample-data/scenarios/load-200rps-10min.yaml"));
        assertThat(soak.client().maxRetries()).isEqualTo(2);
        assertThat(soak.client().totalTimeout()).isEqualTo(java.time.Duration.ofSeconds(15));
        LoadSpec l = (LoadSpec) soak.experiments().get(0);
        assertThat(l.duration()).isEqualTo(java.time.Duration.ofMinutes(10));
        assertThat(l.rate()).isEqualTo(200.0);
    }
}
