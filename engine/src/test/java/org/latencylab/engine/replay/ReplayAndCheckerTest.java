package org.latencylab.engine.replay;

import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Case parsing, the replay server's behaviour and the checker's verdicts (including failing ones). */
class ReplayAndCheckerTest {
    private static final String ROLE_ONLY = "role-only-first-chunk.json";

    private static String caseText(String file) throws Exception {
        return Files.readString(Path.of("src/test/resources/cases/streams", file));
    }

    @Test
    void malformedCasesNameTheFileAndTheField() {
        assertThatThrownBy(() -> ConformanceCase.parse("{\"format\":1,\"name\":\"x\",\"protocol\":\"openai-chat\","
                + "\"responses\":[{\"status\":200,\"parts\":[{\"at_ms\":-1,\"text\":\"a\"}]}],\"expect\":{}}", "bad.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad.json").hasMessageContaining("responses[0].parts[0].at_ms");
        assertThatThrownBy(() -> ConformanceCase.parse("{\"format\":2}", "future.json"))
                .hasMessageContaining("future.json").hasMessageContaining("format");
        assertThatThrownBy(() -> ConformanceCase.parse("{\"format\":1,\"name\":\"x\",\"protocol\":\"openai-chat\","
                + "\"responses\":[{\"status\":200,\"parts\":[{\"at_ms\":1,\"hex\":\"abc\"}]}],\"expect\":{}}", "hex.json"))
                .hasMessageContaining("hex.json").hasMessageContaining("hex");
        assertThatThrownBy(() -> ConformanceCase.parse("not json", "broken.json")).hasMessageContaining("broken.json");
    }

    @Test
    void replayServerServesAttemptsInOrderWithTimingAndGzipWhenAccepted() throws Exception {
        ConformanceCase c = new ConformanceCase("t", "t", "", "openai-chat", 0, List.of(
                new ConformanceCase.ScriptedResponse(502, Map.of(), null,
                        List.of(new ConformanceCase.Part(0, "busy".getBytes(StandardCharsets.UTF_8)))),
                new ConformanceCase.ScriptedResponse(200, Map.of("Content-Type", "text/plain"), "gzip",
                        List.of(new ConformanceCase.Part(0, "hello ".getBytes(StandardCharsets.UTF_8)),
                                new ConformanceCase.Part(300, "world".getBytes(StandardCharsets.UTF_8))))),
                Map.of());
        OkHttpClient http = new OkHttpClient();
        try (ReplayServer s = ReplayServer.start(c)) {
            try (Response r = http.newCall(new Request.Builder().url(s.baseUrl() + "/any/path").build()).execute()) {
                assertThat(r.code()).isEqualTo(502);
                assertThat(r.body().string()).isEqualTo("busy");
            }
            long t0 = System.nanoTime();
            try (Response r = http.newCall(new Request.Builder().url(s.baseUrl() + "/x")
                    .header("Accept-Encoding", "gzip").build()).execute()) {
                assertThat(r.header("Content-Encoding")).isEqualTo("gzip");
                byte[] raw = r.body().bytes();
                assertThat(new String(new GZIPInputStream(new ByteArrayInputStream(raw)).readAllBytes(),
                        StandardCharsets.UTF_8)).isEqualTo("hello world");
            }
            assertThat((System.nanoTime() - t0) / 1e6).isGreaterThanOrEqualTo(300.0);
            try (Response r = http.newCall(new Request.Builder().url(s.baseUrl() + "/x")
                    .header("Accept-Encoding", "identity").build()).execute()) {
                assertThat(r.header("Content-Encoding")).isNull();
                assertThat(r.body().string()).isEqualTo("hello world");
            }
            assertThat(s.requestCount()).isEqualTo(3);
        } finally {
            http.connectionPool().evictAll();
            http.dispatcher().executorService().shutdown();
        }
    }

    @Test
    void checkerFailsAWrongExpectationAndSaysWhatWasMeasured() throws Exception {
        String text = caseText(ROLE_ONLY).replace("\"ttft_ms\": 400", "\"ttft_ms\": 100")
                .replace("\"Hello world!\"", "\"Goodbye\"");
        CaseResult r = new CaseChecker().check(ConformanceCase.parse(text, ROLE_ONLY));
        assertThat(r.status()).isEqualTo(CaseResult.Status.FAILED);
        assertThat(r.mismatches()).anySatisfy(m -> assertThat(m).startsWith("ttft_ms: expected 100.0..140.0, measured 4"));
        assertThat(r.mismatches()).anySatisfy(m -> assertThat(m).contains("output_text: expected \"Goodbye\"",
                "measured \"Hello world!\""));
    }

    @Test
    void unknownExpectationKeyFailsAndUnknownProtocolIsSkipped() throws Exception {
        String extra = caseText(ROLE_ONLY).replace("\"outcome\": \"success\",", "\"outcome\": \"success\", \"goodput\": 1,");
        CaseResult unknownKey = new CaseChecker().check(ConformanceCase.parse(extra, ROLE_ONLY));
        assertThat(unknownKey.status()).isEqualTo(CaseResult.Status.FAILED);
        assertThat(unknownKey.line()).contains("goodput");
        String grpc = caseText(ROLE_ONLY).replace("\"openai-chat\"", "\"grpc-stream\"");
        CaseResult skipped = new CaseChecker().check(ConformanceCase.parse(grpc, ROLE_ONLY));
        assertThat(skipped.status()).isEqualTo(CaseResult.Status.SKIPPED);
        assertThat(skipped.line()).isEqualTo("SKIP role-only-first-chunk: no adapter for protocol 'grpc-stream'");
    }

    @Test
    void suiteLoadsEveryJsonFileSortedAndSummarises(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("b-case.json"), caseText(ROLE_ONLY).replace("role-only-first-chunk", "b-case"));
        Files.writeString(dir.resolve("a-broken.json"), "{\"format\":1}");
        Files.writeString(dir.resolve("notes.txt"), "ignored");
        List<CaseResult> results = CaseSuite.run(dir);
        assertThat(results).extracting(CaseResult::name).containsExactly("a-broken", "b-case");
        assertThat(results.get(0).status()).isEqualTo(CaseResult.Status.FAILED);
        assertThat(results.get(0).line()).contains("a-broken.json");
        assertThat(results.get(1).status()).isEqualTo(CaseResult.Status.PASSED);
        String report = CaseSuite.format(results);
        assertThat(report.lines().toList()).hasSize(3).last().isEqualTo("1 passed, 1 failed, 0 skipped");
        assertThat(report).contains("PASS b-case\n");
        List<CaseResult> told = new java.util.ArrayList<>();
        List<CaseResult> again = CaseSuite.run(dir, new CaseChecker(), told::add);
        assertThat(told).as("each result is told as its case ends, in file order")
                .extracting(CaseResult::name).containsExactly("a-broken", "b-case");
        assertThat(again).extracting(CaseResult::line).isEqualTo(told.stream().map(CaseResult::line).toList());
    }
}
