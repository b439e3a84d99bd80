package org.latencylab.engine.client;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * The plain-HTTP measuring path ({@link DirectHttp1} through {@link LlmClient}) against a raw socket server whose
 * bytes, splits and pauses each test writes itself: framing by chunks, length and close, connection reuse, a pooled
 * connection the server closed, interim responses, redirects, cut streams, bad status lines and the total timeout.
 */
class DirectHttp1Test {
    private static final String SSE_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n";

    private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    /** Answers request number i (0-based, over all connections) on the connection it came in on. */
    interface Script {
        void answer(int i, String request, OutputStream out) throws Exception;
    }

    /** A loopback server: reads each request (head and Content-Length body) and runs the script on it. */
    final class RawServer implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();
        final List<String> seen = new CopyOnWriteArrayList<>();
        private final Script script;

        RawServer(Script script) throws IOException {
            this.script = script;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofPlatform().daemon().start(this::acceptLoop);
            closeables.add(this);
        }

        String baseUrl() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        private void acceptLoop() {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    connections.incrementAndGet();
                    Thread.ofPlatform().daemon().start(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                while (true) {
                    String request = readRequest(in);
                    if (request == null) {
                        return;
                    }
                    seen.add(request);
                    script.answer(requests.getAndIncrement(), request, out);
                    out.flush();
                    if (s.isClosed() || s.isOutputShutdown()) {
                        return;
                    }
                }
            } catch (Exception e) {
                // the client went away
            }
        }

        private String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                head.write(b);
                byte[] h = head.toByteArray();
                int n = h.length;
                if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                    String text = head.toString(StandardCharsets.ISO_8859_1);
                    int length = 0;
                    for (String line : text.split("\r\n")) {
                        if (line.toLowerCase().startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    byte[] body = in.readNBytes(length);
                    return text + new String(body, StandardCharsets.UTF_8);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static String chunk(String data) {
        byte[] b = data.getBytes(StandardCharsets.UTF_8);
        return Integer.toHexString(b.length) + "\r\n" + data + "\r\n";
    }

    private static String event(String content) {
        return "data: {\"choices\":[{\"delta\":{\"content\":\"" + content + "\"}}]}\n\n";
    }

    private static final String END = "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
            + "data: [DONE]\n\n";

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private LlmClient client(ClientOptions options) {
        LlmClient c = new LlmClient(options, name -> null, HttpVersion.AUTO, true);
        closeables.add(c);
        return c;
    }

    private static Endpoint endpoint(RawServer server) {
        return new Endpoint("raw", Protocol.OPENAI_CHAT, server.baseUrl(), "m", null, Map.of("X-Extra", "1"), true);
    }

    private static RequestRecord send(LlmClient client, RawServer server, boolean stream) {
        GenerationRequest req = stream ? GenerationRequest.streaming("hello", 10)
                : new GenerationRequest("hello", 5, 10, false, Map.of());
        return client.execute(endpoint(server), req, new RequestTicket(1, "t", 5, System.nanoTime()));
    }

    @Test
    void eventsAreStampedWhenTheirChunkArrivesAndTheConnectionIsReused() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            write(out, SSE_HEAD + chunk(event("a")));
            Thread.sleep(250);
            write(out, chunk(event("b")) + chunk(END) + "0\r\n\r\n");
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord first = send(client, server, true);
        RequestRecord second = send(client, server, true);

        for (RequestRecord r : List.of(first, second)) {
            assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
            assertThat(r.tokens().size()).isEqualTo(2);
            long gapMs = (r.tokens().arrivalNanos(1) - r.tokens().arrivalNanos(0)) / 1_000_000;
            assertThat(gapMs).as("the second event waited 250 ms on the server").isBetween(200L, 2_000L);
            assertThat(r.requestSentNanos()).isGreaterThanOrEqualTo(r.sendNanos());
            assertThat(r.responseHeadersNanos()).isGreaterThanOrEqualTo(r.requestSentNanos());
            assertThat(r.firstTokenNanos()).isGreaterThanOrEqualTo(r.responseHeadersNanos());
        }
        assertThat(first.connectStartNanos()).isNotEqualTo(UNSET);
        assertThat(second.connectStartNanos()).as("reused connection: no connect").isEqualTo(UNSET);
        assertThat(server.connections.get()).isEqualTo(1);
        String head = server.seen.get(0);
        assertThat(head).startsWith("POST /v1/chat/completions HTTP/1.1\r\n")
                .contains("Host: 127.0.0.1:" + server.socket.getLocalPort() + "\r\n")
                .contains("X-Extra: 1\r\n").contains("Accept-Encoding: identity\r\n")
                .contains("Content-Type: application/json");
        assertThat(head.substring(head.indexOf("\r\n\r\n") + 4)).contains("\"stream\":true").contains("hello");
    }

    /** A stream of {@code events} events {@code gapMs} apart, each flushed on its own, then the end and last chunk. */
    private static Script spaced(int events, long gapMs) {
        return (i, request, out) -> {
            write(out, SSE_HEAD);
            for (int e = 0; e < events; e++) {
                Thread.sleep(gapMs);
                write(out, chunk(event("t" + e)));
            }
            write(out, chunk(END) + "0\r\n\r\n");
        };
    }

    @Test
    void aStreamIsTakenInOnePieceAtItsEndYetEveryEventKeepsTheStampOfTheReadThatDeliveredIt() throws Exception {
        RawServer server = new RawServer(spaced(12, 30));
        LlmClient client = client(ClientOptions.DEFAULTS);
        send(client, server, true); // opens the connection and starts the reader thread
        long before = client.readAheadWaits();
        RequestRecord r = send(client, server, true);
        long waits = client.readAheadWaits() - before;

        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.tokens().size()).isEqualTo(12);
        for (int e = 1; e < 12; e++) {
            long gapMs = (r.tokens().arrivalNanos(e) - r.tokens().arrivalNanos(e - 1)) / 1_000_000;
            assertThat(gapMs).as("event %d left the server 30 ms after the one before", e).isBetween(10L, 1_000L);
        }
        // the response head wakes the request thread, the last chunk wakes it again; the 12 events in between do not
        assertThat(waits).as("times the request thread waited for bytes").isBetween(1L, 4L);
    }

    @Test
    void aResponseWhoseHeadArrivesAloneWakesItsRequestThreadOnceAtItsEndWithTheHeadsOwnStamp() throws Exception {
        RawServer server = new RawServer(spaced(6, 40)); // the head alone, then 6 events 40 ms apart
        LlmClient client = client(ClientOptions.DEFAULTS);
        send(client, server, true);
        long before = client.readAheadWaits();
        RequestRecord r = send(client, server, true);
        long waits = client.readAheadWaits() - before;

        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.tokens().size()).isEqualTo(6);
        // woken at the head, the thread would wait twice: for the head, then for the body's end
        assertThat(waits).as("times the request thread waited for bytes").isEqualTo(1L);
        assertThat((r.tokens().arrivalNanos(0) - r.responseHeadersNanos()) / 1_000_000)
                .as("ms from the head's read to the first event's: the server waited 40 ms between them")
                .isBetween(20L, 2_000L);
    }

    @Test
    void aChunkedStreamWithTrailerFieldsEndsAtItsEmptyLineAndKeepsItsConnection() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            write(out, SSE_HEAD);
            Thread.sleep(30);
            write(out, chunk(event("a")) + chunk(event("b")) + chunk(END) + "0\r\nX-Trailer: 1\r\n\r\n");
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        send(client, server, true);
        long before = client.readAheadWaits();
        RequestRecord r = send(client, server, true);
        long returned = System.nanoTime();

        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.tokens().size()).isEqualTo(2);
        assertThat(client.readAheadWaits() - before).as("times the request thread waited for bytes").isEqualTo(1L);
        assertThat(server.connections.get()).as("the connection was reused after the trailer").isEqualTo(1);
        // the quiet fallback would have woken the thread 250 ms after the last read
        assertThat((returned - r.endNanos()) / 1_000_000).as("ms from the body's last read to the record")
                .isLessThan(ReadAhead.QUIET_MILLIS);
    }

    @Test
    void aStreamLongerThanTheFirstByteTimeoutIsNotCutWhileItsHeadWaitsForItsBody() throws Exception {
        RawServer server = new RawServer(spaced(10, 60)); // 600 ms of body after the head
        ClientOptions opts = new ClientOptions(Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofSeconds(5),
                Duration.ofSeconds(30), 0, Duration.ofMillis(10), true, true, false);
        LlmClient client = client(opts);
        send(client, server, true);
        RequestRecord r = send(client, server, true);

        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.tokens().size()).isEqualTo(10);
    }

    @Test
    void aStreamThatStallsAfterItsHeadIsAnIdleTimeoutNotAFirstByteOne() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            write(out, SSE_HEAD + chunk(event("a")));
            if (i > 0) {
                Thread.sleep(3_000); // the second request's stream stalls after its first event
            }
            write(out, chunk(END) + "0\r\n\r\n");
        });
        ClientOptions opts = new ClientOptions(Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofMillis(400),
                Duration.ofSeconds(30), 0, Duration.ofMillis(10), true, true, false);
        LlmClient client = client(opts);
        send(client, server, true);
        long t0 = System.nanoTime();
        RequestRecord r = send(client, server, true);

        assertThat(r.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.errorMessage()).contains("idle");
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to the timeout").isLessThan(2_500L);
    }

    @Test
    void aRequestWithAFirstTokenCallbackIsWokenByEveryReadAndHearsOfItsFirstTokenWhileItStreams() throws Exception {
        RawServer server = new RawServer(spaced(8, 40));
        LlmClient client = client(ClientOptions.DEFAULTS);
        send(client, server, true);
        long before = client.readAheadWaits();
        long[] calledAt = {UNSET};
        RequestRecord r = client.execute(endpoint(server), GenerationRequest.streaming("hello", 10),
                new RequestTicket(2, "t", 5, System.nanoTime()), () -> calledAt[0] = System.nanoTime());
        long waits = client.readAheadWaits() - before;

        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(calledAt[0]).isNotEqualTo(UNSET);
        assertThat((r.endNanos() - calledAt[0]) / 1_000_000).as("ms from the callback to the stream's end: the"
                + " 7 events after the first came 40 ms apart").isGreaterThanOrEqualTo(150L);
        // the head may already be there when the request thread first looks; each event, 40 ms after the one before,
        // is not, and is waited for
        assertThat(waits).as("one wait per event at least (8 events)").isGreaterThanOrEqualTo(8L);
    }

    @Test
    void chunkSizeLinesWithExtensionsLeadingZerosAndSpacesAreReadAndBadOnesAreProtocolErrors() throws Exception {
        String a = event("a");
        String b = event("b");
        int la = a.getBytes(StandardCharsets.UTF_8).length;
        int lb = b.getBytes(StandardCharsets.UTF_8).length;
        int lEnd = END.getBytes(StandardCharsets.UTF_8).length;
        RawServer server = new RawServer((i, request, out) -> {
            if (i == 0) { // uppercase hex with a chunk extension, leading zeros, a space before CRLF
                write(out, SSE_HEAD + Integer.toHexString(la).toUpperCase() + ";name=value\r\n" + a + "\r\n"
                        + "000" + Integer.toHexString(lb) + " \r\n" + b + "\r\n"
                        + Integer.toHexString(lEnd) + "\r\n" + END + "\r\n0\r\n\r\n");
            } else if (i == 1) { // a sign is not a hex digit (RFC 9112 §7.1)
                write(out, SSE_HEAD + "+" + Integer.toHexString(la) + "\r\n" + a + "\r\n0\r\n\r\n");
            } else { // chunk data longer than declared
                write(out, SSE_HEAD + Integer.toHexString(la - 5) + "\r\n" + a + "\r\n0\r\n\r\n");
            }
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord ok = send(client, server, true);
        assertThat(ok.outcome()).as(String.valueOf(ok.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(ok.outputText()).isEqualTo("ab");
        RequestRecord signed = send(client, server, true);
        assertThat(signed.errorKind()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(signed.errorMessage()).contains("invalid chunk size line", "+");
        RequestRecord longer = send(client, server, true);
        assertThat(longer.errorKind()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(longer.errorMessage()).contains("chunk data longer than its declared size");
    }

    @Test
    void aTerminatingChunkThatComesJustAfterTheEndMarkerKeepsTheConnection() throws Exception {
        List<Long> lastChunkAt = new CopyOnWriteArrayList<>();
        RawServer server = new RawServer((i, request, out) -> {
            write(out, SSE_HEAD + chunk(event("a")) + chunk(END));
            Thread.sleep(30); // the parser has seen [DONE] and closed the body before the last chunk arrives
            lastChunkAt.add(System.nanoTime());
            write(out, "0\r\n\r\n");
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord first = send(client, server, true);
        RequestRecord second = send(client, server, true);
        assertThat(first.outcome()).as(String.valueOf(first.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(second.outcome()).as(String.valueOf(second.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(first.endNanos()).as("the end marker ends the request, not the last chunk")
                .isLessThan(lastChunkAt.get(0));
        assertThat(server.connections.get()).isEqualTo(1);
    }

    @Test
    void lengthAndCloseFramedBodiesAreReadAndOnlyTheFirstKeepsItsConnection() throws Exception {
        String json = "{\"choices\":[{\"message\":{\"content\":\"hi there\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}";
        RawServer server = new RawServer((i, request, out) -> {
            if (i == 0) {
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                        + json.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + json);
            } else { // no length, no chunks: the body ends when the server closes
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + json.substring(0, 20));
                Thread.sleep(100);
                write(out, json.substring(20));
                throw new IOException("close"); // ends serve(), closing the socket
            }
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord a = send(client, server, false);
        RequestRecord b = send(client, server, false);
        RequestRecord c = send(client, server, false);
        for (RequestRecord r : List.of(a, b, c)) {
            assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
            assertThat(r.outputTokens()).isEqualTo(2);
        }
        assertThat(b.e2eNanos()).as("read until close, after the 100 ms pause").isGreaterThan(90_000_000L);
        assertThat(server.connections.get()).as("a close-delimited body is never reused").isEqualTo(2);
    }

    @Test
    void aPooledConnectionTheServerClosedIsNotUsed() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            write(out, SSE_HEAD + chunk(event("x")) + chunk(END) + "0\r\n\r\n");
            throw new IOException("close"); // keep-alive announced, then closed anyway
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord first = send(client, server, true);
        Thread.sleep(200); // the FIN reaches the client's socket
        RequestRecord second = send(client, server, true);
        assertThat(first.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(second.outcome()).as(String.valueOf(second.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(second.attempts()).isEqualTo(1);
        assertThat(second.connectStartNanos()).isNotEqualTo(UNSET);
        assertThat(server.connections.get()).isEqualTo(2);
    }

    @Test
    void interimResponsesAreSkippedAndRedirectsNamed() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            if (i == 0) {
                write(out, "HTTP/1.1 100 Continue\r\n\r\n" + SSE_HEAD + chunk(event("y")) + chunk(END) + "0\r\n\r\n");
            } else {
                write(out, "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://elsewhere.invalid/v1\r\n"
                        + "Content-Length: 0\r\n\r\n");
            }
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord ok = send(client, server, true);
        RequestRecord moved = send(client, server, true);
        assertThat(ok.outcome()).as(String.valueOf(ok.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(ok.httpStatus()).isEqualTo(200);
        assertThat(moved.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
        assertThat(moved.httpStatus()).isEqualTo(307);
        assertThat(moved.errorMessage()).contains("redirect to http://elsewhere.invalid/v1 not followed");
    }

    @Test
    void aStreamCutInsideAChunkIsTruncatedAndABadStatusLineIsAProtocolError() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            if (i == 0) {
                write(out, SSE_HEAD + chunk(event("a")) + "40\r\ndata: {\"choi");
            } else {
                write(out, "HTTP/2 200 nonsense\r\n\r\n");
            }
            throw new IOException("close");
        });
        LlmClient client = client(ClientOptions.DEFAULTS);
        RequestRecord cut = send(client, server, true);
        RequestRecord bad = send(client, server, true);
        assertThat(cut.errorKind()).as(String.valueOf(cut.errorMessage())).isEqualTo(ErrorKind.TRUNCATED);
        assertThat(cut.tokens().size()).isEqualTo(1);
        assertThat(bad.errorKind()).as(String.valueOf(bad.errorMessage())).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(bad.errorMessage()).contains("HTTP/2 200 nonsense");
    }

    @Test
    void aStreamCutBetweenChunksIsTruncatedAndItsMessageNamesTheBody() throws Exception {
        RawServer server = new RawServer((i, request, out) -> {
            write(out, SSE_HEAD + chunk(event("a")) + chunk(event("b")) + "4"); // a chunk-size line, then close
            throw new IOException("close");
        });
        RequestRecord cut = send(client(ClientOptions.DEFAULTS), server, true);
        assertThat(cut.errorKind()).as(String.valueOf(cut.errorMessage())).isEqualTo(ErrorKind.TRUNCATED);
        assertThat(cut.outputText()).isEqualTo("ab");
        assertThat(cut.errorMessage()).contains("before the end of the response body").doesNotContain("head");
    }

    @Test
    void theTotalTimeoutEndsAnAnswerThatNeverComes() throws Exception {
        RawServer server = new RawServer((i, request, out) -> Thread.sleep(30_000));
        LlmClient client = client(ClientOptions.DEFAULTS.withTotalTimeout(Duration.ofMillis(300)));
        long start = System.nanoTime();
        RequestRecord r = send(client, server, true);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.errorKind()).as(String.valueOf(r.errorMessage())).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(r.errorMessage()).contains("total timeout");
        assertThat(tookMs).isBetween(290L, 5_000L);
    }
}
