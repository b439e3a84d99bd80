package org.latencylab.app.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run whose SLOs live in a step (a ranking) neither says "none set" nor names the unused run endpoint, in the
 * console summary and in the HTML report.
 */
class ConsoleReportStepSloTest {
    private static final String SCENARIO = """
            format: 1
            name: rank-only
            endpoint: {builtin: sim, profile: llama-8b-class}
            experiments:
              - type: compare-endpoints
                endpoints:
                  - {name: alpha, profile: zero-latency}
                  - {name: beta, profile: zero-latency}
                requests: 4
                promptTokens: 16
                maxOutputTokens: 2
                warmup: 0
                slos: [{metric: ttft, percentile: 95, maxMs: 500}]
            """;

    @Test
    void stepSlosAreListedAndTheHeaderNamesOnlyTheEndpointsUsed(@TempDir Path dir) throws Exception {
        RunSpec spec = StepCatalog.loader().parse(
                new ByteArrayInputStream(SCENARIO.getBytes(StandardCharsets.UTF_8)), "rank-only.yaml");
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        StringWriter s = new StringWriter();
        ConsoleReport.print(r, List.of(), new PrintWriter(s, true));
        String out = s.toString();
        assertThat(out).contains("LatencyLab — rank-only — endpoints alpha, beta — completed")
                .doesNotContain("llama-8b-class").doesNotContain("SLOs: none set")
                .contains("SLOs: no run-level SLO; judged per step, see above: 'compare-endpoints' (compare-endpoints)");

        // the HTML report's summary row reads the same from run.json
        Path html = HtmlReport.write(List.of(dir.resolve("run")), 0, dir.resolve("report.html"));
        String page = java.nio.file.Files.readString(html);
        String summary = page.substring(page.indexOf("<h2>Summary</h2>"), page.indexOf("</table>",
                page.indexOf("<h2>Summary</h2>")));
        assertThat(summary).contains("endpoints alpha, beta").doesNotContain("llama-8b-class")
                .doesNotContain("none set").contains("judged per step: compare-endpoints (compare-endpoints)");
    }

    @Test
    void theHtmlSummaryOfAProbeAndASweepShowsNoPooledTier(@TempDir Path dir) throws Exception {
        String scenario = """
                format: 1
                name: probe-and-sweep
                endpoint: {builtin: sim, profile: zero-latency}
                experiments:
                  - {type: probe, requests: 4, concurrency: 2, promptTokens: 16, maxOutputTokens: 2, warmup: 0}
                  - {type: sweep, contextTokens: [64, 256, 1024], requestsPerLength: 2, maxOutputTokens: 2, warmup: 0}
                """;
        RunSpec spec = StepCatalog.loader().parse(
                new ByteArrayInputStream(scenario.getBytes(StandardCharsets.UTF_8)), "probe-and-sweep.yaml");
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        Path html = HtmlReport.write(List.of(dir.resolve("run")), 0, dir.resolve("report.html"));
        String page = java.nio.file.Files.readString(html);
        String summary = page.substring(page.indexOf("<h2>Summary</h2>"), page.indexOf("</table>",
                page.indexOf("<h2>Summary</h2>")));
        // run.json's pooled summary carries a tier of all requests; the report's summary row must not show it
        String pooled = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("run/run.json").toFile()).path("summary").path("tier").asText();
        assertThat(pooled).startsWith("Tier-");
        assertThat(summary).contains("<td class=\"l\">per step</td>").doesNotContain(pooled);
        assertThat(page).contains("TTFT and E2E P95 here pool the measured requests of all a run's steps");
    }

    @Test
    void theHtmlReportGivesEachLoadStepTheConsolesLoadLine(@TempDir Path dir) throws Exception {
        String scenario = """
                format: 1
                name: open-and-closed
                endpoint: {builtin: sim, profile: zero-latency}
                experiments:
                  - {type: load, rate: 40, arrival: constant, duration: 1s, maxOutputTokens: 4}
                  - {type: load, concurrency: 3, duration: 1s, maxOutputTokens: 4}
                """;
        RunSpec spec = StepCatalog.loader().parse(new ByteArrayInputStream(scenario.getBytes(StandardCharsets.UTF_8)),
                "open-and-closed.yaml");
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        StringWriter console = new StringWriter();
        ConsoleReport.print(r, List.of(), new PrintWriter(console, true));
        Path html = HtmlReport.write(List.of(dir.resolve("run")), 0, dir.resolve("report.html"));
        String page = java.nio.file.Files.readString(html);
        String open = page.substring(page.indexOf("open loop: target 40.0 req/s,"));
        String closed = page.substring(page.indexOf("closed loop, 3 streams: achieved "));
        // the same line as on the console, from run.json: the achieved rate and the stop reason read back
        int lines = 0;
        for (String line : console.toString().split("\n")) {
            if (line.startsWith("open loop:") || line.startsWith("closed loop")) {
                assertThat(page).contains(line.strip());
                lines++;
            }
        }
        assertThat(lines).as("one load line per step on the console").isEqualTo(2);
        assertThat(open).contains("measured window (warmup/cooldown excluded)").contains("stopped: duration");
        assertThat(closed).contains("goodput").doesNotContain("target 0.0");
    }

    @Test
    void theHtmlReportGivesEachLoadStepTheConsolesRequestsLineWithItsCancelledCount(@TempDir Path dir)
            throws Exception {
        // the open loop's last requests (150 tokens, over 0.6 s each) are still in flight 300 ms after its 2 s
        // schedule, and are cancelled; the closed loop's think time is written as the console writes a duration
        String scenario = """
                format: 1
                name: cancelled-and-think
                endpoint: {builtin: sim, profile: small-fast}
                client: {totalTimeout: 30s, maxRetries: 0}
                experiments:
                  - {type: load, rate: 12, arrival: constant, duration: 2s, warmup: 0s, drainTimeout: 300ms,
                     contextTokens: 64, maxOutputTokens: 150}
                  - {type: load, concurrency: 2, thinkTime: 50ms, duration: 1s, warmup: 0s, maxOutputTokens: 4}
                """;
        RunSpec spec = StepCatalog.loader().parse(new ByteArrayInputStream(scenario.getBytes(StandardCharsets.UTF_8)),
                "cancelled-and-think.yaml");
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        long cancelled = r.steps().get(0).stats().cancelled();
        assertThat(cancelled).as("the open loop's last requests are cancelled").isPositive();
        assertThat(r.steps().get(0).stats().succeeded()).isPositive();
        StringWriter console = new StringWriter();
        ConsoleReport.print(r, List.of(), new PrintWriter(console, true));
        String page = java.nio.file.Files.readString(
                HtmlReport.write(List.of(dir.resolve("run")), 0, dir.resolve("report.html")));

        for (RunResult.StepOutcome step : r.steps()) {
            String text = console.toString();
            String consoleStep = text.substring(text.indexOf("== " + step.label() + " ("));
            consoleStep = consoleStep.substring(0, consoleStep.indexOf("\n\n") < 0 ? consoleStep.length()
                    : consoleStep.indexOf("\n\n"));
            int at = page.indexOf("<h3>Step " + step.label() + " (");
            int next = page.indexOf("<h3>", at + 1);
            String htmlStep = page.substring(at, next < 0 ? page.length() : next);
            // the same load line, requests line and cancelled note as the console, figure for figure
            List<String> shared = consoleStep.lines().filter(l -> l.startsWith("open loop:")
                    || l.startsWith("closed loop") || l.startsWith("requests:") || l.startsWith("note: the ")).toList();
            assertThat(shared).as(consoleStep).hasSizeGreaterThanOrEqualTo(2);
            for (String line : shared) {
                assertThat(htmlStep).as(step.label()).contains(line.replaceFirst("^note: ", ""));
            }
        }
        assertThat(console.toString()).contains("closed loop, 2 streams, think time 50.0 ms: achieved ")
                .contains(cancelled + " cancelled; ").contains("the " + cancelled + " cancelled requests are left out");
    }
}
