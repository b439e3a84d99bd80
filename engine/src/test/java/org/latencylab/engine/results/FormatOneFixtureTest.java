package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run directory written in format 1 (run.json {@code "format": 1}, requests.jsonl without a header line, warmup
 * marked by the label suffix {@code #warmup}) is kept under {@code src/test/resources/fixtures/run-format-1} and
 * must be read, with the numbers it concluded, by every later LatencyLab. Never regenerate the fixture.
 */
class FormatOneFixtureTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FIXTURE = "/fixtures/run-format-1/";

    @Test
    void aFormatOneRunDirectoryIsReadWithTheNumbersItConcluded(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("run-format-1"));
        for (String f : List.of(RunLayout.RUN_JSON, RunLayout.REQUESTS_JSONL)) {
            try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream(FIXTURE + f), f)) {
                Files.copy(in, dir.resolve(f));
            }
        }
        JsonNode stored = JSON.readTree(dir.resolve(RunLayout.RUN_JSON).toFile());
        assertThat(stored.path("format").asInt()).isEqualTo(1);
        assertThat(Files.readAllLines(dir.resolve(RunLayout.REQUESTS_JSONL)).get(0)).doesNotContain("requests_format");

        List<RequestRecord> lines = RequestLog.read(dir.resolve(RunLayout.REQUESTS_JSONL));
        assertThat(lines).hasSize(22);
        assertThat(lines).allMatch(r -> !r.label().contains("#"));
        assertThat(lines.stream().filter(r -> r.phase() == Phase.WARMUP).count()).isEqualTo(8);

        RunResult r = StepCatalog.reader().open(dir);
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(r.steps()).extracting(RunResult.StepOutcome::label).containsExactly("probe", "load");
        for (int i = 0; i < 2; i++) {
            JsonNode summary = stored.path("steps").get(i).path("summary");
            RunResult.StepOutcome s = r.steps().get(i);
            assertThat(s.stats().sent()).as(s.label() + " sent").isEqualTo(summary.path("sent").asLong());
            assertThat(s.stats().tier().name()).isEqualTo(summary.path("tier").asText()).isEqualTo("slow");
            for (String metric : List.of("ttft", "e2e", "itl")) {
                JsonNode p = summary.path("metrics").path(metric).path("percentiles");
                for (JsonNode e : p) {
                    assertThat(s.stats().summary(metric).orElseThrow().pMillis(e.path("p").asDouble()))
                            .as(s.label() + " " + metric + " P" + e.path("p").asText())
                            .isEqualTo(e.path("value_ms").asDouble());
                }
            }
        }
        // the load step's warmup stays out, as format 1 concluded
        LoadResult load = (LoadResult) r.steps().get(1).result();
        assertThat(load.totals().excluded()).isEqualTo(8);
        assertThat(r.steps().get(1).stats().sent()).isEqualTo(8);
        assertThat(r.overall().sent()).isEqualTo(stored.path("summary").path("sent").asLong());
    }
}
