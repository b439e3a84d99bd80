package org.latencylab.engine.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RequestLogTest {
    private static final long ORIGIN = 5_000_000_000L;

    private static RequestRecord success(long id) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.label = "probe";
        b.protocol = Protocol.OPENAI_CHAT;
        b.contextTokens = 512;
        b.intendedStartNanos = ORIGIN + 1_000_000;
        b.sendNanos = ORIGIN + 1_500_000;
        b.responseHeadersNanos = ORIGIN + 3_000_000;
        b.firstByteNanos = ORIGIN + 3_100_000;
        b.firstTokenNanos = ORIGIN + 101_500_000;
        b.firstContentNanos = ORIGIN + 101_500_000;
        b.endNanos = ORIGIN + 201_500_000;
        b.tokens = new TokenTimeline(new long[]{ORIGIN + 101_500_000, ORIGIN + 151_500_000, ORIGIN + 201_500_000},
                new int[]{1, 2, 1}, new long[]{ORIGIN + 101_000_000, RequestRecord.UNSET, ORIGIN + 201_000_000});
        b.inputTokens = 512;
        b.outputTokens = 4;
        b.outputTokenSource = TokenSource.SERVER;
        b.attempts = 1;
        b.httpStatus = 200;
        b.serverTimingsMs = Map.of("prompt_eval", 90.5);
        return b.build();
    }

    @Test
    void linesRoundTripWithTimesRelativeToTheRunStart(@TempDir Path dir) {
        Path f = dir.resolve(RunLayout.REQUESTS_JSONL);
        RequestRecord.Builder fail = RequestRecord.builder();
        fail.id = 1;
        fail.sendNanos = ORIGIN + 2_000_000;
        fail.intendedStartNanos = ORIGIN + 2_000_000;
        fail.endNanos = ORIGIN + 9_000_000;
        fail.httpStatus = 503;
        fail.attempts = 3;
        fail.error(ErrorKind.HTTP_STATUS, "HTTP 503 Service Unavailable");
        try (RequestLog log = new RequestLog(f, ORIGIN)) {
            log.append(success(0));
            log.append(fail.build());
            assertThat(log.lines()).isEqualTo(2);
        }
        List<RequestRecord> back = RequestLog.read(f);
        assertThat(back).hasSize(2);
        RequestRecord a = back.get(0);
        RequestRecord orig = success(0);
        assertThat(a.ttftNanos()).isEqualTo(orig.ttftNanos()).isEqualTo(100_000_000L);
        assertThat(a.e2eNanos()).isEqualTo(200_000_000L);
        assertThat(a.dispatchLagNanos()).isEqualTo(500_000L);
        assertThat(a.sendNanos()).isEqualTo(1_500_000L);
        assertThat(a.tpotNanos()).isEqualTo(orig.tpotNanos());
        assertThat(a.tokens().size()).isEqualTo(3);
        assertThat(a.tokens().tokens(1)).isEqualTo(2);
        assertThat(a.tokens().serverStampNanos(0)).isEqualTo(101_000_000L);
        assertThat(a.tokens().serverStampNanos(1)).isEqualTo(RequestRecord.UNSET);
        assertThat(a.outputTokenSource()).isEqualTo(TokenSource.SERVER);
        assertThat(a.serverTimingsMs()).containsEntry("prompt_eval", 90.5);
        RequestRecord b = back.get(1);
        assertThat(b.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
        assertThat(b.attempts()).isEqualTo(3);
        assertThat(b.ttftNanos()).isEqualTo(-1);
        assertThat(b.e2eNanos()).isEqualTo(7_000_000L);
    }

    @Test
    void aReSentRequestKeepsItsReasonItsWastedTimeAndItsFirstSend(@TempDir Path dir) throws Exception {
        Path f = dir.resolve(RunLayout.REQUESTS_JSONL);
        RequestRecord.Builder b = success(3).toBuilder();
        b.resend = Resend.CLOSED_BEFORE_RESPONSE;
        b.resendWastedNanos = 400_000; // the first send at +1.1 ms, the re-send at +1.5 ms
        b.attempts = 2;
        try (RequestLog log = new RequestLog(f, ORIGIN)) {
            log.append(b.build());
        }
        String line = Files.readAllLines(f).get(1);
        assertThat(line).contains("\"resend\":\"closed_before_response\"").contains("\"resend_wasted_ms\":0.4")
                .contains("\"first_send\":1100000");
        RequestRecord back = RequestLog.read(f).get(0);
        assertThat(back.resend()).isEqualTo(Resend.CLOSED_BEFORE_RESPONSE);
        assertThat(back.resendWastedNanos()).isEqualTo(400_000L);
        assertThat(back.ttftNanos()).as("from the re-send").isEqualTo(100_000_000L);
        assertThat(back.dispatchLagNanos()).as("intended to first send: the wasted attempt is not dispatch lag")
                .isEqualTo(100_000L);
        assertThat(back.e2eFromIntendedNanos()).as("from the intended start it is all there").isEqualTo(200_500_000L);
        assertThat(success(4).resent()).isFalse();
    }

    @Test
    void theHumanReadableFieldsAreMilliseconds(@TempDir Path dir) throws Exception {
        Path f = dir.resolve(RunLayout.REQUESTS_JSONL);
        try (RequestLog log = new RequestLog(f, ORIGIN)) {
            log.append(success(7));
        }
        assertThat(Files.readAllLines(f).get(0)).isEqualTo("{\"requests_format\":2}");
        String line = Files.readAllLines(f).get(1);
        assertThat(line).contains("\"ttft_ms\":100.0").contains("\"e2e_ms\":200.0").contains("\"id\":7")
                .contains("\"outcome\":\"success\"");
    }

    @Test
    void aTornLastLineIsSkippedAndEveryCompleteLineKept(@TempDir Path dir) throws Exception {
        Path f = dir.resolve(RunLayout.REQUESTS_JSONL);
        try (RequestLog log = new RequestLog(f, ORIGIN)) {
            log.append(success(0));
            log.append(success(1));
        }
        Files.writeString(f, "{\"id\":2,\"label\":\"pro", StandardOpenOption.APPEND);
        assertThat(RequestLog.read(f)).extracting(RequestRecord::id).containsExactly(0L, 1L);
    }

    @Test
    void aRecordReachesTheFileWhileTheLogIsOpenWithoutSyncOrClose(@TempDir Path dir) throws Exception {
        Path f = dir.resolve(RunLayout.REQUESTS_JSONL);
        try (RequestLog log = new RequestLog(f, ORIGIN)) {
            log.append(success(3));
            long deadline = System.nanoTime() + 5_000_000_000L; // the period is 20 ms; a busy machine may be slower
            while (Files.readAllLines(f).size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            // what a crash right now would leave: the header and the finished request, from the operating system
            assertThat(Files.readAllLines(f)).hasSize(2);
            assertThat(RequestLog.read(f)).extracting(RequestRecord::id).containsExactly(3L);
            log.append(success(4));
            log.append(success(5));
        }
        assertThat(RequestLog.read(f)).extracting(RequestRecord::id).containsExactly(3L, 4L, 5L);
    }
}
