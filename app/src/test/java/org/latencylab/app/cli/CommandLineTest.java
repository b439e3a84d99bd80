package org.latencylab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.results.RequestLog;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The launcher's commands, run in-process through picocli against the real engine and simulator. */
class CommandLineTest {
    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = LatencyLabCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    static Path repo() {
        return Path.of(System.getProperty("latencylab.repo.dir", ".."));
    }

    @Test
    void versionAndHelp() {
        Result v = run("--version");
        assertThat(v.code()).isZero();
        assertThat(v.out()).startsWith("LatencyLab ");
        Result h = run("run", "--help");
        assertThat(h.code()).isZero();
        assertThat(h.out()).contains("SCENARIO").contains("--out");
        for (String c : List.of("probe", "sweep", "sim", "summarize", "check-cases", "gui")) {
            assertThat(run(c, "--help").code()).as(c).isZero();
        }
    }

    @Test
    void theSimulatorsHelpNamesExactlyTheBuiltInProfiles() {
        Result h = run("sim", "--help");
        assertThat(h.code()).isZero();
        List<String> named = List.of(SimCommand.BUILTINS.split(", "));
        assertThat(h.out().replaceAll("\\s+", " ")).contains("built-ins: " + SimCommand.BUILTINS);
        assertThat(named).containsExactlyInAnyOrderElementsOf(org.latencylab.engine.sim.SimProfile.builtinNames());
    }

    @Test
    void aSmallScenarioRunsEndToEnd(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("small.yaml");
        Files.writeString(scenario, """
                name: small
                endpoint: {builtin: sim, profile: small-fast}
                slos: [{metric: ttft, percentile: 95, maxMs: 5000}]
                experiments:
                  - {type: probe, requests: 20, concurrency: 4, promptTokens: 300, maxOutputTokens: 8}
                  - {type: sweep, contextTokens: [256, 1024, 4096], requestsPerLength: 3, concurrency: 3, maxOutputTokens: 4}
                """);
        Path out = dir.resolve("run");
        Result r = run("run", scenario.toString(), "--out", out.toString(), "--no-charts");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("P95 TTFT").contains("tier: Tier-").contains("SLO TTFT P95").contains("fit:")
                .contains("SLOs: all passed");
        // the metric's one name (MetricNames), as in the charts and the HTML report; not a console-only alias
        assertThat(r.out()).containsPattern("(?m)^time to first content +20 ").doesNotContain("first answer");
        // both fitted laws say y's unit; the P50 law also what n is, and both α intervals by name
        assertThat(r.out()).containsPattern("fit: P50 TTFT ≈ [0-9.]+ ms · n\\^[0-9.]+, n = prompt tokens \\(α 95% CI:"
                        + " parametric [0-9.]+–[0-9.]+, bootstrap [0-9.]+–[0-9.]+;")
                .contains("α's intervals cover sampling error only")
                .containsPattern("fit P95 \\(.*\\): P95 TTFT ≈ [0-9.]+ ms · n\\^[0-9.]+ ");
        assertThat(RequestLog.read(out.resolve("requests.jsonl"))).hasSize(29);
        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        assertThat(run.path("status").asText()).isEqualTo("completed");
        assertThat(Files.exists(out.resolve("summary.csv"))).isTrue();
        // the simulator is plain http on loopback: measured by the own HTTP/1.1 exchange, and run.json says so
        assertThat(run.path("environment").path("http_path").asText()).isEqualTo("direct-http1");
    }

    @Test
    void aFailedSloExitsWithOne(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        Result r = run("probe", "--sim", "llama-8b-class", "-n", "4", "-c", "2", "--prompt-tokens", "2048",
                "--max-tokens", "4", "--slo", "ttft:95:1", "--out", out.toString(), "--no-charts");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(r.out()).contains("FAIL");
    }

    @Test
    void malformedScenarioExitsWithTwoNamingFileAndField(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("bad.yaml");
        Files.writeString(scenario, "name: b\nendpoint: {builtin: sim}\nexperiments: [{type: probe, concurency: 2}]\n");
        Result r = run("run", scenario.toString(), "--out", dir.resolve("run").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("bad.yaml").contains("experiments[0].concurency");
        assertThat(Files.exists(dir.resolve("run"))).as("nothing is started for a bad scenario").isFalse();
        assertThat(run("run", dir.resolve("missing.yaml").toString()).code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run("probe", "-n", "zero").code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(run("frobnicate").code()).isEqualTo(ExitCodes.BAD_INPUT);
        Result proto = run("probe", "--protocol", "grpc", "-n", "1");
        assertThat(proto.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(proto.err()).contains("--protocol").contains("openai-chat");
        Result sim = run("probe", "--sim", "llama-9b", "-n", "1");
        assertThat(sim.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(sim.err()).contains("--sim").contains("llama-8b-class");
        Result neg = run("probe", "-c", "-3");
        assertThat(neg.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(neg.err()).contains("--concurrency must be >= 1, was -3")
                .doesNotContain("--concurrency: concurrency");
        Result sweepSlo = run("sweep", "--slo", "ttft:95:100");
        assertThat(sweepSlo.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(sweepSlo.err()).contains("--slo is not judged on sweeps");
        Result typo = run("probe", "--slo", "ttftt:95:100", "-n", "1");
        assertThat(typo.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(typo.err()).contains("unknown metric 'ttftt'");
        Result nearCommand = run("prob");
        assertThat(nearCommand.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(nearCommand.err()).contains("latencylab: unknown command 'prob'")
                .contains("Did you mean: latencylab probe?").doesNotContain("Unmatched argument");
        Result nearOption = run("probe", "--concurency", "4");
        assertThat(nearOption.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(nearOption.err()).contains("Unknown options: '--concurency'").contains("--concurrency");
        Result badProfile = run("sim", "--profile", dir.resolve("nothere.yaml").toString());
        assertThat(badProfile.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(badProfile.err()).contains("does not exist");
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Result inUse = run("sim", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(inUse.code()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(inUse.err()).contains("cannot serve on 127.0.0.1:" + taken.getLocalPort() + " (")
                    .contains("choose another --port");
            assertThat(inUse.err().lines().count()).as("one line, said before the warm-up").isEqualTo(1);
        }
    }

    @Test
    void anUnreachableEndpointGivesClassifiedErrorsNotACrash(@TempDir Path dir) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        Path out = dir.resolve("run");
        Result r = run("probe", "--url", "http://127.0.0.1:" + port, "--model", "m", "-n", "3",
                "--out", out.toString(), "--no-charts");
        assertThat(r.code()).isEqualTo(ExitCodes.RUN_FAILED);
        assertThat(r.err()).contains("no request succeeded (3 of 3 failed: connection 3); see the errors above and");
        assertThat(Pattern.compile("no request succeeded").matcher(r.out() + r.err()).results().count())
                .as("said once: " + r.out() + r.err()).isEqualTo(1);
        List<RequestRecord> log = RequestLog.read(out.resolve("requests.jsonl"));
        assertThat(log).hasSize(3).allMatch(x -> x.errorKind() == ErrorKind.CONNECTION);
        assertThat(r.out()).contains("errors: connection 3")
                .containsPattern("— finished in \\d+\\.\\d s with every request failed \\(3 of 3\\)")
                .as("an all-failed run does not read as a success").doesNotContain("completed");
        // run.json keeps the run-state: every request ran to its end
        assertThat(new ObjectMapper().readTree(out.resolve("run.json").toFile()).path("status").asText())
                .isEqualTo("completed");
    }

    @Test
    void checkCasesReplaysTheFolder() {
        Path shared = repo().resolve("../shared/cases/streams");
        Path dir = Files.isDirectory(shared) ? shared : repo().resolve("engine/src/test/resources/cases/streams");
        Result r = run("check-cases", dir.toString());
        assertThat(r.out()).containsPattern("\\d+ passed, 0 failed, 0 skipped");
        assertThat(r.out().split("passed, ", -1)).as("the summary line is printed once").hasSize(2);
        assertThat(r.code()).isZero();
        Result missing = run("check-cases", repo().resolve("no-such-folder").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(missing.err()).as("a path that does not exist is said to be missing")
                .contains("no-such-folder: no such folder (");
    }

    /** @return the built-in small-fast simulator on a loopback port; close it */
    private static org.latencylab.engine.sim.SimServer smallFastSim() {
        return org.latencylab.engine.sim.SimServer.start(org.latencylab.engine.sim.SimProfile.builtin("small-fast"),
                org.latencylab.engine.sim.SimOptions.defaults());
    }

    /** A two-request probe of {@code url} without --model, into {@code out}. */
    private static Result smallProbe(String url, Path out) {
        return run("probe", "--url", url, "-n", "2", "--prompt-tokens", "32", "--max-tokens", "4",
                "--out", out.toString(), "--no-charts");
    }

    @Test
    void aProbeWhoseOutAlreadyHoldsARunIsRefusedBeforeItAsksTheEndpointForItsModel(@TempDir Path dir) throws Exception {
        try (var sim = smallFastSim()) {
            Path out = dir.resolve("run");
            Result first = smallProbe(sim.baseUrl(), out);
            assertThat(first.code()).as(first.err()).isZero();
            String before = Files.readString(out.resolve("requests.jsonl"));
            Result again = smallProbe(sim.baseUrl(), out);
            assertThat(again.code()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(again.err()).contains("already holds a run").contains("--overwrite")
                    .as("refused before the model lookup").doesNotContain("no --model given");
            assertThat(Files.readString(out.resolve("requests.jsonl"))).as("the first run is untouched").isEqualTo(before);
        }
    }

    @Test
    void probeWithAUrlButNoModelUsesTheModelTheServerListsOrAsksForIt(@TempDir Path dir) throws Exception {
        try (var sim = smallFastSim()) {
            Path out = dir.resolve("run");
            Result r = smallProbe(sim.baseUrl(), out);
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.err()).contains("no --model given; using 'small-fast-sim'");
            assertThat(Files.readString(out.resolve("run.json"))).contains("small-fast-sim");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // nothing listens: no model to find
        }
        Result none = run("probe", "--url", "http://127.0.0.1:" + port, "-n", "1", "--no-charts");
        assertThat(none.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(none.err()).contains("did not answer (connection refused: nothing listens at that host and port")
                .contains("no model could be found there").contains("give --model NAME").doesNotContain("Exception");
    }

    @Test
    void sweepHelpOffersNoSloAndProbeHelpDoes() {
        assertThat(run("sweep", "--help").out()).doesNotContain("--slo").contains("--lengths");
        assertThat(run("probe", "--help").out()).contains("--slo").contains("small-fast");
    }

    @Test
    void detectNamesTheProtocolOrWhatWasTried() throws Exception {
        try (var sim = org.latencylab.engine.sim.SimServer.start(org.latencylab.engine.sim.SimProfile.builtin("small-fast"),
                org.latencylab.engine.sim.SimOptions.defaults())) {
            Result ok = run("detect", sim.baseUrl());
            assertThat(ok.code()).as(ok.err()).isZero();
            assertThat(ok.out()).contains("detected openai-chat").contains("small-fast");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Result none = run("detect", "http://127.0.0.1:" + port, "--timeout", "2s");
        assertThat(none.code()).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(none.out()).contains("/v1/models").contains("/api/tags").contains("/info");
        assertThat(run("detect", "ftp://x").code()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void anEmptyCaseFolderIsBadInputNotAPass(@TempDir Path dir) {
        Result r = run("check-cases", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("no *.json conformance cases");
    }

    @Test
    void aLoadStepLeavesItsWarmupOutOfTheStatistics(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("load.yaml");
        Files.writeString(scenario, """
                name: warm
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: load, rate: 40, arrival: constant, duration: 3s, warmup: 1s, contextTokens: 64,
                     maxOutputTokens: 4, tierMetric: ttft_from_intended}
                """);
        Path out = dir.resolve("run");
        Result r = run("run", scenario.toString(), "--out", out.toString(), "--no-charts");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode step = new ObjectMapper().readTree(out.resolve("run.json").toFile()).path("steps").get(0);
        long excluded = step.path("result").path("totals").path("excluded").asLong();
        long measured = step.path("result").path("totals").path("sent").asLong() - excluded;
        assertThat(excluded).as("warmup requests").isGreaterThan(20);
        assertThat(step.path("summary").path("sent").asLong()).isEqualTo(measured);
        assertThat(step.path("summary").path("tier_metric").asText()).isEqualTo("ttft_from_intended");
        assertThat(RequestLog.read(out.resolve("requests.jsonl"))).hasSize((int) (measured + excluded));
        assertThat(r.out()).contains("target 40.0 req/s").contains("P95 TTFT from intended start");
        // the two request rates say what they divide by: the measured window, and first start to last end
        assertThat(r.out()).containsPattern("achieved \\d+\\.\\d req/s and goodput \\d+\\.\\d req/s in the \\d+\\.\\d s"
                + " measured window \\(warmup/cooldown excluded\\)")
                .containsPattern("requests: \\d+ sent, .*; \\d+\\.\\d req/s and \\d+ output tokens/s over \\d+\\.\\d\\d s"
                + " from the first start to the last response end");
    }

    @Test
    void aLoadStepsOwnSlosAreJudgedLikeRunLevelOnesAndAFailedOneExitsWithOne(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("step-slo.yaml");
        Files.writeString(scenario, """
                name: step-slo
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: load, concurrency: 3, duration: 2s, contextTokens: 64, maxOutputTokens: 4,
                     slos: [{metric: ttft, percentile: 95, maxMs: 0.001}, {metric: e2e, percentile: 50, maxMs: 60000}]}
                """);
        Path out = dir.resolve("run");
        Result r = run("run", scenario.toString(), "--out", out.toString(), "--no-charts");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.SLO_FAILED);
        // a verdict per SLO of the step on the console, and the run's verdict
        assertThat(r.out()).containsPattern("SLO TTFT P95 ≤ [0-9.]+ ms: 0\\.0 % of \\d+ requests met it → FAIL")
                .containsPattern("SLO E2E P50 ≤ [0-9.]+ s: 100\\.0 % of \\d+ requests met it → pass")
                .contains("SLOs: FAILED (exit status 1)").doesNotContain("no run-level SLO");
        // a closed loop has no target rate: its concurrency is shown instead
        assertThat(r.out()).contains("closed loop, 3 streams: achieved ").doesNotContain("target 0.0");
        // run.json: the verdicts where run-level verdicts go (the step summary's slos[]) and slos_passed
        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        assertThat(run.path("slos_passed").asBoolean(true)).isFalse();
        JsonNode slos = run.path("steps").get(0).path("summary").path("slos");
        assertThat(slos).hasSize(2);
        assertThat(slos.get(0).path("metric").asText()).isEqualTo("ttft");
        assertThat(slos.get(0).path("passed").asBoolean(true)).isFalse();
        assertThat(slos.get(0).path("judged").asLong()).isEqualTo(run.path("steps").get(0).path("summary")
                .path("succeeded").asLong()).isPositive();
        assertThat(slos.get(1).path("passed").asBoolean(false)).isTrue();
        // the run directory read back judges the same: summarize exits with 1 as well
        Result again = run("summarize", out.toString());
        assertThat(again.code()).as(again.err()).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(again.out()).contains("SLOs: FAILED (exit status 1)");
        // the progress lines name the step, and the last one (the run's totals) says so, never "-"
        List<String> progress = r.err().lines().filter(l -> l.matches("^\\S+ +run +\\d+(/\\d+)? done .*")).toList();
        assertThat(progress).isNotEmpty().noneMatch(l -> l.startsWith("- "));
        assertThat(progress.get(progress.size() - 1)).startsWith("total ");
        assertThat(progress.subList(0, progress.size() - 1)).allMatch(l -> l.startsWith("load "));

        // the same step with SLOs it meets passes, and an SLO given at both levels is judged once
        Files.writeString(scenario, """
                name: step-slo
                endpoint: {builtin: sim, profile: small-fast}
                slos: [{metric: e2e, percentile: 50, maxMs: 60000}]
                experiments:
                  - {type: load, concurrency: 3, duration: 2s, contextTokens: 64, maxOutputTokens: 4,
                     slos: [{metric: ttft, percentile: 95, maxMs: 60000}, {metric: e2e, percentile: 50, maxMs: 60000}]}
                """);
        Result ok = run("run", scenario.toString(), "--out", dir.resolve("ok").toString(), "--no-charts");
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("SLOs: all passed");
        JsonNode okSlos = new ObjectMapper().readTree(dir.resolve("ok/run.json").toFile()).path("steps").get(0)
                .path("summary").path("slos");
        assertThat(okSlos).extracting(n -> n.path("metric").asText()).containsExactly("e2e", "ttft");
    }

    @Test
    void summarizeRebuildsARunKilledWhileRunning(@TempDir Path dir) throws Exception {
        // the files of a run as `kill -9` leaves them: run.json still says "running", requests.jsonl has what ended
        Path live = dir.resolve("live");
        var spec = new org.latencylab.engine.run.RunSpec("killed",
                org.latencylab.engine.run.TargetSpec.simulator("small-fast"), null, null,
                List.of(new org.latencylab.engine.experiment.ProbeSpec(100_000, 4, 64, 4, true, true, 0)), null, null, 3);
        var handle = org.latencylab.engine.scenario.StepCatalog.engine().start(spec, live, null);
        Path log = live.resolve("requests.jsonl");
        long until = System.currentTimeMillis() + 30_000;
        while ((!Files.exists(log) || Files.readAllLines(log).size() < 20) && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        Path killed = Files.createDirectories(dir.resolve("killed"));
        Files.copy(live.resolve("run.json"), killed.resolve("run.json"));
        Files.copy(log, killed.resolve("requests.jsonl"));
        handle.cancel();
        handle.await(java.time.Duration.ofSeconds(20));
        long requests = RequestLog.read(killed.resolve("requests.jsonl")).size();

        Result r = run("summarize", killed.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("killed").contains("interrupted").contains("== probe")
                .contains("note: interrupted: the process ended while the run was going")
                .contains("P95 TTFT").contains("cdf-ttft-e2e.png");
        JsonNode run = new ObjectMapper().readTree(killed.resolve("run.json").toFile());
        assertThat(run.path("status").asText()).isEqualTo("interrupted");
        assertThat(run.path("summary").path("sent").asLong()).isEqualTo(requests);
        assertThat(Files.exists(killed.resolve("summary.csv"))).isTrue();
        assertThat(Files.size(killed.resolve("cdf-ttft-e2e.png"))).isGreaterThan(1000);
        // a directory that is no run is bad input
        Result bad = run("summarize", dir.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bad.err()).contains("not a run directory");
    }

    @Test
    void ctrlCPrintsTheSummaryOfWhatFinishedAndWritesChartsMarkedCancelled(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("long.yaml");
        Files.writeString(scenario, """
                name: long
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: probe, requests: 100000, concurrency: 4, promptTokens: 64, maxOutputTokens: 4}
                """);
        Path out = dir.resolve("run");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path")));
        for (String p : List.of("glass.platform", "monocle.platform", "prism.order", "java.awt.headless")) {
            if (System.getProperty(p) != null) {
                cmd.add("-D" + p + "=" + System.getProperty(p));
            }
        }
        cmd.addAll(List.of("org.latencylab.app.Launcher", "run", scenario.toString(), "--out", out.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
        try {
            Path log = out.resolve("requests.jsonl");
            long until = System.currentTimeMillis() + 60_000;
            while ((!Files.exists(log) || Files.readAllLines(log).size() < 20) && System.currentTimeMillis() < until
                    && p.isAlive()) {
                Thread.sleep(50);
            }
            assertThat(p.isAlive()).as("the run is still going").isTrue();
            // Ctrl-C is SIGINT to the process
            assertThat(new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor()).isZero();
            assertThat(p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).as("ended after SIGINT").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String stdout = Files.readString(dir.resolve("stdout.txt"));
        String stderr = Files.readString(dir.resolve("stderr.txt"));
        assertThat(p.exitValue()).as(stderr).isEqualTo(ExitCodes.INTERRUPTED);
        assertThat(stderr).contains("cancelling; finished requests are kept");
        assertThat(stdout).as(stderr).contains("LatencyLab — long").contains("— cancelled in").contains("== probe")
                .contains("P95 TTFT").contains("charts: cdf-ttft-e2e.png");
        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        assertThat(run.path("status").asText()).isEqualTo("cancelled");
        long lines = RequestLog.read(out.resolve("requests.jsonl")).size();
        assertThat(run.path("steps").get(0).path("summary").path("sent").asLong()).isEqualTo(lines);
        assertThat(Files.size(out.resolve("cdf-ttft-e2e.png"))).isGreaterThan(1000);
    }

    @Test
    void aTransportsScenarioPrintsItsTableAndDrawsItsBars(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("transports.yaml");
        Files.writeString(scenario, """
                name: sse-vs-grpc-small
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: transports, transports: [sse-h1, grpc], networks: [wired, stable-4g], requests: 2,
                     promptTokens: 64, maxOutputTokens: 48, firstScreenChars: 100}
                """);
        Path out = dir.resolve("run");
        Result r = run("run", scenario.toString(), "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("first screen = 100 characters").contains("SSE HTTP/1.1").contains("gRPC stream")
                .contains("stable-4g: RTT 50 ms").contains("requests: 8 sent, 8 ok");
        Path png = out.resolve("transports-first-screen-transports.png");
        assertThat(png).exists();
        assertThat(Files.size(png)).isGreaterThan(10_000);
        JsonNode cells = new ObjectMapper().readTree(out.resolve("run.json").toFile()).path("steps").get(0)
                .path("result").path("cells");
        assertThat(cells.size()).isEqualTo(4);
        assertThat(cells.get(0).path("first_screen").isMissingNode() && cells.get(0).path("firstScreen").isMissingNode())
                .as("the first-screen statistics are in run.json").isFalse();
    }

    @Test
    void aNetworkProfileWithNegativeBandwidthIsBadInputNamingFileAndField(@TempDir Path dir) throws Exception {
        Path net = dir.resolve("broken-net.yaml");
        Files.writeString(net, "down: {delayMs: 10, bandwidthMbps: -1.6}\nup: {delayMs: 10, bandwidthMbps: 0.4}\n");
        Path scenario = dir.resolve("bad.yaml");
        Files.writeString(scenario, "name: bad\nendpoint: {builtin: sim, profile: small-fast}\nexperiments:\n"
                + "  - {type: transports, networks: [weak-3g, '" + net + "']}\n");
        Result r = run("run", scenario.toString(), "--out", dir.resolve("run").toString(), "--no-charts");
        assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("bad.yaml").contains("networks[1]").contains("broken-net.yaml")
                .contains("down.bandwidthMbps");
    }
}
