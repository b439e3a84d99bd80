package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A run directory reopened by the engine shows exactly what the run concluded (the same code summarises requests
 * live and from {@code requests.jsonl}), judged with the settings it ran with; a killed run is recovered; files of
 * a newer format are refused with a message. Real runs against the built-in simulator over loopback HTTP.
 */
class RunReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A tier table nobody would choose by default: every simulated TTFT lands in "slow". */
    static final StatsSettings OWN_TIERS = new StatsSettings(null,
            List.of(new StatsSettings.TierLevel("instant", 0.001), new StatsSettings.TierLevel("slow", null)),
            List.of(org.latencylab.engine.stats.Slo.ofMillis("ttft", 95.0, 5000.0)));

    /** A probe, a sweep fitted with an offset and an open-loop load step with warmup, as one run. */
    static RunSpec threeSteps(StatsSettings stats) {
        return new RunSpec("three-steps", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, stats,
                List.of(new ProbeSpec(20, 4, 64, 4, true, true, 0),
                        new SweepSpec(List.of(128, 512, 2048, 8192), 4, 4, 4, true, true, List.of(16384), 0),
                        LoadSpec.builder().rate(30.0).arrival(ArrivalProcess.CONSTANT).duration(Duration.ofSeconds(3))
                                .warmup(Duration.ofSeconds(1)).contextTokens(64).maxOutputTokens(4).stream(true)
                                .build()),
                null, null, 11);
    }

    static RunResult run(RunSpec spec, Path dir) throws InterruptedException {
        RunResult r = StepCatalog.engine().start(spec, dir, null).await(Duration.ofSeconds(120));
        assertThat(r).as("run finished in time").isNotNull();
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        return r;
    }

    @Test
    void aReopenedRunShowsExactlyWhatTheRunConcluded(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        RunResult live = run(threeSteps(OWN_TIERS), dir);
        RunResult reopened = StepCatalog.reader().open(dir);

        assertThat(reopened.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(reopened.spec().stats()).isEqualTo(OWN_TIERS);
        assertThat(reopened.steps()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            RunResult.StepOutcome a = live.steps().get(i);
            RunResult.StepOutcome b = reopened.steps().get(i);
            assertThat(b.label()).isEqualTo(a.label());
            assertThat(b.stats()).as(a.label() + " summary").isEqualTo(a.stats());
            assertThat(b.parts()).as(a.label() + " parts").isEqualTo(a.parts());
            assertThat(b.perSecond()).as(a.label() + " per second").isEqualTo(a.perSecond());
            assertThat(b.cdfs()).as(a.label() + " distributions").isEqualTo(a.cdfs());
            assertThat(b.result()).as(a.label() + " result").isEqualTo(a.result());
            assertThat(b.live()).isFalse();
        }
        assertThat(reopened.overall()).isEqualTo(live.overall());

        // the probe is judged with the run's own tier table and SLO
        assertThat(reopened.steps().get(0).stepTier().name()).isEqualTo("slow");
        assertThat(reopened.steps().get(0).stats().sloResults()).singleElement()
                .satisfies(s -> assertThat(s.passed()).isTrue());
        // the sweep is judged per length: no pooled tier, four parts, the fit with its offset
        RunResult.StepOutcome sweep = reopened.steps().get(1);
        assertThat(sweep.stepTier()).isNull();
        assertThat(sweep.parts()).containsOnlyKeys("sweep-128", "sweep-512", "sweep-2048", "sweep-8192");
        SweepRunner.SweepResult sw = (SweepRunner.SweepResult) sweep.result();
        assertThat(sw.fitP50()).isNotNull();
        assertThat(sw.fitP50().withOffset()).as("fitOffset: true fits c + a·n^α").isTrue();
        JsonNode runJson = JSON.readTree(dir.resolve(RunLayout.RUN_JSON).toFile());
        assertThat(runJson.path("steps").get(1).has("tier")).isFalse();
        assertThat(runJson.path("steps").get(1).path("summary").has("tier")).isFalse();
        assertThat(runJson.path("steps").get(0).path("tier").asText()).isEqualTo("slow");

        // the load step leaves its warmup out, exactly as many as the file says
        List<RequestRecord> lines = RequestLog.read(dir.resolve(RunLayout.REQUESTS_JSONL));
        List<RequestRecord> load = lines.stream().filter(r -> r.step().equals("load")).toList();
        long warmup = load.stream().filter(r -> r.phase() == Phase.WARMUP).count();
        assertThat(warmup).as("warmup requests in the log").isGreaterThan(10);
        assertThat(reopened.steps().get(2).stats().sent()).isEqualTo(load.size() - warmup);
        assertThat(((LoadResult) reopened.steps().get(2).result()).totals().excluded()).isEqualTo(warmup);
        assertThat(lines).allMatch(r -> !r.label().contains("#"));
    }

    @Test
    void aReopenedRunKeepsItsTierTableAndReJudgingIsExplicit(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        RunSpec probeOnly = new RunSpec("own-tiers", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                OWN_TIERS, List.of(new ProbeSpec(12, 4, 64, 4, true, true, 0)), null, null, 3);
        run(probeOnly, dir);
        // whatever the app's settings are now, opening shows the run's own verdicts
        RunResult own = StepCatalog.reader().open(dir);
        assertThat(own.steps().get(0).stepTier().name()).isEqualTo("slow");
        assertThat(own.notices()).noneMatch(n -> n.startsWith("re-judged"));

        RunResult rejudged = StepCatalog.reader().rejudge(dir, StatsSettings.DEFAULTS);
        assertThat(rejudged.steps().get(0).stepTier().name()).startsWith("Tier-");
        assertThat(rejudged.steps().get(0).stats().sloResults()).isEmpty();
        assertThat(rejudged.notices()).anyMatch(n -> n.startsWith("re-judged with the current settings")
                && n.contains("own tier table") && n.contains("1 SLO"));
        // re-judging writes nothing: the run keeps its own verdicts on disk
        assertThat(StepCatalog.reader().open(dir).steps().get(0).stepTier().name()).isEqualTo("slow");
    }

    @Test
    void aRunKilledWhileRunningIsRecoveredFromItsRequests(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        RunSpec longProbe = new RunSpec("killed", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                StatsSettings.DEFAULTS, List.of(new ProbeSpec(100_000, 4, 64, 4, true, true, 0)), null, null, 5);
        RunHandle h = StepCatalog.engine().start(longProbe, dir, null);
        Path log = dir.resolve(RunLayout.REQUESTS_JSONL);
        long until = System.currentTimeMillis() + 30_000;
        while ((!Files.exists(log) || Files.readAllLines(log).size() < 25) && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        // the files as `kill -9` leaves them: run.json says "running", requests.jsonl holds what finished, and
        // the last line may be torn
        Path killed = tmp.resolve("killed");
        Files.createDirectories(killed);
        Files.copy(dir.resolve(RunLayout.RUN_JSON), killed.resolve(RunLayout.RUN_JSON));
        Files.copy(log, killed.resolve(RunLayout.REQUESTS_JSONL));
        h.cancel();
        h.await(Duration.ofSeconds(20));
        Files.writeString(killed.resolve(RunLayout.REQUESTS_JSONL), "{\"id\":99999,\"label\":\"pro",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        assertThat(JSON.readTree(killed.resolve(RunLayout.RUN_JSON).toFile()).path("status").asText())
                .isEqualTo("running");
        long complete = RequestLog.read(killed.resolve(RunLayout.REQUESTS_JSONL)).size();
        assertThat(complete).isGreaterThanOrEqualTo(20);

        RunResult r = StepCatalog.reader().recover(killed);
        assertThat(r.status()).isEqualTo(RunResult.Status.INTERRUPTED);
        assertThat(r.steps()).singleElement().satisfies(s -> {
            assertThat(s.stats().sent()).isEqualTo(complete);
            assertThat(s.result()).isNull();
        });
        assertThat(r.notices()).anyMatch(n -> n.startsWith("interrupted: the process ended while the run was going")
                && n.contains(complete + " requests"));
        JsonNode written = JSON.readTree(killed.resolve(RunLayout.RUN_JSON).toFile());
        assertThat(written.path("status").asText()).isEqualTo("interrupted");
        assertThat(written.path("format").asInt()).isEqualTo(RunFiles.FORMAT);
        assertThat(written.path("summary").path("sent").asLong()).isEqualTo(complete);
        assertThat(written.path("spec").path("target").path("profile").asText()).isEqualTo("small-fast");
        assertThat(Files.readAllLines(killed.resolve(RunLayout.SUMMARY_CSV)).get(1)).startsWith("probe,ttft,"
                + complete + ",");
        // recovering twice changes nothing
        assertThat(StepCatalog.reader().recover(killed).steps().get(0).stats()).isEqualTo(r.steps().get(0).stats());
    }

    @Test
    void filesOfANewerFormatAreRefusedWithAMessage(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        run(new RunSpec("fmt", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, null,
                List.of(new ProbeSpec(3, 1, 32, 2, true, true, 0)), null, null, 1), dir);
        ObjectNode runJson = (ObjectNode) JSON.readTree(dir.resolve(RunLayout.RUN_JSON).toFile());
        runJson.put("format", RunFiles.FORMAT + 1);
        JSON.writeValue(dir.resolve(RunLayout.RUN_JSON).toFile(), runJson);
        assertThatThrownBy(() -> StepCatalog.reader().open(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run.json format " + (RunFiles.FORMAT + 1) + " is newer than this LatencyLab"
                        + " reads (up to " + RunFiles.FORMAT + ")");
        runJson.remove("format");
        JSON.writeValue(dir.resolve(RunLayout.RUN_JSON).toFile(), runJson);
        assertThatThrownBy(() -> StepCatalog.reader().open(dir)).hasMessageContaining("field 'format'");
        runJson.put("format", RunFiles.FORMAT);
        JSON.writeValue(dir.resolve(RunLayout.RUN_JSON).toFile(), runJson);

        Path log = dir.resolve(RunLayout.REQUESTS_JSONL);
        List<String> lines = Files.readAllLines(log);
        assertThat(lines.get(0)).isEqualTo("{\"requests_format\":" + RequestLog.FORMAT + "}");
        lines.set(0, "{\"requests_format\":" + (RequestLog.FORMAT + 1) + "}");
        Files.write(log, lines);
        assertThatThrownBy(() -> StepCatalog.reader().open(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(log + ":1: requests format " + (RequestLog.FORMAT + 1) + " is newer");
    }
}
