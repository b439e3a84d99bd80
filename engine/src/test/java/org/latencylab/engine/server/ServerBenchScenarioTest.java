package org.latencylab.engine.server;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerBenchScenarioTest {
    private static final Path REPO = Path.of(System.getProperty("latencylab.repo.dir", ".."));

    @Test
    void theSampleScenariosLoad() {
        RunSpec pareto = StepCatalog.loader().load(REPO.resolve("sample-data/scenarios/engine-pareto.yaml"));
        ServerBenchSpec p = (ServerBenchSpec) pareto.experiments().get(0);
        assertThat(p.variants()).extracting(VariantSpec::name).containsExactly("vllm-like", "tgi-like", "ollama-like");
        assertThat(p.roofline().gpu()).isEqualTo("A10");
        RunSpec grid = StepCatalog.loader().load(REPO.resolve("sample-data/scenarios/batching-grid.yaml"));
        ServerBenchSpec g = (ServerBenchSpec) grid.experiments().get(0);
        assertThat(g.variants().get(0).combinations()).hasSize(9);
        assertThat(g.variants().get(0).combinations().get(8)).containsEntry("batch_size", "16")
                .containsEntry("max_prefill_tokens", "2048");
    }

    @Test
    void badFieldsNameFileAndField() {
        assertThatThrownBy(() -> parse("""
                - type: server-bench
                  load: {concurrency: 1, requests: 1}
                  variants:
                    - name: a
                      launch: "srv --port {port} --batch {batch}"
                """)).hasMessageContaining("x.yaml").hasMessageContaining("experiments[0]")
                .hasMessageContaining("variant 'a'").hasMessageContaining("{batch}");
        assertThatThrownBy(() -> parse("""
                - type: server-bench
                  load: {concurrency: 1, requests: 1}
                  gpuTelemetry: dcgm
                  variants: [{name: a, attach: "http://127.0.0.1:1"}]
                """)).hasMessageContaining("gpuTelemetry");
        assertThatThrownBy(() -> parse("""
                - type: server-bench
                  load: {concurrency: 1, requests: 1}
                  roofline: {gpu: B999, model: llama-2-7b}
                  variants: [{name: a, attach: "http://127.0.0.1:1"}]
                """)).hasMessageContaining("roofline").hasMessageContaining("B999");
        assertThatThrownBy(() -> parse("""
                - type: server-bench
                  load: {concurrency: 1, requests: 1}
                  variants: [{name: a, attach: "http://127.0.0.1:1", lauch: x}]
                """)).hasMessageContaining("lauch");
    }

    private static RunSpec parse(String experiments) {
        String yaml = "format: 1\nname: x\nendpoint: {builtin: sim}\nexperiments:\n" + experiments.indent(2);
        return StepCatalog.loader().parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "x.yaml");
    }
}
