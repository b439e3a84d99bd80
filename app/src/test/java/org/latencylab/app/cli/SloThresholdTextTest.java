package org.latencylab.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An SLO threshold reads the same on the console, in {@code summarize} and in the HTML report (3,000 ms as
 * {@code 3.00 s}), and a threshold below 0.01 ms keeps its digits ({@code 0.001 ms}, not {@code 0.00 ms}).
 */
class SloThresholdTextTest {
    @Test
    void consoleSummaryAndReportWriteAThresholdAlike(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("slo-text.yaml");
        Files.writeString(scenario, """
                format: 1
                name: slo-text
                endpoint: {builtin: sim, profile: zero-latency}
                slos:
                  - {metric: e2e, percentile: 95, maxMs: 3000}
                  - {metric: ttft, percentile: 95, maxMs: 0.001}
                experiments:
                  - {type: probe, requests: 6, concurrency: 2, promptTokens: 16, maxOutputTokens: 2, warmup: 0}
                """);
        Path out = dir.resolve("run");
        CommandLineTest.Result r = CommandLineTest.run("run", scenario.toString(), "--out", out.toString(),
                "--no-charts");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(r.out()).contains("SLO E2E P95 ≤ 3.00 s: 100.0 % of 6 requests met it → pass")
                .contains("SLO TTFT P95 ≤ 0.001 ms: ").doesNotContain("≤ 0.00 ms");

        CommandLineTest.Result again = CommandLineTest.run("summarize", out.toString());
        assertThat(again.out()).as(again.err()).contains("SLO E2E P95 ≤ 3.00 s: ").contains("SLO TTFT P95 ≤ 0.001 ms: ");

        Path html = dir.resolve("report.html");
        CommandLineTest.Result report = CommandLineTest.run("report", out.toString(), "-o", html.toString());
        assertThat(report.code()).as(report.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("SLO P95 E2E ≤ 3.00 s: compliance").contains("SLO P95 TTFT ≤ 0.001 ms: compliance")
                .doesNotContain("≤ 3000 ms");
    }

    @Test
    void aTinyThresholdGivenWithSloOnTheProbeCommandKeepsItsDigits(@TempDir Path dir) {
        CommandLineTest.Result r = CommandLineTest.run("probe", "--sim", "zero-latency", "-n", "4",
                "--slo", "ttft:95:0.001", "--out", dir.resolve("probe").toString(), "--no-charts");
        assertThat(r.out()).as(r.err()).contains("SLO TTFT P95 ≤ 0.001 ms: ").doesNotContain("≤ 0.00 ms");
    }

    @Test
    void aProbeSloThresholdIsMillisecondsOrADurationThatSaysItsUnit() {
        var slos = TargetOptions.stats(java.util.List.of("ttft:95:500", "ttft:99:500ms", "e2e:95:1.5s")).slos();
        assertThat(slos).extracting(org.latencylab.engine.stats.Slo::thresholdNanos)
                .containsExactly(500_000_000L, 500_000_000L, 1_500_000_000L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TargetOptions.stats(java.util.List.of("ttft:x:500")))
                .hasMessageContaining("--slo 'ttft:x:500': the percentile must be a number");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TargetOptions.stats(java.util.List.of("ttft:95:fast")))
                .hasMessageStartingWith("--slo 'ttft:95:fast': expected a duration like");
    }
}
