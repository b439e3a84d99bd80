package org.latencylab.engine.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadTotals;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.results.RunLayout;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Replays of trace files written here, through the scenario reader and run engine, against the built-in simulator. */
class ReplayStepRunnerTest {
    @TempDir
    Path dir;

    private RunResult run(String experiment) throws Exception {
        RunSpec spec = StepCatalog.loader().parse(new ByteArrayInputStream(("""
                format: 1
                name: replay
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - %s
                """.formatted(experiment)).getBytes(StandardCharsets.UTF_8)), "replay.yaml");
        return StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE).await(Duration.ofSeconds(90));
    }

    @Test
    void aMooncakeTraceIsSentAtItsTimesScaledBySpeedWithItsOwnLengths() throws Exception {
        Path trace = dir.resolve("t.jsonl");
        // 120 requests over 24 s of trace time: bursts of 4 every 800 ms, lengths cycling through 5 values
        int[] lengths = {40, 300, 90, 1200, 16};
        try (BufferedWriter w = Files.newBufferedWriter(trace)) {
            for (int i = 0; i < 120; i++) {
                long ms = (i / 4) * 800L + (i % 4) * 5L;
                w.write("{\"timestamp\": " + ms + ", \"input_length\": " + lengths[i % 5] + ", \"output_length\": "
                        + (2 + i % 3) + "}\n");
            }
            w.write("{\"timestamp\": 24000, \"input_length\": 0, \"output_length\": 3}\n"); // skipped: length 0
        }
        RunResult run = run("{type: replay, file: '" + trace + "', speed: 8}");
        assertThat(run.status()).as("failure: %s", run.failure()).isEqualTo(RunResult.Status.COMPLETED);
        LoadTotals t = ((LoadResult) run.steps().get(0).result()).totals();
        assertThat(t.sent()).isEqualTo(120).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
        assertThat(run.notices()).anyMatch(n -> n.contains("1 malformed or out-of-order record of t.jsonl skipped;"
                + " first: t.jsonl: line 121: field 'input_length': a token count must be >= 1, was 0"));

        List<RequestRecord> logged = RequestLog.read(dir.resolve("run").resolve(RunLayout.REQUESTS_JSONL)).stream()
                .sorted(Comparator.comparingLong(RequestRecord::intendedStartNanos)).toList();
        assertThat(logged).hasSize(120);
        long origin = logged.get(0).intendedStartNanos();
        for (int i = 0; i < logged.size(); i++) {
            RequestRecord r = logged.get(i);
            long traced = ((i / 4) * 800L + (i % 4) * 5L) * 1_000_000L / 8;
            // the intended start is the trace's time over the speed-up, to rounding
            assertThat(Math.abs(r.intendedStartNanos() - origin - traced)).as("request %d", i).isLessThan(2);
            assertThat(r.sendNanos()).isGreaterThanOrEqualTo(r.intendedStartNanos());
        }
        // each request carries its own traced length (bursts keep their order: the 4 of a burst are 5 ms apart)
        assertThat(logged).extracting(RequestRecord::contextTokens).containsExactlyInAnyOrderElementsOf(
                java.util.stream.IntStream.range(0, 120).map(i -> lengths[i % 5]).boxed().toList());
        // schedule fidelity (send − intended) is reported as the step's dispatch lag
        assertThat(t.dispatchLag().count()).isEqualTo(120);
        assertThat(t.dispatchLag().p99Ms()).isNotNull();
    }

    @Test
    void aRateRescalesTheTraceAndADurationCutsItWithANotice() throws Exception {
        Path trace = dir.resolve("burst.csv");
        try (BufferedWriter w = Files.newBufferedWriter(trace)) {
            w.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n");
            for (int i = 0; i < 200; i++) { // one request a second for 200 s
                w.write(i + ",ChatGPT,64,4,68,Conversation log\n");
            }
        }
        RunResult run = run("{type: replay, file: '" + trace + "', rate: 40, duration: 100s}");
        assertThat(run.status()).as("failure: %s", run.failure()).isEqualTo(RunResult.Status.COMPLETED);
        LoadTotals t = ((LoadResult) run.steps().get(0).result()).totals();
        assertThat(t.sent()).isEqualTo(100);
        assertThat(run.notices()).anyMatch(n -> n.contains("the trace is longer than the window asked: 100 later"
                + " requests of burst.csv not sent"));
        List<RequestRecord> logged = RequestLog.read(dir.resolve("run").resolve(RunLayout.REQUESTS_JSONL));
        long first = logged.stream().mapToLong(RequestRecord::intendedStartNanos).min().orElseThrow();
        long last = logged.stream().mapToLong(RequestRecord::intendedStartNanos).max().orElseThrow();
        // 99 gaps of 1 s rescaled to 40 req/s: 2.475 s
        assertThat((last - first) / 1e9).isBetween(2.474, 2.476);
    }

    @Test
    void aTraceWithNothingInTheWindowFailsTheStepWithAOneLineMessage() throws Exception {
        Path trace = dir.resolve("short.jsonl");
        Files.writeString(trace, "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1}\n");
        RunResult run = run("{type: replay, file: '" + trace + "', start: 10s}");
        assertThat(run.status()).isNotEqualTo(RunResult.Status.COMPLETED);
        assertThat(String.valueOf(run.failure())).contains("short.jsonl: no valid request in the window asked (check"
                + " start and duration): nothing to replay").doesNotContain("\n");
    }
}
