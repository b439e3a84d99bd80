package org.latencylab.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** import, compare, lens, slo and report, run in-process through picocli on real files and a real run. */
class WorkflowCommandsTest {
    private static CommandLineTest.Result run(String... args) {
        return CommandLineTest.run(args);
    }

    private static Path imports() {
        return CommandLineTest.repo().resolve("sample-data/imports");
    }

    @Test
    void summarizeTellsAMissingFolderFromAFolderWithoutARun(@TempDir Path dir) {
        CommandLineTest.Result missing = run("summarize", dir.resolve("nothere").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(missing.err()).contains(dir.resolve("nothere") + ": no such directory");
        CommandLineTest.Result empty = run("summarize", dir.toString());
        assertThat(empty.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(empty.err()).contains(dir + ": not a run directory (no run.json)");
    }

    @Test
    void importedRunsAreComparedAndJudgedAgainstAnSlaMatrix(@TempDir Path dir) {
        CommandLineTest.Result v = run("import", imports().resolve("vllm-bench-serve-detailed.json").toString(), "--out",
                dir.resolve("vllm").toString());
        assertThat(v.code()).as(v.err()).isZero();
        assertThat(v.out()).contains("imported 4 requests from vLLM bench serve").contains("lacks: ttfb");
        CommandLineTest.Result a = run("import", imports().resolve("aiperf-profile_export.jsonl").toString(), "--tool",
                "aiperf", "--out", dir.resolve("aiperf").toString());
        assertThat(a.code()).as(a.err()).isZero();
        // summarize reads LatencyLab's own runs: an imported one is pointed at report and compare, not misread
        CommandLineTest.Result s = run("summarize", dir.resolve("vllm").toString());
        assertThat(s.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(s.err()).contains("holds requests imported from vLLM bench serve").contains("'report ")
                .doesNotContain("unknown protocol");
        CommandLineTest.Result missing = run("import", dir.resolve("nothere.json").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(missing.err()).contains(dir.resolve("nothere.json") + ": no such file");

        CommandLineTest.Result c = run("compare", dir.resolve("vllm").toString(), dir.resolve("aiperf").toString());
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(c.out()).contains("1. vllm-bench-serve-detailed (vllm-bench) — baseline")
                .contains("2. aiperf-profile_export (aiperf)");
        // P50 TTFT: vLLM 118 ms (baseline), AIPerf 110 ms → −6.8 %; 4 requests each, so every value is starred
        assertThat(c.out()).containsPattern("P50 TTFT\\s+118 ms\\*\\s+110 ms\\* \\(-6\\.8 %\\)");
        // one run is nothing to compare: a usage error naming the parameter, not a one-column table
        CommandLineTest.Result one = run("compare", dir.resolve("vllm").toString());
        assertThat(one.code()).isEqualTo(2);
        assertThat(one.err()).contains("RUN_DIR");

        CommandLineTest.Result slo = run("slo", "--run", dir.resolve("aiperf").toString(), "--cell", "e2e:p99:305",
                "--cell", "ttft:p99:150");
        assertThat(slo.code()).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(slo.out()).contains("P99 e2e ≤ 305 ms").containsPattern("import\\s+FAIL 310 ms\\s+pass 120 ms");

        CommandLineTest.Result budget = run("slo", "--sla-p95", "1200ms", "--infra-p95", "200ms", "--margin", "0.2");
        assertThat(budget.code()).isZero();
        assertThat(budget.out()).contains("= 800 ms");
        assertThat(run("slo", "--sla-p95", "100ms", "--infra-p95", "200ms").code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run("slo", "--run", dir.resolve("aiperf").toString(), "--cell", "e2e:99:3").err())
                .contains("pNN");
        assertThat(run("import", imports().resolve("README.md").toString()).code()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void aReportOfARunAndAnImportIsOneSelfContainedPage(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, """
                name: report-me
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: probe, requests: 30, concurrency: 4, promptTokens: 256, maxOutputTokens: 8}
                """);
        CommandLineTest.Result r = run("run", scenario.toString(), "--out", dir.resolve("run").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(run("import", imports().resolve("guidellm-benchmarks.json").toString(), "--out",
                dir.resolve("g").toString()).code()).isZero();
        CommandLineTest.Result lens = run("lens", dir.resolve("run").toString());
        assertThat(lens.code()).as(lens.err()).isZero();
        assertThat(lens.out()).contains("vLLM bench serve").contains("GuideLLM").contains("AIPerf")
                .contains("30 successful streamed requests");

        Path html = dir.resolve("out/report.html");
        CommandLineTest.Result rep = run("report", dir.resolve("run").toString(), dir.resolve("g").toString(), "--out",
                html.toString());
        assertThat(rep.code()).as(rep.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).startsWith("<!DOCTYPE html>").contains("LatencyLab comparison — 2 runs")
                .contains("<h2>Definitions</h2>").contains("<h2>Comparison</h2>").contains("report-me")
                // every metric the percentile tables list has its definition on the page
                // under the one name every output uses, with its id
                .contains("<b>time to first content</b> (<code>time_to_first_content</code>)")
                .contains("<b>ITL per token</b> (<code>itl_per_token</code>)")
                .contains("<b>TTFT from intended start</b> (<code>ttft_from_intended</code>)")
                .contains("<b>E2E from intended start</b> (<code>e2e_from_intended</code>)")
                .contains("<b>dispatch lag</b> (<code>dispatch_lag</code>)")
                .contains("<td class=\"l\" title=\"time_to_first_content\">time to first content</td>")
                .doesNotContain("time to first answer")
                // the environment says which code measured the run (the simulator: plain http, the own path)
                .contains("http_path direct-http1 (LatencyLab&#39;s own HTTP/1.1 exchange)")
                .contains("was imported from <b>guidellm</b>").contains("Metric-definition lens")
                .contains("data-images-ok");
        // self-contained: no external resource is referenced
        assertThat(page).doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<link");
        Matcher m = Pattern.compile("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"").matcher(page);
        int images = 0;
        while (m.find()) {
            byte[] png = java.util.Base64.getDecoder().decode(m.group(1));
            assertThat(png).startsWith(0x89, 'P', 'N', 'G');
            images++;
        }
        // the run's own CDF, the two comparison CDFs (TTFT, E2E) and the imported run's CDF
        assertThat(images).isGreaterThanOrEqualTo(4);
        // the clock origin as a time a reader can use, not 1.76E12
        assertThat(page).containsPattern("clock_origin_epoch_ms \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"
                + " \\(\\d{13} ms since 1970-01-01 UTC\\)").doesNotContainPattern("clock_origin_epoch_ms [0-9.]+E");

        // an output path below a file: one clear sentence and exit 2, before any chart is rendered
        Path blocker = dir.resolve("not-a-folder");
        Files.writeString(blocker, "x");
        CommandLineTest.Result bad = run("report", dir.resolve("run").toString(), "--out",
                blocker.resolve("sub/x.html").toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bad.err()).contains("cannot write report: " + blocker.toAbsolutePath() + " is a file");

        // a folder that holds no run: said at once, without announcing a report first
        CommandLineTest.Result notRun = run("report", dir.resolve("nowhere").toString(), "--out",
                dir.resolve("n.html").toString());
        assertThat(notRun.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(notRun.err()).contains("not a run directory").doesNotContain("writing the report");
        CommandLineTest.Result toFolder = run("report", dir.resolve("run").toString(), "--out", dir.toString());
        assertThat(toFolder.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(toFolder.err()).contains("is a directory").doesNotContain("writing the report");
        // a folder that cannot be created (Linux's /proc takes no new folder, whoever asks): refused before rendering
        if (Files.isDirectory(Path.of("/proc/self"))) {
            CommandLineTest.Result proc = run("report", dir.resolve("run").toString(), "--out", "/proc/x/r.html");
            assertThat(proc.code()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(proc.err()).contains("cannot write report /proc/x/r.html: ")
                    .doesNotContain("writing the report").doesNotContain("Exception");
        }
    }

    @Test
    void aSweepsReportCarriesItsPerLengthTableFitAndExtrapolation(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, """
                name: sweep-report
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: sweep, contextTokens: [256, 512, 1024], requestsPerLength: 6, concurrency: 3,
                     maxOutputTokens: 4, extrapolateTo: [8192]}
                """);
        CommandLineTest.Result r = run("run", scenario.toString(), "--out", dir.resolve("run").toString(),
                "--no-charts");
        assertThat(r.code()).as(r.err()).isZero();
        String console = r.out();
        String fitLine = console.lines().filter(l -> l.startsWith("fit: ")).findFirst().orElseThrow();
        Path html = dir.resolve("report.html");
        CommandLineTest.Result rep = run("report", dir.resolve("run").toString(), "--out", html.toString());
        assertThat(rep.code()).as(rep.err()).isZero();
        String page = Files.readString(html);
        // the same fit sentence as the console, the three lengths, and the extrapolation marked as a model
        assertThat(page).contains("<b>Fit:</b> " + fitLine.substring(5).replace("<", "&lt;"))
                .contains("256 tokens").contains("512 tokens").contains("1024 tokens")
                .contains("8192 tokens: P50 TTFT").contains("a model, not a measurement")
                .contains("intervals cover sampling error only");
        // per length first, then the lengths pooled only for what does not grow with the prompt
        int perLength = page.indexOf("256 tokens");
        int pooled = page.indexOf("All context lengths pooled");
        assertThat(pooled).isGreaterThan(perLength).isPositive();
        String pooledTable = page.substring(pooled, page.indexOf("</table>", pooled));
        assertThat(pooledTable).contains(">TPOT<").doesNotContain(">TTFT<").doesNotContain(">E2E<");
    }

    @Test
    void compareSaysWhatLoadEachRunCarried(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("load.yaml");
        Files.writeString(scenario, """
                format: 1
                name: small-load
                endpoint: {builtin: sim, profile: zero-latency}
                experiments:
                  - {type: load, rate: 20, arrival: poisson, duration: 1s, contextTokens: 16, maxOutputTokens: 2}
                """);
        assertThat(run("run", scenario.toString(), "--no-charts", "--out", dir.resolve("load").toString()).code())
                .isZero();
        assertThat(run("probe", "--sim", "zero-latency", "-n", "1", "--no-charts", "--out",
                dir.resolve("one").toString()).code()).isZero();
        CommandLineTest.Result c = run("compare", dir.resolve("load").toString(), dir.resolve("one").toString());
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(c.out()).contains("   " + dir.resolve("load") + ": open loop at 20 req/s for 1s\n")
                .contains("   " + dir.resolve("one") + ": 1 request at concurrency 1\n");
    }

    @Test
    void compareTellsTwoRunsOfTheSameNameApart(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, """
                name: twin
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: probe, requests: 10, concurrency: 2, promptTokens: 64, maxOutputTokens: 4}
                """);
        assertThat(run("run", scenario.toString(), "--no-charts", "--out", dir.resolve("a").toString()).code()).isZero();
        // a copied directory: same name and the same start time, told apart by its directory name
        Path copy = dir.resolve("a-copy");
        try (var walk = Files.walk(dir.resolve("a"))) {
            for (Path p : walk.toList()) {
                Files.copy(p, copy.resolve(dir.resolve("a").relativize(p).toString()));
            }
        }
        CommandLineTest.Result c = run("compare", dir.resolve("a").toString(), copy.toString());
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(c.out()).containsPattern("1\\. twin · started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC · a "
                        + "\\(latencylab\\) — baseline")
                .containsPattern("2\\. twin · started [0-9: -]+ UTC · a-copy \\(latencylab\\)")
                .contains("   " + dir.resolve("a") + ": 10 requests at concurrency 2\n")
                .contains("   " + copy + ": 10 requests at concurrency 2\n");
        // 10 requests: P50 rests on 5 samples above it (starred in the run), P99 on none; compare keeps the marks
        assertThat(c.out()).containsPattern("(?m)^P99 TTFT +[0-9.]+ ms\\* ")
                .containsPattern("(?m)^P50 TTFT +[0-9.]+ ms\\* ")
                .contains("* fewer than 10 samples above this percentile in that run");
    }
}
