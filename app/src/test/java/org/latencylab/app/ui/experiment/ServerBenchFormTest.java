package org.latencylab.app.ui.experiment;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.server.ServerBenchSpec;
import org.latencylab.engine.server.VariantSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Server benchmark form: the engine spec it builds (the defaults are engine-pareto.yaml's), grids from
 * parameters, and the engine's messages placed next to the part they concern.
 */
class ServerBenchFormTest {
    private static Path repo() {
        return Path.of(System.getProperty("latencylab.repo.dir", ".."));
    }

    @Test
    void theDefaultsBuildTheSameSpecAsEngineParetoYaml() throws Exception {
        RunSpec file = StepCatalog.loader().load(repo().resolve("sample-data/scenarios/engine-pareto.yaml"));
        ServerBenchSpec expected = (ServerBenchSpec) file.experiments().get(0);
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.kindProperty().set(ExperimentViewModel.Kind.SERVER_BENCH);
        RunSpec spec = vm.runSpec(vm.suggestedName(), TargetSpec.simulator("small-fast"), StatsSettings.DEFAULTS);
        assertThat(spec.name()).isEqualTo("server-bench-3-variants");
        assertThat(spec.experiments()).hasSize(1);
        ServerBenchSpec s = (ServerBenchSpec) spec.experiments().get(0);
        assertThat(s.variants()).isEqualTo(expected.variants());
        assertThat(s.load()).isEqualTo(expected.load());
        assertThat(s).isEqualTo(expected);
        assertThat(vm.serverBench().validate()).isEqualTo(expected);
        assertThat(vm.serverBench().summaryProperty().get())
                .isEqualTo("3 variants × 1 level × 10 s = 30 s of load, plus each server's start-up");
    }

    @Test
    void parametersWithSeveralValuesBecomeAGridAndSetTheSimulatorsFlags() {
        ServerBenchForm f = new ServerBenchForm();
        f.variants().remove(1, 3);
        ServerVariantRow r = f.variants().get(0);
        r.sourceProperty().set("sim:tgi-like");
        r.parametersProperty().set("max_num_seqs=4, 8; max_batched_tokens=512");
        f.levelsProperty().set("2, 6");
        ServerBenchSpec s = f.spec();
        VariantSpec v = s.variants().get(0);
        assertThat(v.launch()).containsExactly("{latencylab}", "sim", "--profile", "tgi-like", "--port", "{port}",
                "--max-num-seqs", "{max_num_seqs}", "--max-batched-tokens", "{max_batched_tokens}");
        assertThat(v.grid()).isEqualTo(Map.of("max_num_seqs", List.of("4", "8")));
        assertThat(v.params()).isEqualTo(Map.of("max_batched_tokens", "512"));
        assertThat(v.combinations()).hasSize(2);
        assertThat(s.sweep().concurrency()).containsExactly(2, 6);
        assertThat(s.levels()).extracting(l -> l.concurrency()).containsExactly(2, 6);
        assertThat(r.commandPreview()).isEqualTo("{latencylab} sim --profile tgi-like --port {port} --max-num-seqs"
                + " {max_num_seqs} --max-batched-tokens {max_batched_tokens}");
    }

    @Test
    void builtInTemplatesAttachAndRateLevelsMapToTheEngineFields() {
        ServerBenchForm f = new ServerBenchForm();
        f.variants().get(0).sourceProperty().set("vllm");
        f.variants().get(0).modelProperty().set("meta-llama/Llama-2-7b-hf");
        f.variants().get(0).pricePerGpuHourProperty().set("2.5");
        f.variants().get(1).sourceProperty().set("attach");
        f.variants().get(1).commandProperty().set("http://gpu-box:8000");
        f.variants().get(2).sourceProperty().set("command");
        f.variants().get(2).commandProperty().set("llama-server -m {model} --port {port} --parallel {n}");
        f.variants().get(2).parametersProperty().set("n=1,2,4");
        f.levelAxisProperty().set("rate");
        f.levelsProperty().set("5, 10");
        f.rooflineGpuProperty().set(ServerBenchForm.NONE);
        f.pricePerGpuHourProperty().set("");
        ServerBenchSpec s = f.spec();
        assertThat(s.variants().get(0).template()).isEqualTo("vllm");
        assertThat(s.variants().get(0).model()).isEqualTo("meta-llama/Llama-2-7b-hf");
        assertThat(s.variants().get(0).pricePerGpuHour()).isEqualTo(2.5);
        assertThat(s.variants().get(0).combinations().get(0)).containsEntry("max_num_seqs", "256");
        assertThat(s.variants().get(1).attach()).isEqualTo("http://gpu-box:8000");
        assertThat(s.variants().get(2).launch()).contains("--parallel", "{n}");
        assertThat(s.variants().get(2).combinations()).hasSize(3);
        assertThat(s.load().rate()).isEqualTo(5.0);
        assertThat(s.sweep().rate()).containsExactly(5.0, 10.0);
        assertThat(s.roofline()).isNull();
        assertThat(s.pricePerGpuHour()).isNull();
        assertThat(f.variants().get(0).commandPreview()).startsWith("vllm serve {model}");
    }

    @Test
    void theEnginesMessagesShowNextToTheVariantTheLoadPlanOrTheBenchmark() {
        ServerBenchForm f = new ServerBenchForm();
        ServerVariantRow custom = f.variants().get(1);
        custom.sourceProperty().set("command");
        custom.commandProperty().set("my-server --port {port} --batch {batch}");
        f.variants().get(2).sourceProperty().set("attach");
        f.variants().get(2).commandProperty().set("gpu-box:8000");
        f.levelsProperty().set("8, lots");
        assertThat(f.validate()).isNull();
        assertThat(f.variants().get(0).errorProperty().get()).isEmpty();
        assertThat(custom.errorProperty().get()).isEqualTo("variant 'tgi-like': template placeholder {batch} is"
                + " unknown: set params.batch or grid.batch, or use one of {port}, {host}, {model}, {latencylab}");
        assertThat(f.variants().get(2).errorProperty().get())
                .isEqualTo("variant 'ollama-like': attach must be an http(s) URL, was 'gpu-box:8000'");
        assertThat(f.loadErrorProperty().get()).isEqualTo("load levels: 'lots' is not a whole number of workers");
        assertThat(f.summaryProperty().get()).isEmpty();
        assertThatThrownBy(f::spec).hasMessageContaining("{batch} is unknown");

        custom.parametersProperty().set("batch=16");
        f.variants().get(2).commandProperty().set("http://gpu-box:8000");
        f.levelsProperty().set("8");
        f.variants().get(2).nameProperty().set("vllm-like");
        assertThat(f.validate()).isNull();
        assertThat(custom.errorProperty().get()).isEmpty();
        assertThat(f.loadErrorProperty().get()).isEmpty();
        assertThat(f.benchErrorProperty().get()).isEqualTo("server-bench: two variants are named 'vllm-like'");

        f.variants().get(2).nameProperty().set("remote");
        f.durationProperty().set("ten seconds");
        assertThat(f.validate()).isNull();
        assertThat(f.benchErrorProperty().get()).isEmpty();
        assertThat(f.loadErrorProperty().get()).startsWith("duration: ");

        f.durationProperty().set("3s");
        f.sloMaxMsProperty().set("-5");
        assertThat(f.validate()).isNull();
        // the engine's own message for the SLO (one SLO type, stats.Slo), shown as it is
        String engine = org.assertj.core.api.Assertions.catchThrowable(
                () -> org.latencylab.engine.stats.Slo.ofMillis("ttft", null, -5.0)).getMessage();
        assertThat(f.loadErrorProperty().get()).isEqualTo(engine).contains("maxMs").contains("-5.0");

        f.sloMaxMsProperty().set("");
        ServerBenchSpec ok = f.validate();
        assertThat(ok).isNotNull();
        assertThat(ok.load().slos()).isNullOrEmpty();
        assertThat(f.loadErrorProperty().get()).isEmpty();
    }

    @Test
    void variantsAreAddedWithFreshNamesAndTheLastOneStays() {
        ServerBenchForm f = new ServerBenchForm();
        f.addVariant();
        assertThat(f.variants()).extracting(r -> r.nameProperty().get())
                .containsExactly("vllm-like", "tgi-like", "ollama-like", "variant-4");
        for (ServerVariantRow r : List.copyOf(f.variants())) {
            f.removeVariant(r);
        }
        assertThat(f.variants()).hasSize(1);
        assertThat(f.variants().get(0).nameProperty().get()).isEqualTo("variant-4");
    }
}
