package org.latencylab.app.cli;

import org.latencylab.engine.results.RunLayout;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.client.ClosingServer;
import org.latencylab.engine.results.RequestLog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A probe of a healthy server that closes connections between requests: the command line reports no failed request,
 * counts the re-sends in the console, run.json and the HTML report, and says when it stopped reusing connections.
 */
class ReSendCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aProbeOfAServerThatClosesAfterThreeResponsesCountsReSendsAndNoFailures(@TempDir Path dir) throws Exception {
        try (ClosingServer server = new ClosingServer(ClosingServer.Behaviour.MAX_UNSAID, 0, 3)) {
            Path out = dir.resolve("run");
            CommandLineTest.Result r = CommandLineTest.run("probe", "--url", server.baseUrl(), "--model", "m",
                    "-n", "40", "-c", "1", "--max-tokens", "8", "--prompt-tokens", "16", "--no-charts",
                    "--out", out.toString());
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains("requests: 40 sent, 40 ok, 0 failed");
            List<RequestRecord> measured = RequestLog.read(out.resolve(RunLayout.REQUESTS_JSONL)).stream()
                    .filter(RequestRecord::measured).toList();
            long resent = measured.stream().filter(RequestRecord::resent).count();
            assertThat(resent).as("a connection reused after its third response is re-sent").isPositive();
            assertThat(r.out()).contains("re-sent: " + resent + " of 40 requests re-sent after the server closed a"
                    + " pooled connection");
            JsonNode summary = JSON.readTree(out.resolve("run.json").toFile()).path("summary");
            assertThat(summary.path("resent").asLong()).isEqualTo(resent);
            assertThat(summary.path("failed").asLong()).isZero();

            Path html = dir.resolve("report.html");
            CommandLineTest.Result rep = CommandLineTest.run("report", out.toString(), "--out", html.toString());
            assertThat(rep.code()).as(rep.out() + rep.err()).isZero();
            Matcher m = Pattern.compile("re-sent: (\\d+) of 40 requests").matcher(Files.readString(html));
            assertThat(m.find()).as("the report says it too").isTrue();
            assertThat(Long.parseLong(m.group(1))).isEqualTo(resent);
        }
    }

    @Test
    void aProbeOfAServerThatClosesAfterEveryStreamSaysItStoppedReusingAndFailsNothing(@TempDir Path dir)
            throws Exception {
        try (ClosingServer server = new ClosingServer(ClosingServer.Behaviour.CLOSE_AFTER_STREAM, 0, 3)) {
            Path out = dir.resolve("run");
            CommandLineTest.Result r = CommandLineTest.run("probe", "--url", server.baseUrl(), "--model", "m",
                    "-n", "30", "-c", "2", "--max-tokens", "8", "--prompt-tokens", "16", "--no-charts",
                    "--out", out.toString());
            assertThat(r.code()).as(r.out() + r.err()).isZero();
            assertThat(r.out()).contains("requests: 30 sent, 30 ok, 0 failed");
            String notice = "closes its connection right after each streamed response";
            assertThat(r.out() + r.err()).contains(notice);
            assertThat(JSON.readTree(out.resolve("run.json").toFile()).path("notices").toString()).contains(notice);
            List<RequestRecord> measured = RequestLog.read(out.resolve(RunLayout.REQUESTS_JSONL)).stream()
                    .filter(RequestRecord::measured).toList();
            assertThat(measured).as("each streamed request connected anew, its connect time recorded")
                    .allSatisfy(x -> assertThat(x.connectStartNanos()).isNotEqualTo(RequestRecord.UNSET));
        }
    }
}
