package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Real files through Jackson's real parser: the words, file, line and column of what went wrong. */
class ReadErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String read(Path file) {
        try {
            JSON.readTree(file.toFile());
        } catch (Exception e) {
            return ReadErrors.describe(file, e);
        }
        throw new AssertionError("parsed: " + file);
    }

    @Test
    void aFileCutShortNamesTheLineAndColumnWhereItEnds(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run.json");
        Files.writeString(f, "{\n  \"format\": 1,\n  \"name\": \"probe\",\n  \"status\": \"comp");
        assertThat(read(f)).isEqualTo(f + ": line 4, column 18: the file ends before the JSON is complete (was it cut"
                + " short, e.g. by a crash, a full disk or a copy that did not finish?)");
        Files.writeString(f, "{\n  \"format\": 1,\n");
        assertThat(read(f)).startsWith(f + ": line 3, column 1: the file ends before the JSON is complete");
    }

    @Test
    void binaryBytesAreNotUtf8TextAndNameTheByte(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run.json");
        Files.write(f, new byte[]{(byte) 0x89, 'P', 'N', 'G'});
        assertThat(read(f)).isEqualTo(f + ": line 1, column 2: not UTF-8 text: byte 0x89 cannot be read as UTF-8 (is it a"
                + " binary file, or saved in another encoding?)");
    }

    @Test
    void anEmptyFileIsSaidToBeEmptyWithoutALocation(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run.json");
        Files.writeString(f, "");
        try {
            JSON.readValue(f.toFile(), Object.class);
            throw new AssertionError("parsed");
        } catch (Exception e) {
            assertThat(ReadErrors.describe(f, e)).isEqualTo(f + ": the file is empty");
        }
    }

    @Test
    void otherSyntaxErrorsKeepTheParsersSentenceWithoutCodesSourceOrClassNames(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("run.json");
        Files.writeString(f, "{\"a\": 1,\n }");
        String m = read(f);
        assertThat(m).startsWith(f + ": line 2, column 2: Unexpected character ('}'): was expecting double-quote"
                + " to start field name").doesNotContain("code 125").doesNotContain("[Source")
                .doesNotContain("REDACTED").doesNotContain("\n");
        Files.writeString(f, "{\"a\": tru}");
        assertThat(read(f)).startsWith(f + ": line 1, column ").contains("Unrecognized token 'tru'")
                .doesNotContain("[Source");
    }

    @Test
    void runFilesRefusesACutShortRunJsonAsBadInputInTheseWords(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(RunLayout.RUN_JSON), "{\n  \"format\": 1,\n  \"na");
        assertThatThrownBy(() -> RunFiles.readRunJson(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(dir.resolve(RunLayout.RUN_JSON) + ": line 3, column 6: the file ends before the JSON is"
                        + " complete (was it cut short, e.g. by a crash, a full disk or a copy that did not finish?)");
    }

    @Test
    void aBrokenRequestLogLineNamesTheFilesLineAndTheColumnInIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve(RunLayout.REQUESTS_JSONL);
        Files.writeString(f, "{\"x\": ]\n{}\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RequestLog.read(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(f + ": line 1, column 7: not a JSON record: Unexpected character (']')")
                .message().doesNotContain("[Source");
    }
}
