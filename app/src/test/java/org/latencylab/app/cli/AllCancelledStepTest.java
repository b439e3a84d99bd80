package org.latencylab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A load step whose every request was cancelled (its drain timeout) still has its SLO judged and said, everywhere
 * alike, and the run's lines call its requests cancelled, not failed.
 */
class AllCancelledStepTest {

    @Test
    void anSloWithNoRequestToJudgeIsSaidToFailOnTheConsoleInRunJsonAndInTheReport(@TempDir Path dir)
            throws Exception {
        // every request decodes 300 tokens (over 1.2 s): 100 ms after the 1 s schedule all are still in flight
        Path scenario = dir.resolve("all-cancelled.yaml");
        Files.writeString(scenario, """
                format: 1
                name: all-cancelled
                endpoint: {builtin: sim, profile: small-fast}
                client: {totalTimeout: 30s, maxRetries: 0}
                slos: [{metric: e2e, percentile: 50, maxMs: 3000}]
                experiments:
                  - {type: load, rate: 20, arrival: constant, duration: 1s, warmup: 0s, drainTimeout: 100ms,
                     contextTokens: 64, maxOutputTokens: 300}
                """);
        Path out = dir.resolve("run");
        CommandLineTest.Result r = CommandLineTest.run("run", scenario.toString(), "--out", out.toString(),
                "--no-charts");

        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        JsonNode summary = run.path("steps").get(0).path("summary");
        long sent = summary.path("sent").asLong();
        assertThat(summary.path("succeeded").asLong()).as(r.out()).isZero();
        assertThat(summary.path("failed").asLong()).isZero();
        assertThat(summary.path("cancelled").asLong()).isEqualTo(sent).isPositive();
        JsonNode slo = summary.path("slos").get(0);
        assertThat(slo.path("judged").asLong()).isZero();
        assertThat(slo.path("compliance").isNull()).as("a number or null, never the string NaN: " + slo).isTrue();
        assertThat(slo.path("passed").asBoolean()).isFalse();
        assertThat(run.path("slos_passed").asBoolean()).isFalse();

        // the console says the SLO failed, and that the requests were cancelled, not failed
        assertThat(r.out()).contains("SLO E2E P50 ≤ 3.00 s: no request to judge (all cancelled) → FAIL")
                .contains("with no request succeeded (0 failed, " + sent + " cancelled, of " + sent + ")")
                .doesNotContain("every request failed");
        assertThat(r.err()).contains("no request succeeded (" + sent + " of " + sent + " cancelled")
                .doesNotContain("see the errors above");

        // summarize and the report say the same
        assertThat(CommandLineTest.run("summarize", out.toString()).out())
                .contains("SLO E2E P50 ≤ 3.00 s: no request to judge (all cancelled) → FAIL");
        Path html = dir.resolve("report.html");
        CommandLineTest.Result rep = CommandLineTest.run("report", out.toString(), "--out", html.toString());
        assertThat(rep.code()).as(rep.out() + rep.err()).isZero();
        assertThat(Files.readString(html)).contains("≤ 3.00 s: no request to judge (all cancelled)");
    }

    @Test
    void summarizeOfARunWithEveryRequestCancelledExitsAndEndsAsTheRunDid(@TempDir Path dir) throws Exception {
        // every request decodes 300 tokens (over 1.2 s): 100 ms after the 1 s schedule all are still in flight
        Path scenario = dir.resolve("all-cancelled.yaml");
        Files.writeString(scenario, """
                format: 1
                name: all-cancelled
                endpoint: {builtin: sim, profile: small-fast}
                client: {totalTimeout: 30s, maxRetries: 0}
                slos: [{metric: e2e, percentile: 50, maxMs: 3000}]
                experiments:
                  - {type: load, rate: 20, arrival: constant, duration: 1s, warmup: 0s, drainTimeout: 100ms,
                     contextTokens: 64, maxOutputTokens: 300}
                """);
        Path out = dir.resolve("run");
        CommandLineTest.Result run = CommandLineTest.run("run", scenario.toString(), "--out", out.toString(),
                "--no-charts");
        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(ExitCodes.RUN_FAILED);

        CommandLineTest.Result again = CommandLineTest.run("summarize", out.toString());
        assertThat(again.code()).as(again.out() + again.err()).isEqualTo(ExitCodes.RUN_FAILED);
        // the same closing lines: the run directory and the run's verdict (an "SLOs: ..." line when the run prints
        // one), and on stderr the one line that says no request succeeded
        assertThat(closing(again.out())).isEqualTo(closing(run.out()));
        assertThat(again.err().lines().filter(l -> l.startsWith("latencylab: ")).toList())
                .isEqualTo(run.err().lines().filter(l -> l.startsWith("latencylab: ")).toList())
                .singleElement().asString().startsWith("latencylab: no request succeeded (");
    }

    /** @return the lines from "run directory:" to the end, the closing of a run's summary */
    private static java.util.List<String> closing(String out) {
        java.util.List<String> lines = out.lines().toList();
        int from = lines.indexOf(lines.stream().filter(l -> l.startsWith("run directory: ")).findFirst()
                .orElseThrow(() -> new AssertionError("no 'run directory:' line in:\n" + out)));
        return lines.subList(from, lines.size());
    }
}
