package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.CompareEndpointsSpec;
import org.latencylab.engine.compare.EndpointRanking;
import org.latencylab.engine.compare.TargetEntry;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The typed read model reads every run.json this LatencyLab ever wrote, from fixtures kept as test resources and
 * never regenerated: format 1 ({@code fixtures/run-format-1}), format 2 as first written (no environment, a trust
 * check of three figures: {@code fixtures/run-format-2-early}), today's format 2 (the golden file) and an imported
 * run ({@code fixtures/run-imported-vllm}), and a ranking whose endpoint entries once could not be read back
 * ({@code fixtures/run-ranking}). Each figure is checked against the file's own tree.
 */
class RunDocumentTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path fixture(Path tmp, String resource, String... files) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(Path.of(resource).getFileName().toString()));
        for (String f : files) {
            try (InputStream in = Objects.requireNonNull(RunDocumentTest.class.getResourceAsStream(resource + f), f)) {
                Files.copy(in, dir.resolve(f));
            }
        }
        return dir;
    }

    private static void summariesMatch(JsonNode stored, RunDocument.Summary s, String what) {
        assertThat(s.sent()).as(what + " sent").isEqualTo(stored.path("sent").asLong());
        assertThat(s.succeeded()).as(what + " succeeded").isEqualTo(stored.path("succeeded").asLong());
        assertThat(s.tier()).as(what + " tier").isEqualTo(stored.hasNonNull("tier") ? stored.get("tier").asText() : null);
        assertThat(s.metrics().keySet()).as(what + " metrics, in order")
                .containsExactlyElementsOf(() -> stored.path("metrics").fieldNames());
        stored.path("metrics").fields().forEachRemaining(m -> {
            for (JsonNode p : m.getValue().path("percentiles")) {
                RunDocument.Percentile read = s.percentile(m.getKey(), p.path("p").asDouble()).orElseThrow();
                assertThat(read.valueMs()).as(what + " " + m.getKey() + " P" + p.path("p").asText())
                        .isEqualTo(p.path("value_ms").asDouble());
                assertThat(read.upperMs()).isEqualTo(p.path("upper_ms").asDouble());
                assertThat(read.enoughSamples()).isEqualTo(p.path("enough_samples").asBoolean());
            }
        });
    }

    @Test
    void formatOneIsReadWithItsStepsResultsAndSummaries(@TempDir Path tmp) throws Exception {
        Path dir = fixture(tmp, "/fixtures/run-format-1/", RunLayout.RUN_JSON, RunLayout.REQUESTS_JSONL);
        JsonNode stored = JSON.readTree(RunLayout.runJson(dir).toFile());
        RunDocument d = RunDocument.read(dir, StepCatalog.types());
        assertThat(d.format()).isEqualTo(1);
        assertThat(d.name()).isEqualTo("fixture");
        assertThat(d.status()).isEqualTo("completed");
        assertThat(d.sourceTool()).isEqualTo(RunDocument.LATENCYLAB);
        assertThat(d.imported()).isNull();
        assertThat(d.trust()).as("format 1 predates the trust check").isNull();
        assertThat(d.environment().cpus()).isEqualTo(2);
        assertThat(d.environment().httpPath()).isNull();
        assertThat(d.environment().fields()).containsOnlyKeys("latencylab_version", "java_version", "java_vendor",
                "os", "arch", "cpus", "clock");
        assertThat(d.spec().experiments()).hasSize(2);
        assertThat(d.steps()).extracting(RunDocument.Step::label).containsExactly("probe", "load");
        assertThat(d.steps().get(0).spec()).isInstanceOf(ProbeSpec.class);
        assertThat(((ProbeSpec) d.steps().get(0).spec()).requests()).isEqualTo(6);
        LoadResult load = (LoadResult) d.steps().get(1).result();
        assertThat(load.totals().excluded()).isEqualTo(8);
        assertThat(d.steps().get(1).spec()).isInstanceOf(LoadSpec.class);
        assertThat(d.steps().get(1).ownSlos()).as("the load step has no SLO of its own")
                .isEqualTo(stored.path("steps").get(1).path("spec").path("slos").size() > 0);
        for (int i = 0; i < 2; i++) {
            summariesMatch(stored.path("steps").get(i).path("summary"), d.steps().get(i).summary(), "step " + i);
        }
        summariesMatch(stored.path("summary"), d.summary(), "run");
        assertThat(d.summary().wallSpanS()).isEqualTo(stored.path("summary").path("wall_span_s").asDouble());
        assertThat(d.summary().resent()).as("format 1 counted no re-sends").isZero();
        assertThat(d.summary().resendWastedMs()).isNaN();
        long[] lines = {0};
        d.forEachRequest(r -> lines[0]++);
        assertThat(lines[0]).isEqualTo(22);
    }

    @Test
    void formatTwoAsFirstWrittenReadsItsThreeFigureTrustCheck(@TempDir Path tmp) throws Exception {
        Path dir = fixture(tmp, "/fixtures/run-format-2-early/", RunLayout.RUN_JSON);
        JsonNode stored = JSON.readTree(RunLayout.runJson(dir).toFile());
        RunDocument d = RunDocument.read(dir, StepCatalog.types());
        assertThat(d.format()).isEqualTo(2);
        assertThat(d.environment()).as("no environment was written then").isNull();
        assertThat(d.trust().message()).isEqualTo("the client kept up");
        assertThat(d.trust().hiccupP99Ms()).isEqualTo(0.25);
        assertThat(d.trust().dispatchLagP99Ms()).isEqualTo(0.5);
        assertThat(d.trust().hiccupP50Ms()).as("not written then").isNaN();
        assertThat(d.trust().runQueueWaitMs()).isNaN();
        assertThat(d.trust().rule()).isNull();
        assertThat(d.steps().get(0).tier()).isEqualTo(stored.path("steps").get(0).path("tier").asText());
        assertThat(d.steps().get(1).tier()).as("a sweep is judged per length").isNull();
        SweepRunner.SweepResult sweep = (SweepRunner.SweepResult) d.steps().get(1).result();
        assertThat(sweep.points()).hasSize(stored.path("steps").get(1).path("result").path("points").size());
        assertThat(d.steps().get(1).parts().keySet())
                .containsExactlyElementsOf(() -> stored.path("steps").get(1).path("parts").fieldNames());
        summariesMatch(stored.path("steps").get(0).path("summary"), d.steps().get(0).summary(), "probe");
        assertThat(d.hasRequests()).isFalse();
        assertThat(d.requests()).isEmpty();
    }

    @Test
    void todaysFormatReadsEnvironmentAndTrustInFull(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("golden"));
        try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/golden/run.json"))) {
            Files.copy(in, RunLayout.runJson(dir));
        }
        JsonNode stored = JSON.readTree(RunLayout.runJson(dir).toFile());
        RunDocument d = RunDocument.read(dir, StepCatalog.types());
        assertThat(d.format()).isEqualTo(RunFiles.FORMAT);
        JsonNode t = stored.path("trust");
        assertThat(d.trust().saturated()).isEqualTo(t.path("saturated").asBoolean());
        assertThat(d.trust().rule()).isEqualTo(t.path("rule").asText());
        assertThat(d.trust().hiccupSamples()).isEqualTo(t.path("hiccup_samples").asLong());
        assertThat(d.slosPassed()).isEqualTo(stored.path("slos_passed").asBoolean());
        assertThat(d.startedInstant()).isEqualTo(java.time.Instant.parse(stored.path("started_at").asText()));
        assertThat(d.durationS()).isEqualTo(stored.path("duration_s").asDouble());
        summariesMatch(stored.path("summary"), d.summary(), "run");
    }

    @Test
    void aRankingRunReadsItsEndpointsBackAsTheyWereWritten(@TempDir Path tmp) throws Exception {
        // its entries carry proxyDelay 0s and the derived simulator/proxy flags, as every ranking's run.json does
        Path dir = fixture(tmp, "/fixtures/run-ranking/", RunLayout.RUN_JSON);
        JsonNode stored = JSON.readTree(RunLayout.runJson(dir).toFile());
        RunDocument d = RunDocument.read(dir, StepCatalog.types());
        RunDocument.Step step = d.steps().get(0);
        assertThat(step.ownSlos()).isTrue();
        CompareEndpointsSpec spec = (CompareEndpointsSpec) step.spec();
        assertThat(spec.endpoints()).extracting(TargetEntry::name).containsExactly("llama-8b", "small-fast",
                "small-fast-narrow");
        assertThat(spec.requests()).isEqualTo(20);
        EndpointRanking.Ranking ranking = ((CompareEndpointsRunner.CompareResult) step.result()).ranking();
        JsonNode rows = stored.path("steps").get(0).path("result").path("ranking").path("rows");
        assertThat(ranking.rows()).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertThat(ranking.rows().get(i).endpoint()).isEqualTo(rows.get(i).path("endpoint").asText());
            assertThat(ranking.rows().get(i).ttftP95().valueNanos())
                    .isEqualTo(rows.get(i).path("ttftP95").path("valueNanos").asLong());
        }
        assertThat(step.parts().keySet()).containsExactlyElementsOf(
                () -> stored.path("steps").get(0).path("parts").fieldNames());
    }

    @Test
    void anImportedRunSaysWhereItCameFromAndWhatItLacks(@TempDir Path tmp) throws Exception {
        Path dir = fixture(tmp, "/fixtures/run-imported-vllm/", RunLayout.RUN_JSON);
        JsonNode stored = JSON.readTree(RunLayout.runJson(dir).toFile());
        RunDocument d = RunDocument.read(dir, StepCatalog.types());
        assertThat(d.sourceTool()).isEqualTo("vllm-bench");
        assertThat(d.imported().sourceFile()).isEqualTo("vllm-bench-serve-detailed.json");
        assertThat(d.imported().importedFrom()).isEqualTo("vLLM bench serve");
        assertThat(d.missingMetrics()).containsExactly("ttfb", "time_to_first_content", "dispatch_lag",
                "requests_per_s");
        assertThat(d.imported().notes()).hasSize(stored.path("notes").size()).isNotEmpty();
        assertThat(d.spec()).as("an imported run has no LatencyLab spec").isNull();
        assertThat(d.steps()).allMatch(s -> s.type().equals("import") && s.spec() == null && s.result() == null);
        assertThat(d.percentile("ttft", 50).orElseThrow().valueMs()).isEqualTo(118.0);
        summariesMatch(stored.path("summary"), d.summary(), "imported");
    }

    @Test
    void aFileThatIsNotJsonIsNamedWithLineAndColumn(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("broken"));
        Files.writeString(RunLayout.runJson(dir), "{\n  \"format\": 2,\n  \"name\": \"x\",,\n}\n");
        assertThatThrownBy(() -> RunDocument.read(dir, StepCatalog.types()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(RunLayout.runJson(dir) + ": line 3, column 15: ")
                .message().doesNotContain("\n").doesNotContain("Source");
    }

    @Test
    void aNewerFormatOrNoRunDirectoryIsRefusedInWords(@TempDir Path tmp) throws Exception {
        assertThatThrownBy(() -> RunDocument.read(tmp, StepCatalog.types()))
                .hasMessage(tmp + ": not a run directory (no run.json)");
        assertThatThrownBy(() -> RunDocument.parse(tmp, "{\"format\": " + (RunFiles.FORMAT + 1) + "}",
                StepCatalog.types())).hasMessageContaining("run.json format " + (RunFiles.FORMAT + 1)
                + " is newer than this LatencyLab reads (up to " + RunFiles.FORMAT + ")");
        assertThatThrownBy(() -> RunDocument.parse(tmp, "{\"name\": \"x\"}", StepCatalog.types()))
                .hasMessageContaining("field 'format' must be a run.json format number");
        assertThatThrownBy(() -> RunDocument.parse(tmp, "{\"format\": 2, \"summary\": {\"sent\": \"many\"}}",
                StepCatalog.types())).hasMessageContaining("field 'summary'");
    }

    @Test
    void everyFileARunWritesIsNamedByTheLayout() {
        for (String f : List.of(RunLayout.RUN_JSON, RunLayout.RUN_JSON_TMP, RunLayout.REQUESTS_JSONL,
                RunLayout.SUMMARY_CSV, "load.ttft" + RunLayout.HLOG_SUFFIX, "cdf-probe.png")) {
            assertThat(RunLayout.isRunFile(f)).as(f).isTrue();
        }
        assertThat(RunLayout.isRunFile(RunLayout.APP_JSON)).as("the app's own file is not the run's").isFalse();
        assertThat(RunLayout.monitorState(Path.of("d"), "monitor")).isEqualTo(Path.of("d", "monitor.json"));
    }
}
