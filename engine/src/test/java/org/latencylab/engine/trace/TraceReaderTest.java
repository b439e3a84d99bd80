package org.latencylab.engine.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Trace files of each format, written to disk and read back through the real parsers. */
class TraceReaderTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private static List<TraceEntry> all(TraceReader r) {
        List<TraceEntry> out = new ArrayList<>();
        for (TraceEntry e = r.next(); e != null; e = r.next()) {
            out.add(e);
        }
        return out;
    }

    @Test
    void mooncakeLinesGiveMillisecondArrivalsLengthsAndHashIds() throws Exception {
        Path p = write("t.jsonl", """
                {"timestamp": 0, "input_length": 1200, "output_length": 30, "hash_ids": [1, 2, 3]}

                {"timestamp": 250, "input_length": 600, "output_length": 8, "hash_ids": [1, 2], "session_id": "a"}
                {"timestamp": 1500.5, "input_length": 9, "output_length": 1}
                """);
        try (TraceReader r = TraceReader.open(p, TraceFormat.MOONCAKE, null, null)) {
            List<TraceEntry> e = all(r);
            assertThat(e).hasSize(3);
            assertThat(e.get(1).arrivalNanos()).isEqualTo(250_000_000L);
            assertThat(e.get(1).line()).isEqualTo(3);
            assertThat(e.get(1).hashIds()).containsExactly(1, 2);
            assertThat(e.get(2).arrivalNanos()).isEqualTo(1_500_500_000L);
            assertThat(e.get(2).hashIds()).isEmpty();
            assertThat(e.get(0).inputTokens()).isEqualTo(1200);
            assertThat(e.get(0).outputTokens()).isEqualTo(30);
            assertThat(r.skipped()).isZero();
        }
    }

    @Test
    void badMooncakeLinesAreSkippedAndNamedByFileLineAndField() throws Exception {
        Path p = write("bad.jsonl", """
                {"timestamp": 10, "input_length": 10, "output_length": 3}
                {"timestamp": 5, "input_length": -3, "output_length": 3}
                {"timestamp": 9, "input_length": 10}
                not json at all
                {"timestamp": 2, "input_length": 10, "output_length": 3}
                {"timestamp": "x", "input_length": 10, "output_length": 3}
                {"timestamp": 20, "input_length": 10, "output_length": 3, "hash_ids": 7}
                {"timestamp": 30, "input_length": 10, "output_length": 4}
                """);
        try (TraceReader r = TraceReader.open(p, TraceFormat.MOONCAKE, null, null)) {
            List<TraceEntry> e = all(r);
            assertThat(e).extracting(TraceEntry::line).containsExactly(1L, 8L);
            assertThat(r.skipped()).isEqualTo(6);
            assertThat(r.skipSamples()).containsExactly(
                    "bad.jsonl: line 2: field 'input_length': a token count must be >= 1, was -3",
                    "bad.jsonl: line 3: field 'output_length': missing",
                    r.skipSamples().get(2),
                    "bad.jsonl: line 5: arrival 0.002 s is before the previous record's 0.010 s (a replay sends in"
                            + " arrival order: sort the file by timestamp)",
                    "bad.jsonl: line 6: field 'timestamp': must be a number, was \"x\"");
            assertThat(r.skipSamples().get(2)).startsWith("bad.jsonl: line 4: not a JSON object (");
        }
    }

    @Test
    void burstGptRowsAreFilteredByModelAndLogTypeAndFailedRowsSkipped() throws Exception {
        Path p = write("burst.csv", """
                Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type
                0,ChatGPT,472,18,490,Conversation log
                1.5,GPT-4,1000,200,1200,API log
                2.25,ChatGPT,300,0,300,Conversation log
                3,ChatGPT,35,70,105,API log
                4,ChatGPT,80,5,85,Conversation log
                """);
        try (TraceReader r = TraceReader.open(p, TraceFormat.BURSTGPT, "ChatGPT", "Conversation log")) {
            List<TraceEntry> e = all(r);
            assertThat(e).extracting(TraceEntry::arrivalNanos).containsExactly(0L, 4_000_000_000L);
            assertThat(e).extracting(TraceEntry::inputTokens).containsExactly(472, 80);
            assertThat(r.filtered()).isEqualTo(2);
            assertThat(r.skipped()).isEqualTo(1);
            assertThat(r.skipSamples().get(0)).startsWith("burst.csv: line 4: field 'Response tokens': 0 (a request"
                    + " that failed");
        }
    }

    @Test
    void azureTimestampsAreWallClockTimesMadeRelativeToTheFirstRow() throws Exception {
        Path p = write("azure.csv", """
                TIMESTAMP,ContextTokens,GeneratedTokens
                2023-11-16 18:15:46.6805900,374,44
                2023-11-16 18:15:50.9951690,396,109
                2023-11-16 18:15:51,abc,109
                2023-11-16 18:16:46.6805900,879,34
                """);
        try (TraceReader r = TraceReader.open(p, TraceFormat.AZURE, null, null)) {
            List<TraceEntry> e = all(r);
            assertThat(e).extracting(TraceEntry::arrivalNanos).containsExactly(0L, 4_314_579_000L, 60_000_000_000L);
            assertThat(r.skipSamples()).containsExactly("azure.csv: line 4: field 'ContextTokens': not a number: 'abc'");
        }
    }

    @Test
    void aFileOfAnotherFormatIsRefusedWithTheFormatToGive() throws Exception {
        Path csv = write("x.csv", "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n0,a,1,1,2,b\n");
        assertThatThrownBy(() -> TraceReader.open(csv, TraceFormat.MOONCAKE, null, null))
                .isInstanceOf(TraceException.class)
                .hasMessage("x.csv: line 1 is not a JSON object, so this is not a mooncake trace: it looks like a"
                        + " burstgpt CSV trace, give --format burstgpt");
        assertThatThrownBy(() -> TraceReader.open(csv, TraceFormat.AZURE, null, null))
                .hasMessage("x.csv: line 1: the header lacks columns TIMESTAMP, ContextTokens, GeneratedTokens of a"
                        + " azure trace; it looks like a burstgpt trace, give --format burstgpt");
        Path json = write("y.jsonl", "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n");
        assertThatThrownBy(() -> TraceReader.open(json, TraceFormat.BURSTGPT, null, null))
                .hasMessage("y.jsonl: line 1 is a JSON object, not a burstgpt CSV header: it looks like a mooncake"
                        + " trace, give --format mooncake");
    }

    @Test
    void emptyAndMissingFilesAreRefused() throws Exception {
        Path empty = write("empty.jsonl", "");
        assertThatThrownBy(() -> TraceReader.open(empty, TraceFormat.MOONCAKE, null, null))
                .hasMessage("empty.jsonl: the trace file is empty: nothing to replay");
        Path blank = write("blank.jsonl", "\n\n");
        assertThatThrownBy(() -> TraceReader.open(blank, TraceFormat.MOONCAKE, null, null))
                .hasMessage("blank.jsonl: the trace file is empty: nothing to replay");
        assertThatThrownBy(() -> TraceReader.open(dir.resolve("nope.csv"), TraceFormat.AZURE, null, null))
                .hasMessage("nope.csv: no such trace file (give the path of a .csv file)");
    }

    @Test
    void theScanCountsTheWindowAndWhatIsBeyondIt() throws Exception {
        Path p = dir.resolve("long.jsonl");
        try (BufferedWriter w = Files.newBufferedWriter(p)) {
            for (int i = 0; i < 100; i++) { // one request every 100 ms for 10 s
                w.write("{\"timestamp\": " + i * 100 + ", \"input_length\": " + (10 + i) + ", \"output_length\": 2}\n");
            }
        }
        TraceScan s = TraceScan.of(new ReplayWindow(p, TraceFormat.MOONCAKE, 2_000_000_000L, 3_000_000_000L,
                Long.MAX_VALUE, null, null));
        assertThat(s.requests()).isEqualTo(30);
        assertThat(s.firstArrivalNanos()).isEqualTo(2_000_000_000L);
        assertThat(s.lastArrivalNanos()).isEqualTo(4_900_000_000L);
        assertThat(s.beyondWindow()).isEqualTo(50);
        assertThat(s.meanInputTokens()).isEqualTo(10 + 34.5);
        TraceScan limited = TraceScan.of(new ReplayWindow(p, TraceFormat.MOONCAKE, 0, Long.MAX_VALUE, 7, null, null));
        assertThat(limited.requests()).isEqualTo(7);
        assertThat(limited.beyondWindow()).isEqualTo(93);
    }
}
