package org.latencylab.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.results.RunLayout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code latencylab replay} through the command line: a real trace file against the built-in simulator. */
class ReplayCommandTest {
    private static Path trace() {
        return CommandLineTest.repo().resolve("sample-data/traces/mooncake-chat.jsonl");
    }

    @Test
    void aSampleTraceIsReplayedFromItsRecordedTimesAndEveryRequestIsAccountedFor(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        CommandLineTest.Result r = CommandLineTest.run("replay", trace().toString(), "--limit", "12", "--speed", "20",
                "--no-charts", "--out", out.toString());
        assertThat(r.code()).as(r.out() + r.err()).isIn(ExitCodes.OK, ExitCodes.SLO_FAILED);
        assertThat(r.out()).contains("replay").contains("12 sent, 12 ok, 0 failed, 0 cancelled");
        List<String> lines = Files.readAllLines(out.resolve(RunLayout.REQUESTS_JSONL));
        // the first twelve valid lines of the trace, each with its own prompt length
        List<String> traced = Files.readAllLines(trace()).stream().limit(12)
                .map(l -> l.replaceAll(".*\"input_length\": *(\\d+).*", "$1")).toList();
        assertThat(lines.stream().filter(l -> l.contains("\"context_tokens\":"))
                .map(l -> l.replaceAll(".*\"context_tokens\":(\\d+).*", "$1")).sorted().toList())
                .isEqualTo(traced.stream().sorted().toList());
    }

    @Test
    void aFileThatIsNotATraceIsRefusedBeforeARunFolderIsMade(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("trace.jsonl");
        Files.writeString(bad, "not json at all\n{\"timestamp\": -1}\n");
        Path out = dir.resolve("run");
        CommandLineTest.Result r = CommandLineTest.run("replay", bad.toString(), "--no-charts", "--out",
                out.toString());
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(r.err()).contains("trace.jsonl").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(out).doesNotExist();
    }
}
