package org.latencylab.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.results.RequestLog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.cli.CommandLineTest.run;

/** {@code --out} never mixes two runs, a run carries its trust check, and {@code calibrate} runs end to end. */
class TrustAndRunDirectoryCommandsTest {

    private static CommandLineTest.Result probe(Path out, int n, String... extra) {
        List<String> args = new ArrayList<>(List.of("probe", "--sim", "zero-latency", "-n", Integer.toString(n), "-c",
                "2", "--prompt-tokens", "32", "--max-tokens", "2", "--out", out.toString(), "--no-charts"));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    @Test
    void aSecondRunIntoTheSameOutIsRefusedWithExitTwoAndTheFirstRunStaysIntact(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CommandLineTest.Result first = probe(out, 5);
        assertThat(first.code()).as(first.err()).isZero();
        byte[] log = Files.readAllBytes(out.resolve("requests.jsonl"));
        byte[] json = Files.readAllBytes(out.resolve("run.json"));

        CommandLineTest.Result second = probe(out, 3);
        assertThat(second.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(second.err()).contains("already holds a run").contains(out.resolve("run.json").toString())
                .contains("--overwrite").doesNotContain("Exception");
        assertThat(Files.readAllBytes(out.resolve("requests.jsonl"))).isEqualTo(log);
        assertThat(Files.readAllBytes(out.resolve("run.json"))).isEqualTo(json);

        CommandLineTest.Result replaced = probe(out, 3, "--overwrite");
        assertThat(replaced.code()).as(replaced.err()).isZero();
        assertThat(RequestLog.read(out.resolve("requests.jsonl"))).hasSize(3);
        assertThat(replaced.out()).contains("requests: 3 sent, 3 ok, 0 failed");
    }

    @Test
    void aScenarioRunIsGuardedToo(@TempDir Path dir) throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.yaml"), """
                name: s
                endpoint: {builtin: sim, profile: zero-latency}
                experiments:
                  - {type: probe, requests: 2, concurrency: 1, promptTokens: 32, maxOutputTokens: 2, warmup: 0}
                """);
        Path out = Files.createDirectories(dir.resolve("run"));
        Files.writeString(out.resolve("requests.jsonl"), "");
        CommandLineTest.Result r = run("run", scenario.toString(), "--out", out.toString(), "--no-charts");
        assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains(out.resolve("requests.jsonl").toString());
        assertThat(run("run", scenario.toString(), "--out", out.toString(), "--no-charts", "--overwrite").code())
                .isZero();
    }

    @Test
    void anOutThatCannotBeWrittenSaysSoInWords(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plain.txt"), "x");
        CommandLineTest.Result r = probe(file.resolve("run"), 1);
        assertThat(r.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("cannot create " + file.resolve("run") + ": " + file.toAbsolutePath()
                + " is a file, not a folder; choose another --out").doesNotContain("Exception");
    }

    @Test
    void everyRunCarriesATrustCheckAndTheClockOrigin(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CommandLineTest.Result r = probe(out, 4);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("trust check: client (kept up|saturated)");
        JsonNode run = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        JsonNode trust = run.path("trust");
        assertThat(trust.path("saturated").isBoolean()).isTrue();
        assertThat(trust.path("message").asText()).startsWith("client ");
        assertThat(trust.path("rule").asText()).contains("hiccup P99 > 5 ms");
        assertThat(trust.path("hiccup_samples").asLong()).isPositive();
        assertThat(trust.path("hiccup_p99_ms").asDouble()).isGreaterThanOrEqualTo(trust.path("hiccup_p50_ms").asDouble());
        assertThat(trust.path("cpu_per_request_ms").asDouble()).isPositive();
        assertThat(run.path("environment").path("clock_origin_nanotime").asLong()).isNotZero();
        if (trust.path("saturated").asBoolean()) { // a busy machine: then the console says so before any tier
            assertThat(r.out()).contains(trust.path("message").asText()).contains("not a verdict on the server");
        }
    }

    @Test
    void calibrateMeasuresTheClientAgainstASimulatorInAnotherProcess(@TempDir Path dir) throws Exception {
        CommandLineTest.Result r = run("calibrate", "-c", "2", "--duration", "2s", "--events-per-s", "100",
                "--tokens", "8", "--out", dir.resolve("cal").toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        Matcher pid = Pattern.compile("pid (\\d+)").matcher(r.out());
        assertThat(pid.find()).as(r.out()).isTrue();
        long simPid = Long.parseLong(pid.group(1));
        assertThat(simPid).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(ProcessHandle.of(simPid).map(ProcessHandle::isAlive).orElse(false))
                .as("the simulator process is gone").isFalse();
        String row = r.out().lines().filter(l -> l.startsWith("C=2 ")).findFirst().orElseThrow();
        Matcher ms = Pattern.compile("(\\d+\\.\\d+) ms").matcher(row);
        List<Double> figures = new ArrayList<>();
        while (ms.find()) {
            figures.add(Double.parseDouble(ms.group(1)));
        }
        // err P50/P99/max, TTFT error P50/P99/max, dispatch lag P99, run-queue wait (where the system reports it: its
        // cell is "n/a" otherwise), CPU per request
        boolean waits = org.latencylab.engine.trust.SchedulerWaits.available();
        assertThat(figures).as(row).hasSize(waits ? 9 : 8).allMatch(v -> v >= 0);
        assertThat(figures.get(0)).isLessThanOrEqualTo(figures.get(1));
        assertThat(figures.get(1)).isLessThanOrEqualTo(figures.get(2));
        String[] cells = row.trim().split("\\s+");
        assertThat(Long.parseLong(cells[1])).as("requests").isPositive();
        assertThat(Long.parseLong(cells[2])).as("events, 8 per request").isEqualTo(8 * Long.parseLong(cells[1]));
        assertThat(r.out()).containsPattern("the client's event-stamp error P99 (stays within|exceeds) 1 ms");
        assertThat(r.out()).doesNotContain("arrived before their server stamp");
        assertThat(Files.exists(dir.resolve("cal/calibrate-C=2/requests.jsonl"))).isTrue();
    }
}
