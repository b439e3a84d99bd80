package org.latencylab.app.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A saturated client is said plainly, before any number, and no tier is presented as a verdict on the server. */
class ConsoleReportTrustTest {

    private static String print(RunResult r) {
        StringWriter s = new StringWriter();
        ConsoleReport.print(r, List.of(), new PrintWriter(s, true));
        return s.toString();
    }

    @Test
    void aSaturatedClientComesFirstAndTheTierIsNotAVerdict(@TempDir Path dir) throws Exception {
        RunSpec spec = new RunSpec("trust", TargetSpec.simulator("zero-latency"), ClientOptions.DEFAULTS, null,
                List.of(new ProbeSpec(20, 2, 32, 2, true, true, 0)), null, null, 1);
        RunResult real = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        assertThat(real).isNotNull();
        TrustCheck saturated = new TrustCheck(0.4, 38, 61, 5_000, 0.2, 1.1, 0.6, 97, true,
                "client saturated: latencies above P97 are not trustworthy; hiccup P99 = 38 ms");
        RunResult judged = new RunResult(real.name(), real.status(), real.failure(), real.runDirectory(),
                real.startedAt(), real.duration(), real.endpointDescription(), real.spec(), real.steps(),
                real.overall(), real.notices(), real.clockOrigin(), saturated);
        String out = print(judged);
        int message = out.indexOf("client saturated: latencies above P97 are not trustworthy; hiccup P99 = 38 ms");
        assertThat(message).isPositive();
        assertThat(out.indexOf("P95 TTFT")).isGreaterThan(message);
        assertThat(out).containsPattern("tier: Tier-\\d \\(P95 TTFT [^)]*\\) as measured, not a verdict on the server: the client was saturated");

        TrustCheck fine = new TrustCheck(0.06, 0.3, 1.2, 5_000, 0.2, 1.1, 0.3, 100, false,
                "client kept up: hiccup P99 = 0.30 ms, max 1.20 ms");
        String calm = print(new RunResult(real.name(), real.status(), real.failure(), real.runDirectory(),
                real.startedAt(), real.duration(), real.endpointDescription(), real.spec(), real.steps(),
                real.overall(), real.notices(), real.clockOrigin(), fine));
        assertThat(calm).doesNotContain("saturated").doesNotContain("not a verdict")
                .containsPattern("tier: Tier-\\d \\(P95 TTFT [^)]*\\); P95 ").contains("trust check: client kept up");
    }

    @Test
    void withSeveralStepsEachIsJudgedOnItsOwnAndOnlyTheSaturatedOnesTierIsQualified(@TempDir Path dir)
            throws Exception {
        RunSpec spec = new RunSpec("two-steps", TargetSpec.simulator("zero-latency"), ClientOptions.DEFAULTS, null,
                List.of(new ProbeSpec(10, 1, 32, 2, true, true, 0), new ProbeSpec(10, 1, 32, 2, true, true, 0)),
                null, null, 1);
        RunResult real = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        // the engine judged every step on its own, and run.json keeps each verdict
        assertThat(real.steps()).hasSize(2).allSatisfy(s -> assertThat(s.trust()).isNotNull());
        com.fasterxml.jackson.databind.JsonNode steps = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("run/run.json").toFile()).path("steps");
        assertThat(steps).hasSize(2).allSatisfy(st -> assertThat(st.path("trust").path("message").asText())
                .startsWith("client "));
        assertThat(StepCatalog.reader().open(dir.resolve("run")).steps())
                .allSatisfy(s -> assertThat(s.trust()).isNotNull());

        TrustCheck saturated = new TrustCheck(0.4, 38, 61, 5_000, 0.2, 1.1, 0.6, 97, true,
                "client saturated: latencies above P97 are not trustworthy; hiccup P99 = 38 ms");
        TrustCheck fine = new TrustCheck(0.06, 0.3, 1.2, 5_000, 0.2, 1.1, 0.3, 100, false,
                "client kept up: hiccup P99 = 0.30 ms, max 1.20 ms");
        List<RunResult.StepOutcome> judgedSteps = List.of(real.steps().get(0).withTrust(saturated),
                real.steps().get(1).withTrust(fine));
        RunResult judged = new RunResult(real.name(), real.status(), real.failure(), real.runDirectory(),
                real.startedAt(), real.duration(), real.endpointDescription(), real.spec(), judgedSteps,
                real.overall(), real.notices(), real.clockOrigin(), saturated);
        String out = print(judged);
        String first = out.substring(out.indexOf("== " + judgedSteps.get(0).label()),
                out.indexOf("== " + judgedSteps.get(1).label()));
        String second = out.substring(out.indexOf("== " + judgedSteps.get(1).label()));
        assertThat(first).contains("trust check, this step: client saturated")
                .containsPattern("tier: Tier-\\d \\(P95 TTFT [^)]*\\) as measured, not a verdict on the server");
        assertThat(second).contains("trust check, this step: client kept up").doesNotContain("not a verdict")
                .containsPattern("tier: Tier-\\d \\(P95 TTFT [^)]*\\); P95 ");

        // the HTML report reads the same verdicts from run.json and qualifies the same tier
        org.latencylab.engine.results.RunFiles.writeRunJson(dir.resolve("run"),
                org.latencylab.engine.results.RunFiles.finished(judged));
        String page = java.nio.file.Files.readString(HtmlReport.write(List.of(dir.resolve("run")), 0,
                dir.resolve("report.html")));
        String firstHtml = page.substring(page.indexOf("<h3>Step " + judgedSteps.get(0).label()),
                page.indexOf("<h3>Step " + judgedSteps.get(1).label()));
        String secondHtml = page.substring(page.indexOf("<h3>Step " + judgedSteps.get(1).label()));
        assertThat(firstHtml).contains("Trust check, this step:</b> client saturated")
                .containsPattern("Tier: Tier-\\d \\(P95 TTFT [^)]*\\) as measured, not a verdict on the server");
        assertThat(secondHtml).contains("Trust check, this step:</b> client kept up").doesNotContain("not a verdict");
    }
}
