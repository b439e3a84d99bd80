package org.latencylab.engine.client;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.client.ClosingServer.Behaviour;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * Servers that close connections between requests, as real ones do, must never read as failing requests: a request
 * whose pooled connection the server had closed is sent once more on a new connection and says so; the server's
 * connection rules ({@code Keep-Alive: max, timeout}) are followed; a real failure (a cut stream) stays an error and
 * is never re-sent. Both HTTP paths (the own HTTP/1.1 one and OkHttp), at concurrency 1, 4 and 64, against
 * {@link ClosingServer} on loopback.
 */
class ConnectionReuseTest {
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    private ClosingServer server(Behaviour b, int max) throws Exception {
        ClosingServer s = new ClosingServer(b, 0, max);
        closeables.add(s);
        return s;
    }

    private LlmClient client(boolean direct) {
        LlmClient c = new LlmClient(ClientOptions.DEFAULTS, name -> null, HttpVersion.AUTO, direct);
        closeables.add(c);
        return c;
    }

    private static Endpoint endpoint(ClosingServer s) {
        return new Endpoint("closing", Protocol.OPENAI_CHAT, s.baseUrl(), "m", null, Map.of(), true);
    }

    private static final AtomicLong IDS = new AtomicLong();

    private static RequestRecord send(LlmClient client, ClosingServer s) {
        return client.execute(endpoint(s), GenerationRequest.streaming("hello", 8),
                new RequestTicket(IDS.incrementAndGet(), "t", 5, System.nanoTime()));
    }

    /**
     * A closed loop as a probe runs it: connections opened first (one unrecorded request per worker), then
     * {@code concurrency} workers each send {@code perWorker} streaming requests back to back.
     */
    private static List<RequestRecord> closedLoop(LlmClient client, ClosingServer s, int concurrency, int perWorker)
            throws InterruptedException {
        assertThat(client.openConnections(endpoint(s), concurrency, true)).as("warm-up failures").isZero();
        List<RequestRecord> records = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(concurrency);
        for (int w = 0; w < concurrency; w++) {
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (int i = 0; i < perWorker; i++) {
                        records.add(send(client, s));
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        assertThat(done.await(120, TimeUnit.SECONDS)).as("the loop ended").isTrue();
        return records;
    }

    static Stream<Arguments> closingServers() {
        List<Arguments> out = new ArrayList<>();
        for (Behaviour b : List.of(Behaviour.KEEP, Behaviour.CLOSE_AFTER_STREAM, Behaviour.MAX_SAID,
                Behaviour.MAX_UNSAID, Behaviour.RESET_ON_REUSE)) {
            for (boolean direct : new boolean[]{true, false}) {
                for (int c : new int[]{1, 4, 64}) {
                    out.add(Arguments.of(b, direct, c));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, direct HTTP/1.1 {1}, concurrency {2}")
    @MethodSource("closingServers")
    void aHealthyServerThatClosesConnectionsHasNoFailedRequestAndEveryReSendIsRecorded(Behaviour b, boolean direct,
                                                                                      int concurrency)
            throws Exception {
        ClosingServer s = server(b, 3);
        LlmClient client = client(direct);
        int perWorker = concurrency == 64 ? 5 : 20;
        List<RequestRecord> records = closedLoop(client, s, concurrency, perWorker);

        assertThat(records).hasSize(concurrency * perWorker);
        List<String> failures = records.stream().filter(r -> !r.succeeded())
                .map(r -> r.outcome() + " " + r.errorKind() + ": " + r.errorMessage()).toList();
        assertThat(failures).as("a server that closes connections between requests is not failing").isEmpty();
        for (RequestRecord r : records) {
            assertThat(r.tokens().size()).isEqualTo(ClosingServer.EVENTS);
            if (r.resent()) {
                assertThat(r.attempts()).as("the re-send is an attempt").isEqualTo(2);
                assertThat(r.connectStartNanos()).as("a re-send runs on a new connection, its connect stamped")
                        .isNotEqualTo(UNSET);
                assertThat(r.resendWastedNanos()).isPositive();
                assertThat(r.firstSendNanos()).isEqualTo(r.sendNanos() - r.resendWastedNanos());
                assertThat(r.firstTokenNanos()).as("TTFT counts from the re-send").isGreaterThan(r.sendNanos());
            } else {
                assertThat(r.attempts()).isEqualTo(1);
            }
        }
        long resent = records.stream().filter(RequestRecord::resent).count();
        // every generation request the server read is one record or one warm-up request: a re-send never reached
        // a server that worked on the first attempt
        assertThat(s.generations.get()).isEqualTo(records.size() + concurrency);
        if (b == Behaviour.KEEP) {
            assertThat(resent).isZero();
            if (direct) { // OkHttp's pools are per thread lane: a warm-up thread's connection is another lane's
                assertThat(s.connections.get()).as("one connection per worker").isEqualTo(concurrency);
            }
        }
        if (b == Behaviour.RESET_ON_REUSE) {
            // every reuse is reset: re-sent until the habit is learnt (then connections are not reused after
            // streams); the warm-up's own re-sends may have taught it before the first measured request
            List<String> notices = client.takeConnectionNotices();
            assertThat(resent > 0 || !notices.isEmpty())
                    .as("reused connections were reset and re-sent, or the habit was learnt: " + notices).isTrue();
            assertThat(notices).hasSizeLessThanOrEqualTo(1);
            assertThat(records.stream().filter(RequestRecord::resent).map(RequestRecord::resend))
                    .allMatch(x -> x == Resend.RESET_BEFORE_RESPONSE || x == Resend.WRITE_FAILED
                            || x == Resend.CLOSED_BEFORE_RESPONSE);
        }
        if (b == Behaviour.MAX_SAID && concurrency == 1) {
            assertThat(resent).as("Keep-Alive: max=3 is followed: a connection is not used for a fourth request")
                    .isZero();
        }
        if (b == Behaviour.CLOSE_AFTER_STREAM) {
            assertThat(client.takeConnectionNotices()).as("the habit is said once")
                    .singleElement().asString().contains("closes its connection right after each streamed response");
            assertThat(resent).as("once the habit is known, no request races the close")
                    .isLessThanOrEqualTo(2L * concurrency + ConnectionHabits.SEEN_TO_ACT);
        }
    }

    @ParameterizedTest(name = "direct HTTP/1.1 {0}")
    @ValueSource(booleans = {true, false})
    void aStreamCutByTheServerIsTruncatedEveryTimeAndNeverReSent(boolean direct) throws Exception {
        ClosingServer s = server(Behaviour.TRUNCATE, 3);
        LlmClient client = client(direct);
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            records.add(send(client, s));
        }
        assertThat(records).allSatisfy(r -> {
            assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TRUNCATED);
            assertThat(r.resent()).isFalse();
            assertThat(r.attempts()).isEqualTo(1);
            assertThat(r.tokens().size()).as("the three events before the cut are kept").isEqualTo(3);
        });
        assertThat(s.requests.get()).as("each request reached the server once").isEqualTo(20);
    }

    @ParameterizedTest(name = "direct HTTP/1.1 {0}")
    @ValueSource(booleans = {true, false})
    void aConnectionIdleLongerThanTheServerSaysIsNotReusedAndOneClosedUnannouncedIsReSent(boolean direct)
            throws Exception {
        ClosingServer said = server(Behaviour.IDLE_SAID, 3);
        ClosingServer unsaid = server(Behaviour.IDLE_UNSAID, 3);
        LlmClient client = client(direct);
        for (ClosingServer s : List.of(said, unsaid)) {
            assertThat(send(client, s).succeeded()).isTrue();
        }
        Thread.sleep(1_300); // both servers close a connection idle for 1 s
        RequestRecord afterSaid = send(client, said);
        RequestRecord afterUnsaid = send(client, unsaid);
        for (RequestRecord r : List.of(afterSaid, afterUnsaid)) {
            assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
            assertThat(r.connectStartNanos()).as("a new connection, its connect inside the request")
                    .isNotEqualTo(UNSET);
        }
        if (direct) {
            // Keep-Alive: timeout=1 is followed: the idle connection is dropped before the send, nothing re-sent
            assertThat(afterSaid.resent()).isFalse();
            assertThat(afterSaid.attempts()).isEqualTo(1);
        }
        assertThat(said.connections.get()).isEqualTo(2);
        assertThat(unsaid.generations.get()).isEqualTo(2);
    }
}
