package org.latencylab.engine.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.results.RequestJson;

import java.io.StringWriter;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** W3C trace context out: the header on the wire against a real local server, and its ids in the record. */
class TraceContextTest {
    private static final String SSE = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
            + "\"finish_reason\":null}]}\n\ndata: [DONE]\n\n";
    private MockWebServer mock;

    @BeforeEach
    void start() throws Exception {
        mock = new MockWebServer();
        mock.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() {
        mock.close();
    }

    private Endpoint endpoint(Map<String, String> headers) {
        String url = mock.url("/").toString();
        return new Endpoint("t", Protocol.OPENAI_CHAT, url.substring(0, url.length() - 1), "m", null, headers, true);
    }

    private void enqueue(int n) {
        for (int i = 0; i < n; i++) {
            mock.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                    .body(SSE).build());
        }
    }

    @ParameterizedTest(name = "own HTTP/1.1 path: {0}")
    @ValueSource(booleans = {true, false})
    void eachTracedRequestCarriesANewTraceparentThatItsRecordKeeps(boolean direct) throws Exception {
        enqueue(2);
        Endpoint ep = endpoint(Map.of("tracestate", "vendor=abc"));
        GenerationRequest req = GenerationRequest.streaming("hello", 4); // one request object sent twice
        try (LlmClient c = new LlmClient(ClientOptions.DEFAULTS.withTrace(true), n -> null, HttpVersion.AUTO, direct)) {
            RequestRecord a = c.execute(ep, req, new RequestTicket(1, "t", 10, System.nanoTime()));
            RequestRecord b = c.execute(ep, req, new RequestTicket(2, "t", 10, System.nanoTime()));
            RecordedRequest ra = mock.takeRequest(5, TimeUnit.SECONDS);
            RecordedRequest rb = mock.takeRequest(5, TimeUnit.SECONDS);
            for (var pair : java.util.List.of(Map.entry(a, ra), Map.entry(b, rb))) {
                RequestRecord r = pair.getKey();
                assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
                assertThat(r.traceId()).matches("[0-9a-f]{32}");
                assertThat(r.spanId()).matches("[0-9a-f]{16}");
                assertThat(pair.getValue().getHeaders().get("traceparent"))
                        .isEqualTo("00-" + r.traceId() + "-" + r.spanId() + "-01");
                assertThat(pair.getValue().getHeaders().get("tracestate")).isEqualTo("vendor=abc");
            }
            assertThat(a.traceId()).isNotEqualTo(b.traceId());
            assertThat(a.spanId()).isNotEqualTo(b.spanId());
        }
    }

    @Test
    void withTracingOffNoHeaderIsSentAndTheRecordHasNoIds() throws Exception {
        enqueue(1);
        try (LlmClient c = new LlmClient(ClientOptions.DEFAULTS, n -> null)) {
            RequestRecord r = c.execute(endpoint(Map.of()), GenerationRequest.streaming("hello", 4),
                    new RequestTicket(1, "t", 10, System.nanoTime()));
            assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(r.traceId()).isEmpty();
            assertThat(mock.takeRequest(5, TimeUnit.SECONDS).getHeaders().get("traceparent")).isNull();
        }
    }

    @Test
    void theIdsGoIntoTheRequestLineAndAreReadBack() throws Exception {
        RequestRecord.Builder b = RequestRecord.builder();
        b.sendNanos = 100;
        b.endNanos = 200;
        b.traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        b.spanId = "00f067aa0ba902b7";
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            RequestJson.write(g, b.build(), 0);
        }
        assertThat(w.toString()).contains("\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\"")
                .contains("\"span_id\":\"00f067aa0ba902b7\"");
        RequestRecord back = RequestJson.fromJson(new com.fasterxml.jackson.databind.ObjectMapper().readTree(w.toString()));
        assertThat(back.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(back.spanId()).isEqualTo("00f067aa0ba902b7");
    }
}
