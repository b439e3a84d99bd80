package org.latencylab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A notice is said once: by {@code run} on stderr as it is raised, not again in the summary on stdout; a run read
 * back ({@code summarize}) prints each under the step that raised it. The drain timeout's cancellation notice counts
 * what the step's own line counts.
 */
class NoticesOnceTest {
    private static final Pattern DRAIN = Pattern.compile(
            "load step 'load': (\\d+) requests? (?:was|were) cancelled: still in flight 100 ms \\(drainTimeout\\)");

    @Test
    void theDrainNoticeOfAFirstLoadStepStaysWithThatStepAndItsCount(@TempDir Path dir) throws Exception {
        // the first step's requests decode 300 tokens (over 1.2 s): at the end of its 1 s schedule plus 100 ms
        // of drain they are still in flight and are cancelled; the second step is calm
        Path scenario = dir.resolve("two-steps.yaml");
        Files.writeString(scenario, """
                format: 1
                name: two-steps
                endpoint: {builtin: sim, profile: small-fast}
                client: {totalTimeout: 30s, maxRetries: 0}
                experiments:
                  - {type: load, rate: 40, arrival: constant, duration: 1s, warmup: 0s, drainTimeout: 100ms,
                     contextTokens: 64, maxOutputTokens: 300}
                  - {type: load, rate: 5, arrival: constant, duration: 1s, warmup: 0s, contextTokens: 64,
                     maxOutputTokens: 4}
                """);
        Path out = dir.resolve("run");
        CommandLineTest.Result r = CommandLineTest.run("run", scenario.toString(), "--out", out.toString(),
                "--no-charts");
        assertThat(r.code()).as(r.out() + r.err()).isZero();

        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        JsonNode first = run.path("steps").get(0);
        long cancelled = first.path("summary").path("cancelled").asLong();
        assertThat(cancelled).as(r.err()).isPositive();
        // the notice, once on stderr, with the first step's count; the summary on stdout does not repeat it
        Matcher m = DRAIN.matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        assertThat(Long.parseLong(m.group(1))).isEqualTo(cancelled);
        assertThat(m.find()).as("said once").isFalse();
        assertThat(r.out()).doesNotContain("drainTimeout").doesNotContain("note: load step");
        assertThat(r.out()).contains(cancelled + " cancelled");

        // run.json keeps it run-level and with the step that raised it
        assertThat(first.path("notices").toString()).containsPattern(DRAIN);
        assertThat(run.path("steps").get(1).has("notices")).isFalse();
        assertThat(run.path("notices").toString()).containsPattern(DRAIN);

        // read back, it is printed under the first step, not after the last
        CommandLineTest.Result again = CommandLineTest.run("summarize", out.toString());
        String summary = again.out();
        int firstStep = summary.indexOf("== load (load)");
        int secondStep = summary.indexOf("== load2 (load)");
        Matcher n = DRAIN.matcher(summary);
        assertThat(n.find()).as(summary).isTrue();
        assertThat(List.of(firstStep, n.start(), secondStep)).as(summary).isSorted().doesNotContain(-1);
        assertThat(Long.parseLong(n.group(1))).isEqualTo(cancelled);
        assertThat(n.find()).as("said once").isFalse();
    }

    @Test
    void arrivalsLeftWaitingAtTheStepsOwnCapAreSaidToWaitAtThatCap(@TempDir Path dir) throws Exception {
        // one request in flight at a time, each decoding 100 tokens, at 100 arrivals/s: most wait at the cap
        Path scenario = dir.resolve("capped.yaml");
        Files.writeString(scenario, """
                format: 1
                name: capped
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: load, rate: 100, arrival: constant, duration: 1s, warmup: 0s, maxInFlight: 1,
                     contextTokens: 64, maxOutputTokens: 100}
                """);
        CommandLineTest.Result r = CommandLineTest.run("run", scenario.toString(), "--out",
                dir.resolve("run").toString(), "--no-charts");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        java.util.regex.Matcher m = Pattern.compile("load step 'load': (\\d+) arrivals? (?:was|were) still waiting at"
                + " the maxInFlight cap when the duration ended; counted as dropped").matcher(r.err());
        assertThat(m.find()).as(r.err()).isTrue();
        assertThat(r.err()).doesNotContain("at a cap");
        // the notice counts what the step's totals count as dropped
        JsonNode totals = new ObjectMapper().readTree(dir.resolve("run/run.json").toFile()).path("steps").get(0)
                .path("result").path("totals");
        assertThat(Long.parseLong(m.group(1))).as(totals.toString()).isEqualTo(totals.path("dropped").asLong());
    }

    @Test
    void theNoticeThatOpeningConnectionsFailedIsPrintedOnceOnStderr(@TempDir Path dir) throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort(); // nothing listens there once it is closed
        }
        Path scenario = dir.resolve("no-server.yaml");
        Files.writeString(scenario, """
                format: 1
                name: no-server
                endpoint: {name: nothing, protocol: openai-chat, baseUrl: "http://127.0.0.1:%d", model: m}
                client: {connectTimeout: 1s, totalTimeout: 2s, maxRetries: 0}
                experiments:
                  - {type: load, concurrency: 2, duration: 500ms, contextTokens: 16, maxOutputTokens: 2}
                """.formatted(closedPort));
        CommandLineTest.Result r = CommandLineTest.run("run", scenario.toString(), "--out",
                dir.resolve("run").toString(), "--no-charts");
        String notice = "of the requests that open connections before step 'load' failed";
        assertThat(r.err().split(Pattern.quote(notice), -1)).as(r.err()).hasSize(2);
        assertThat(r.out()).doesNotContain(notice);
    }
}
