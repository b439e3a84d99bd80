package org.latencylab.engine.client;

import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.replay.ConformanceCase;
import org.latencylab.engine.replay.ReplayServer;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The client against real loopback servers: metrics, headers, error classification, retries. */
class LlmClientTest {
    private static final String KEY = "sk-test-4f9a0c1e77b2secret";

    private MockWebServer mock;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        mock = new MockWebServer();
        mock.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        mock.close();
    }

    private LlmClient client(ClientOptions options) {
        LlmClient c = new LlmClient(options, name -> "TEST_KEY".equals(name) ? KEY : null);
        closeables.add(c);
        return c;
    }

    private LlmClient client() {
        return client(ClientOptions.DEFAULTS);
    }

    private static RequestTicket ticket() {
        return new RequestTicket(7, "test", 100, System.nanoTime());
    }

    private static Endpoint endpoint(String baseUrl) {
        return new Endpoint("t", Protocol.OPENAI_CHAT, baseUrl, "m", "TEST_KEY", Map.of("X-Extra", "1"), true);
    }

    private Endpoint mockEndpoint() {
        String url = mock.url("/").toString();
        return endpoint(url.substring(0, url.length() - 1));
    }

    /** A replay server for one scripted SSE response; parts are (at_ms, text) pairs. */
    private String replay(int status, Object... atAndText) throws Exception {
        List<ConformanceCase.Part> parts = new ArrayList<>();
        for (int i = 0; i < atAndText.length; i += 2) {
            parts.add(new ConformanceCase.Part(((Number) atAndText[i]).longValue(),
                    ((String) atAndText[i + 1]).getBytes(StandardCharsets.UTF_8)));
        }
        ConformanceCase c = new ConformanceCase("inline", "inline", "", "openai-chat", 0,
                List.of(new ConformanceCase.ScriptedResponse(status, Map.of("Content-Type", "text/event-stream"),
                        null, parts)), Map.of());
        ReplayServer s = ReplayServer.start(c);
        closeables.add(s);
        return s.baseUrl();
    }

    private static String chunk(String deltaJson) {
        return "data: {\"choices\":[{\"index\":0,\"delta\":" + deltaJson + ",\"finish_reason\":null}]}\n\n";
    }

    private static final String FINISH = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    /** Queues {@code n} short successful SSE responses (one content chunk, finish, done) on the mock server. */
    private void enqueueOkStreams(int n) {
        for (int i = 0; i < n; i++) {
            mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                    .body(chunk("{\"content\":\"ok\"}") + FINISH + DONE).build());
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    @Test
    void aParserThatFallsBehindDoesNotMoveTheStampsOfEventsThatArrivedInTheSameRead() throws Exception {
        // five events written in one flush at 100 ms: they arrive in one read; the first-token callback then holds
        // the parsing thread for 150 ms, so the parser reaches events 2..5 late. Their stamps must still be the
        // read's time (the old parser-time stamps were 150 ms later), and the read was after the flush.
        String url = replay(200, 100, chunk("{\"content\":\"a\"}") + chunk("{\"content\":\"b\"}")
                + chunk("{\"content\":\"c\"}") + chunk("{\"content\":\"d\"}") + chunk("{\"content\":\"e\"}"),
                400, FINISH, 401, DONE);
        Runnable slowParser = () -> {
            try {
                Thread.sleep(150);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket(), slowParser);
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.tokens().size()).isEqualTo(5);
        long first = r.tokens().arrivalNanos(0);
        for (int i = 1; i < 5; i++) {
            assertThat(ms(r.tokens().arrivalNanos(i) - first)).as("event %d after the first", i).isLessThan(20.0);
        }
        assertThat(ms(r.ttftNanos())).isBetween(100.0, 240.0);
        assertThat(ms(r.endNanos() - r.firstTokenNanos())).isGreaterThan(240.0); // [DONE] came at 401 ms
    }

    @Test
    void aStreamRequestAnsweredWithOneJsonBodyIsASuccessTimedAtTheBodyAndMarkedUnstreamed() throws Exception {
        List<ConformanceCase.Part> parts = List.of(new ConformanceCase.Part(300,
                ("{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Whole reply.\"},"
                        + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}")
                        .getBytes(StandardCharsets.UTF_8)));
        ConformanceCase c = new ConformanceCase("json", "json", "", "openai-chat", 0,
                List.of(new ConformanceCase.ScriptedResponse(200, Map.of("Content-Type", "application/json"),
                        null, parts)), Map.of());
        ReplayServer s = ReplayServer.start(c);
        closeables.add(s);
        RequestRecord r = client().execute(endpoint(s.baseUrl()), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.streamHonoured()).isFalse();
        assertThat(r.outputText()).isEqualTo("Whole reply.");
        assertThat(r.outputTokens()).isEqualTo(3);
        assertThat(ms(r.ttftNanos())).isBetween(300.0, 450.0);
        assertThat(r.firstTokenNanos()).isEqualTo(r.endNanos());
    }

    @Test
    void roleOnlyFirstChunkDoesNotCountAsFirstToken() throws Exception {
        String url = replay(200, 0, chunk("{\"role\":\"assistant\",\"content\":\"\"}"),
                300, chunk("{\"content\":\"Hi\"}"), 320, chunk("{\"content\":\" you\"}"), 330, FINISH, 331, DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(ms(r.ttftNanos())).isBetween(300.0, 500.0);
        assertThat(ms(r.timeToFirstContentNanos())).isEqualTo(ms(r.ttftNanos()));
        assertThat(r.tokens().size()).isEqualTo(2);
        assertThat(r.outputText()).isEqualTo("Hi you");
        assertThat(r.outputTokenSource()).isEqualTo(TokenSource.TOKENIZER);
        assertThat(r.outputTokens()).isEqualTo(r.tokens().totalTokens()).isGreaterThanOrEqualTo(2);
        assertThat(r.id()).isEqualTo(7);
        assertThat(r.contextTokens()).isEqualTo(100);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.httpStatus()).isEqualTo(200);
    }

    @Test
    void firstByteComesLongBeforeFirstTokenWhenTheServerSendsComments() throws Exception {
        String url = replay(200, 0, ": keep-alive\n\n", 200, ": keep-alive\n\n",
                600, chunk("{\"content\":\"Yes\"}"), 610, FINISH, 611, DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(ms(r.timeToFirstByteOfBodyNanos())).isLessThan(300.0);
        assertThat(ms(r.ttfbNanos())).isLessThan(300.0);
        assertThat(ms(r.ttftNanos())).isBetween(600.0, 800.0);
        assertThat(r.requestSentNanos()).isGreaterThanOrEqualTo(r.sendNanos());
        assertThat(r.responseHeadersNanos()).isGreaterThanOrEqualTo(r.requestSentNanos());
        assertThat(r.connectStartNanos()).isNotEqualTo(RequestRecord.UNSET);
    }

    @Test
    void streamingSendsIdentityEncodingAuthAndExtraHeadersButKeepsTheKeyOutOfTheRecord() throws Exception {
        mock.enqueue(new MockResponse.Builder().code(401)
                .body("{\"error\":{\"message\":\"invalid key " + KEY + "\"}}").build());
        RequestRecord r = client().execute(mockEndpoint(), GenerationRequest.streaming("hello", 10), ticket());
        RecordedRequest req = mock.takeRequest(5, TimeUnit.SECONDS);
        assertThat(req.getHeaders().get("Accept-Encoding")).isEqualTo("identity");
        assertThat(req.getHeaders().get("Authorization")).isEqualTo("Bearer " + KEY);
        assertThat(req.getHeaders().get("X-Extra")).isEqualTo("1");
        assertThat(req.getTarget()).isEqualTo("/v1/chat/completions");
        String body = req.getBody().utf8();
        assertThat(body).contains("\"stream\":true", "\"include_usage\":true", "\"max_tokens\":10", "hello");
        assertThat(r.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
        assertThat(r.httpStatus()).isEqualTo(401);
        assertThat(r.errorMessage()).contains("401").doesNotContain(KEY);
        assertThat(r.toString()).doesNotContain(KEY);
    }

    @Test
    void serverError500IsHttpStatus() {
        mock.enqueue(new MockResponse.Builder().code(500).body("boom").build());
        RequestRecord r = client().execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
        assertThat(r.errorMessage()).contains("500").contains("boom");
        assertThat(r.attempts()).isEqualTo(1);
    }

    @Test
    void refusedPortIsConnectionError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        RequestRecord r = client().execute(endpoint("http://127.0.0.1:" + port),
                GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.CONNECTION);
        assertThat(r.httpStatus()).isZero();
        assertThat(r.sendNanos()).isNotEqualTo(RequestRecord.UNSET);
        assertThat(r.errorMessage())
                .startsWith("no response: connection refused: nothing listens at that host and port")
                .doesNotContain("Exception");
    }

    @Test
    void streamClosedBeforeTheEndMarkerIsTruncated() throws Exception {
        String url = replay(200, 0, chunk("{\"content\":\"Hel\"}"), 50, chunk("{\"content\":\"lo\"}"));
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TRUNCATED);
        assertThat(r.tokens().size()).isEqualTo(2);
        assertThat(r.outputText()).isEqualTo("Hello");
    }

    @Test
    void warmRequestsOpenNewConnectionsUntilThePoolHoldsAsManyAsTheLoopNeeds() throws Exception {
        // a closed loop's workers warm one after another when the server answers fast: each must leave one more idle
        // connection, or measured requests connect in the loop's first waves (a third of a 256-way probe's did)
        enqueueOkStreams(5);
        LlmClient c = client();
        Endpoint e = mockEndpoint();
        List<Integer> connections = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // three workers, then a fourth warm-up for a loop of three (a later step)
            RequestRecord w = c.warm(e, true, 3);
            assertThat(w.outcome()).as(String.valueOf(w.errorMessage())).isEqualTo(Outcome.SUCCESS);
            connections.add(mock.takeRequest(5, TimeUnit.SECONDS).getConnectionIndex());
        }
        assertThat(connections.subList(0, 3)).as("server connections of the three warm-ups").doesNotHaveDuplicates();
        assertThat(connections.get(3)).as("the fourth takes an idle one").isIn(connections.subList(0, 3));
        // a measured request then finds an idle connection: no connect inside its time
        RequestRecord m = c.execute(e, GenerationRequest.streaming("p", 10), ticket());
        assertThat(m.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(m.connectStartNanos()).isEqualTo(RequestRecord.UNSET);
    }

    @Test
    void preparedRequestsAreSentAsBuiltWithNoBuildingAtSendTime() throws Exception {
        enqueueOkStreams(4);
        LlmClient c = client();
        Endpoint e = mockEndpoint();
        // two equal warm prompts (distinct objects) and one other, as a closed loop prepares them
        GenerationRequest a1 = GenerationRequest.streaming("same prompt", 10);
        GenerationRequest a2 = GenerationRequest.streaming("same prompt", 10);
        GenerationRequest b = GenerationRequest.streaming("other prompt", 10);
        assertThat(c.prepare(e, a1)).isTrue();
        assertThat(c.prepare(e, a2)).isTrue();
        assertThat(c.prepare(e, b)).isTrue();
        long built = c.builds();
        for (GenerationRequest r : List.of(b, a2, a1)) {
            RequestRecord rec = c.execute(e, r, ticket());
            assertThat(rec.outcome()).as(String.valueOf(rec.errorMessage())).isEqualTo(Outcome.SUCCESS);
            String body = mock.takeRequest(5, TimeUnit.SECONDS).getBody().utf8();
            assertThat(body).contains("\"" + r.prompt() + "\"", "\"stream\":true");
        }
        assertThat(c.builds()).as("sends of prepared requests build nothing").isEqualTo(built);
        // a third send of the warm prompt was not prepared: it is built when sent, and still correct
        RequestRecord extra = c.execute(e, GenerationRequest.streaming("same prompt", 10), ticket());
        assertThat(extra.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(mock.takeRequest(5, TimeUnit.SECONDS).getBody().utf8()).contains("\"same prompt\"");
        assertThat(c.builds()).isEqualTo(built + 1);
    }

    @Test
    void equalPreparedRequestsSentFromManyThreadsAtOnceUseEachPreparedBuildExactlyOnce() throws Exception {
        int threads = 8;
        int each = 8;
        for (int i = 0; i < threads * each + 1; i++) {
            mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                    .body(chunk("{\"content\":\"ok\"}") + FINISH + DONE).build());
        }
        LlmClient c = client();
        Endpoint e = mockEndpoint();
        for (int i = 0; i < threads * each; i++) {
            assertThat(c.prepare(e, GenerationRequest.streaming("warm prompt", 10))).isTrue();
        }
        long built = c.builds();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<RequestRecord>> sent = new java.util.ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < each; i++) {
                    sent.add(pool.submit(() -> {
                        go.await();
                        return c.execute(e, GenerationRequest.streaming("warm prompt", 10), ticket());
                    }));
                }
            }
            go.countDown();
            for (java.util.concurrent.Future<RequestRecord> f : sent) {
                RequestRecord r = f.get(30, TimeUnit.SECONDS);
                assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(c.builds()).as("64 sends used the 64 prepared uses, none built its own").isEqualTo(built);
        assertThat(c.execute(e, GenerationRequest.streaming("warm prompt", 10), ticket()).outcome())
                .isEqualTo(Outcome.SUCCESS);
        assertThat(c.builds()).as("the uses are spent: the next send builds").isEqualTo(built + 1);
    }

    @Test
    void eventsThatAreNotOneCompleteJsonObjectFailTheRequestAndDoNotHang() throws Exception {
        String good = chunk("{\"content\":\"a\"}");
        String[][] cases = {
            {"data: {\"choices\":[]} {\"x\":1}\n\n", "protocol", "event data is not a JSON object"},
            {"data: [1,2]\n\n", "protocol", "event data is not a JSON object"},
            {"data: 42\n\n", "protocol", "event data is not a JSON object"},
            // a complete SSE event whose JSON stops inside the choices array: must fail, not wait for more
            {"data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}\n\n", "protocol", "event data is not a JSON object"},
            {"data: {\"choices\":[{\"delta\":{\"content\":\"b\"},\"logprobs\":{\"c\":[1,\n\n", "protocol",
                "event data is not a JSON object"},
        };
        for (String[] c : cases) {
            String url = replay(200, 0, good, 10, c[0], 20, FINISH + DONE);
            RequestRecord r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5),
                    () -> client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket()));
            assertThat(r.errorKind()).as(c[0]).isEqualTo(ErrorKind.fromId(c[1]));
            assertThat(r.errorMessage()).as(c[0]).contains(c[2]);
            assertThat(r.outputText()).as("the event before the bad one still counts").isEqualTo("a");
        }
        // the body ends inside an event's JSON: truncated
        mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                .body(good + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"")
                .onResponseEnd(new mockwebserver3.SocketEffect.CloseSocket(true, false, false)).build());
        RequestRecord cut = client().execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(cut.errorKind()).isEqualTo(ErrorKind.TRUNCATED);
        assertThat(cut.outputText()).isEqualTo("a");
    }

    @Test
    void aLeadingByteOrderMarkIsSkippedAndTheFirstEventKept() throws Exception {
        // the mark alone in the first write, then the events: the skip must wait for three bytes, not one read
        String url = replay(200, 0, "\uFEFF", 20, chunk("{\"content\":\"a\"}"), 40,
                chunk("{\"content\":\"b\"}") + FINISH + DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputText()).isEqualTo("ab");
        assertThat(r.tokens().size()).isEqualTo(2);
        String joined = replay(200, 0, "\uFEFF" + chunk("{\"content\":\"a\"}") + FINISH + DONE);
        assertThat(client().execute(endpoint(joined), GenerationRequest.streaming("p", 10), ticket()).outputText())
                .isEqualTo("a");
    }

    @Test
    void aBaseUrlWithoutSchemeGetsAHint() {
        assertThatThrownByMessage(() -> endpoint("127.0.0.1:8000")).contains("did you mean http://127.0.0.1:8000 ?");
        assertThatThrownByMessage(() -> endpoint("localhost:8000/v1")).contains("did you mean http://localhost:8000/v1 ?");
        assertThatThrownByMessage(() -> endpoint("ftp://host")).doesNotContain("did you mean");
    }

    private static org.assertj.core.api.AbstractStringAssert<?> assertThatThrownByMessage(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return assertThat(e.getMessage());
        }
        throw new AssertionError("no IllegalArgumentException");
    }

    @Test
    void socketClosedMidStreamIsTruncated() {
        mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                .body(chunk("{\"content\":\"Hel\"}") + "data: {\"choi")
                .onResponseEnd(new mockwebserver3.SocketEffect.CloseSocket(true, false, false)).build());
        RequestRecord r = client().execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).as(r.errorMessage()).isIn(ErrorKind.TRUNCATED);
        assertThat(r.outputText()).isEqualTo("Hel");
    }

    @Test
    void aBodyThatEndsCleanlyInsideAnEventIsTruncatedWithoutBlamingTheConnection() throws Exception {
        // the server ends the body properly, but in the middle of an event's line
        String url = replay(200, 0, chunk("{\"content\":\"Hi\"}"), 10, "data: {\"choi");
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TRUNCATED);
        assertThat(r.errorMessage()).contains("inside an").doesNotContain("connection closed");
        assertThat(r.outputText()).isEqualTo("Hi");
    }

    @Test
    void bodyEndingInALoneCarriageReturnEndsInsteadOfSpinning() throws Exception {
        // okhttp-sse's reader alone loops forever on a trailing CR; the client must end the stream
        String url = replay(200, 0, chunk("{\"content\":\"Hi\"}"), 10, "garbage\r");
        RequestRecord r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket()));
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TRUNCATED);
        assertThat(r.outputText()).isEqualTo("Hi");
    }

    @Test
    void eventTerminatedByCarriageReturnsAtTheEndIsDelivered() throws Exception {
        String url = replay(200, 0, "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\r\r");
        RequestRecord r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket()));
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputText()).isEqualTo("Hi");
    }

    @Test
    void finishReasonWithoutDoneMarkerCountsAsComplete() throws Exception {
        String url = replay(200, 0, chunk("{\"content\":\"Hi\"}"), 10, FINISH);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void badJsonIsProtocolError() throws Exception {
        String url = replay(200, 0, chunk("{\"content\":\"Hi\"}"), 10, "data: {\"choices\":[{oops\n\n", 20, DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(r.errorMessage()).contains("oops");
    }

    @Test
    void errorObjectInA200StreamIsStreamError() throws Exception {
        String url = replay(200, 0, "data: {\"error\":{\"message\":\"overloaded\"}}\n\n", 5, DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.STREAM_ERROR);
        assertThat(r.errorMessage()).contains("overloaded");
    }

    @Test
    void wrongContentTypeIsProtocolError() {
        mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
                .body("<html>login</html>").build());
        RequestRecord r = client().execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(r.errorMessage()).contains("text/html");
    }

    @Test
    void stallInTheBodyIsIdleTimeout() throws Exception {
        String url = replay(200, 0, chunk("{\"content\":\"Hi\"}"), 3000, DONE);
        ClientOptions opts = new ClientOptions(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(300),
                Duration.ofSeconds(30), 0, Duration.ofMillis(10), true, true, false);
        long t0 = System.nanoTime();
        RequestRecord r = client(opts).execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.errorMessage()).contains("idle");
        assertThat(ms(System.nanoTime() - t0)).isLessThan(2500.0);
        assertThat(r.tokens().size()).isEqualTo(1);
    }

    @Test
    void slowHeadersAreFirstByteTimeout() {
        mock.enqueue(new MockResponse.Builder().code(200).headersDelay(3, TimeUnit.SECONDS)
                .setHeader("Content-Type", "text/event-stream").body(DONE).build());
        ClientOptions opts = new ClientOptions(Duration.ofSeconds(5), Duration.ofMillis(300), Duration.ofSeconds(5),
                Duration.ofSeconds(30), 0, Duration.ofMillis(10), true, true, false);
        RequestRecord r = client(opts).execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.errorMessage()).contains("first-byte");
    }

    @Test
    void aTlsHandshakeThatNeverFinishesIsAConnectTimeoutNotAHang() throws Exception {
        // a plain TCP server on the port of an https:// URL: it accepts the connection and never answers the handshake
        try (ServerSocket s = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            java.util.List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(s.accept());
                    }
                } catch (java.io.IOException e) {
                    // closed at the end of the test
                }
            });
            ClientOptions opts = new ClientOptions(Duration.ofMillis(400), Duration.ofSeconds(60), Duration.ofSeconds(60),
                    Duration.ofSeconds(60), 0, Duration.ofMillis(10), true, true, false);
            long t0 = System.nanoTime();
            RequestRecord r = client(opts).execute(endpoint("https://127.0.0.1:" + s.getLocalPort()),
                    GenerationRequest.streaming("p", 10), ticket());
            assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
            assertThat(r.errorMessage()).startsWith("connect timeout: the TLS handshake did not finish within 400 ms");
            assertThat(ms(System.nanoTime() - t0)).as("ends near the connect timeout, far before the total")
                    .isLessThan(5_000.0);
            assertThat(held).isNotEmpty();
            for (java.net.Socket c : held) {
                c.close();
            }
            acceptor.interrupt();
        }
    }

    @Test
    void totalTimeoutCoversTheWholeStream() throws Exception {
        String url = replay(200, 0, chunk("{\"content\":\"a\"}"), 200, chunk("{\"content\":\"b\"}"),
                400, chunk("{\"content\":\"c\"}"), 600, chunk("{\"content\":\"d\"}"), 2000, DONE);
        ClientOptions opts = ClientOptions.DEFAULTS.withTotalTimeout(Duration.ofMillis(500));
        RequestRecord r = client(opts).execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.errorMessage()).contains("total");
    }

    @Test
    void rateLimitedAttemptIsRetriedAfterRetryAfterAndLatencyCountsFromTheFirstSend() {
        mock.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", "1").body("slow down").build());
        mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                .body(chunk("{\"content\":\"ok\"}") + FINISH + DONE).build());
        RequestRecord r = client(ClientOptions.DEFAULTS.withMaxRetries(2))
                .execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.rateLimitedAttempts()).isEqualTo(1);
        assertThat(ms(r.ttftNanos())).isGreaterThanOrEqualTo(1000.0);
        assertThat(ms(r.e2eNanos())).isGreaterThanOrEqualTo(1000.0);
    }

    @Test
    void theDirectPathNeverRepeatsARequestByItself() {
        mock.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "0").body("down").build());
        mock.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "0").body("down").build());
        RequestRecord r = client().execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(mock.getRequestCount()).isEqualTo(1);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
        assertThat(r.errorMessage()).contains("HTTP 503").contains("down");
    }

    @Test
    void okHttpsOwnRepeatAfter503WithRetryAfterZeroIsCountedAsAnAttempt() {
        mock.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "0").build());
        mock.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "0").body("down").build());
        LlmClient okHttp = new LlmClient(ClientOptions.DEFAULTS, name -> null, HttpVersion.AUTO, false);
        RequestRecord r;
        try {
            r = okHttp.execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        } finally {
            okHttp.close();
        }
        assertThat(mock.getRequestCount()).isEqualTo(2);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
    }

    @Test
    void finalRateLimitIsRateLimited() {
        mock.enqueue(new MockResponse.Builder().code(429).setHeader("retry-after-ms", "20").build());
        mock.enqueue(new MockResponse.Builder().code(429).setHeader("retry-after-ms", "20").build());
        RequestRecord r = client(ClientOptions.DEFAULTS.withMaxRetries(1))
                .execute(mockEndpoint(), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.errorKind()).isEqualTo(ErrorKind.RATE_LIMITED);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.rateLimitedAttempts()).isEqualTo(2);
    }

    @Test
    void serverStampsAreKeptPerEvent() throws Exception {
        String url = replay(200, 0, "data: {\"x_sent_ns\":123456789,\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n",
                10, "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n", 20, FINISH, 21, DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.tokens().serverStampNanos(0)).isEqualTo(123456789L);
        assertThat(r.tokens().serverStampNanos(1)).isEqualTo(RequestRecord.UNSET);
    }

    @Test
    void toolCallArgumentsCountForTtftButNotAsAnswer() throws Exception {
        String url = replay(200, 0, chunk("{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}"),
                200, chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\":1}\"}}]}"),
                210, FINISH, 211, DONE);
        RequestRecord r = client().execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket());
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(ms(r.ttftNanos())).isBetween(200.0, 400.0);
        assertThat(r.firstContentNanos()).isEqualTo(RequestRecord.UNSET);
        assertThat(r.outputText()).isEmpty();
    }

    @Test
    void nonStreamingReadsOneBodyAndLeavesTtftUnset() throws Exception {
        mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Hello there\"},"
                        + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}")
                .build());
        GenerationRequest req = new GenerationRequest("p", -1, 10, false, Map.of("temperature", 0));
        RequestRecord r = client().execute(mockEndpoint(), req, ticket());
        RecordedRequest rec = mock.takeRequest(5, TimeUnit.SECONDS);
        assertThat(rec.getBody().utf8()).contains("\"stream\":false", "\"temperature\":0").doesNotContain("stream_options");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.firstTokenNanos()).isEqualTo(RequestRecord.UNSET);
        assertThat(r.outputText()).isEqualTo("Hello there");
        assertThat(r.outputTokens()).isEqualTo(2);
        assertThat(r.inputTokens()).isEqualTo(5);
        assertThat(r.e2eNanos()).isPositive();
    }

    /**
     * Both kinds of thread: a virtual thread's blocked read returns on an interrupt; a platform thread's
     * ({@link RequestThreads}, what measurements use) does not, and the stall watchdog cancels its call.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void interruptingTheCallingThreadCancelsTheRequest(boolean virtual) throws Exception {
        String url = replay(200, 0, chunk("{\"content\":\"a\"}"), 5000, DONE);
        LlmClient c = client();
        AtomicReference<RequestRecord> result = new AtomicReference<>();
        AtomicReference<Boolean> flag = new AtomicReference<>();
        Runnable request = () -> {
            result.set(c.execute(endpoint(url), GenerationRequest.streaming("p", 10), ticket()));
            flag.set(Thread.currentThread().isInterrupted());
        };
        Thread t = virtual ? Thread.ofVirtual().start(request) : RequestThreads.startWorker("test-request", request);
        Thread.sleep(300);
        long t0 = System.nanoTime();
        t.interrupt();
        t.join(3000);
        assertThat(t.isAlive()).isFalse();
        assertThat(ms(System.nanoTime() - t0)).isLessThan(2000.0);
        assertThat(result.get().outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(result.get().errorKind()).isNull();
        assertThat(flag.get()).isTrue();
    }

    @Test
    void baseUrlEndingInV1IsNotDoubled() {
        assertThat(LlmClient.joinUrl("https://api.example.com/v1", "/v1/chat/completions"))
                .isEqualTo("https://api.example.com/v1/chat/completions");
        assertThat(LlmClient.joinUrl("http://h:8000", "/v1/chat/completions"))
                .isEqualTo("http://h:8000/v1/chat/completions");
    }
}
