package org.latencylab.engine.replay;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.RequestRecord;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.assertj.core.api.Assertions.assertThat;

/** A late replay server is reported apart from a late client (cases README, "Server behaviours"). */
class ServerLatenessTest {
    private static final long MS = 1_000_000;

    /** A served request whose parts were due at {@code atMs} and written {@code lateMs} after that. */
    private static ReplayServer.Served served(long read, long[] atMs, long[] lateMs) {
        long[] due = new long[atMs.length];
        AtomicLongArray written = new AtomicLongArray(atMs.length);
        for (int i = 0; i < atMs.length; i++) {
            due[i] = read + atMs[i] * MS;
            written.set(i, due[i] + lateMs[i] * MS);
        }
        return new ReplayServer.Served(0, 0, read, due, written);
    }

    private static RequestRecord measured(long send, double ttftMs) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.sendNanos = send;
        b.intendedStartNanos = send;
        b.requestSentNanos = send + MS; // the request is written at once; the servers below read it then
        b.firstTokenNanos = send + (long) (ttftMs * MS);
        b.endNanos = b.firstTokenNanos + MS;
        b.attempts = 1;
        return b.build();
    }

    @Test
    void aTimingMissTheServersOwnLatenessExplainsIsNotTheClients() {
        long send = 1_000_000_000L;
        // part 3 (due at 400 ms) went out 42 ms late; the client saw it 0.5 ms after that
        ReplayServer.Served s = served(send + MS, new long[]{0, 200, 400}, new long[]{0, 0, 42});
        CaseChecker.Judgement j = CaseChecker.judge(Map.of("ttft_ms", 400), measured(send, 443.5), List.of(s));
        assertThat(j.clientMismatches()).isEmpty();
        assertThat(j.serverLate()).singleElement().asString()
                .startsWith("ttft_ms: server wrote part 3 42.0 ms late: not judged on timing")
                .contains("measured 443.5");
    }

    @Test
    void aLateClientBehindAnOnTimeServerFails() {
        long send = 1_000_000_000L;
        ReplayServer.Served s = served(send + MS, new long[]{0, 200, 400}, new long[]{0, 0, 0});
        CaseChecker.Judgement j = CaseChecker.judge(Map.of("ttft_ms", 400), measured(send, 443.5), List.of(s));
        assertThat(j.serverLate()).isEmpty();
        assertThat(j.clientMismatches()).singleElement().asString().startsWith("ttft_ms: expected 400.0..440.0");
        // a late-side timing miss only: how far beyond the window (what a stall of the process would have to explain)
        assertThat(j.timingOnlyExcessMs()).isCloseTo(3.5, org.assertj.core.api.Assertions.within(0.01));
        // the server was 2 ms late, the client 43: the server does not explain the miss
        ReplayServer.Served slightly = served(send + MS, new long[]{0, 200, 400}, new long[]{0, 0, 2});
        CaseChecker.Judgement k = CaseChecker.judge(Map.of("ttft_ms", 400), measured(send, 443.5), List.of(slightly));
        assertThat(k.serverLate()).isEmpty();
        assertThat(k.clientMismatches()).singleElement().asString().contains("does not explain it");
        assertThat(k.timingOnlyExcessMs()).as("what the client added after the server's 2 ms")
                .isCloseTo(1.5, org.assertj.core.api.Assertions.within(0.01));
        // too early is never the server's fault
        CaseChecker.Judgement early = CaseChecker.judge(Map.of("ttft_ms", 400), measured(send, 300),
                List.of(served(send + MS, new long[]{0, 400}, new long[]{0, 90})));
        assertThat(early.clientMismatches()).hasSize(1);
        assertThat(early.timingOnlyExcessMs()).isZero();
    }

    @Test
    void theReplayServerRecordsWhenItActuallyWroteEachPart() throws Exception {
        Path file = Path.of(ConformanceCasesTest.casesDir().toString(), "role-only-first-chunk.json");
        ConformanceCase c = ConformanceCase.parse(Files.readString(file, StandardCharsets.UTF_8), file.getFileName()
                .toString());
        CaseResult r = new CaseChecker().check(c);
        assertThat(r.status()).as(r.line()).isIn(CaseResult.Status.PASSED, CaseResult.Status.SERVER_LATE);
        try (ReplayServer server = ReplayServer.start(c)) {
            var http = java.net.http.HttpClient.newHttpClient();
            http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.baseUrl() + "/v1/chat/completions"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            ReplayServer.Served s = server.served().get(0);
            int parts = c.responses().get(0).parts().size();
            assertThat(s.dueNanos()).hasSize(parts);
            for (int k = 0; k < parts; k++) {
                assertThat(s.lateNanos(k)).as("part %d written, not early", k + 1).isGreaterThanOrEqualTo(0);
                assertThat(s.writtenNanos().get(k)).isGreaterThanOrEqualTo(s.dueNanos()[k]);
                assertThat(s.dueNanos()[k] - s.readNanos()).isEqualTo(c.responses().get(0).parts().get(k).atMs() * MS);
            }
        }
    }

    @Test
    void caseLinesAndTheSummaryKeepALateServerApart() {
        CaseResult late = new CaseResult("x", CaseResult.Status.SERVER_LATE,
                List.of("ttft_ms: server wrote part 3 42.0 ms late: not judged on timing (expected 400.0..440.0, measured 443.5)"),
                null);
        assertThat(late.line()).startsWith("LATE x: ttft_ms: server wrote part 3");
        assertThat(CaseSuite.summary(List.of(late, new CaseResult("y", CaseResult.Status.PASSED, List.of(), null))))
                .isEqualTo("1 passed, 0 failed, 0 skipped, 1 not judged on timing (server late)");
    }

    @Test
    void aServerThatReadTheRequestLateIsLateForEveryPart() {
        long send = 1_000_000_000L;
        RequestRecord.Builder b = measured(send, 610).toBuilder();
        b.requestSentNanos = send + MS / 2;
        // every part on time after the read, but the read came 400 ms after the client had written the request
        ReplayServer.Served s = served(send + 400 * MS, new long[]{0, 210}, new long[]{0, 0});
        CaseChecker.Judgement j = CaseChecker.judge(Map.of("ttft_ms", 210), b.build(), List.of(s));
        assertThat(j.clientMismatches()).isEmpty();
        assertThat(j.serverLate()).singleElement().asString()
                .contains("server wrote part 2 399.5 ms late (it read the request 399.5 ms after the client had sent it)");
    }
}
