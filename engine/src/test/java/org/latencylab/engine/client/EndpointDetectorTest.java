package org.latencylab.engine.client;

import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.Protocol;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Detection against a loopback server that answers like each kind of server. */
class EndpointDetectorTest {
    private MockWebServer server;
    private EndpointDetector detector;

    @BeforeEach
    void start() throws Exception {
        server = new MockWebServer();
        server.start(InetAddress.getLoopbackAddress(), 0);
        detector = new EndpointDetector(Duration.ofSeconds(5), Map.of("K", "sk-secret-777")::get);
    }

    @AfterEach
    void stop() {
        detector.close();
        server.close();
    }

    private void answer(Map<String, String> bodies) {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String body = bodies.get(request.getUrl().encodedPath());
                return body == null ? new MockResponse.Builder().code(404).body("not found").build()
                        : new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                        .body(body).build();
            }
        });
    }

    private String base() {
        String u = server.url("/").toString();
        return u.substring(0, u.length() - 1);
    }

    @Test
    void openAiCompatibleServerProposesTheFirstModel() throws Exception {
        answer(Map.of("/v1/models", "{\"object\":\"list\",\"data\":[{\"id\":\"qwen-7b\"},{\"id\":\"other\"}]}"));
        EndpointDetector.Detection d = detector.detect(base() + "/v1/", "K");
        assertThat(d.protocol()).contains(Protocol.OPENAI_CHAT);
        assertThat(d.proposedModel()).isEqualTo("qwen-7b");
        assertThat(d.models()).containsExactly("qwen-7b", "other");
        RecordedRequest r = server.takeRequest();
        assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/models");
        assertThat(r.getHeaders().get("Authorization")).isEqualTo("Bearer sk-secret-777");
    }

    @Test
    void ollamaIsFoundByItsTagList() {
        answer(Map.of("/api/tags", "{\"models\":[{\"name\":\"llama3.2:latest\",\"size\":1}]}"));
        EndpointDetector.Detection d = detector.detect(base(), null);
        assertThat(d.protocol()).contains(Protocol.OLLAMA_CHAT);
        assertThat(d.proposedModel()).isEqualTo("llama3.2:latest");
        assertThat(d.probes()).hasSize(2);
    }

    @Test
    void tgiIsFoundByItsInfo() {
        answer(Map.of("/info", "{\"model_id\":\"bigscience/bloom-560m\",\"max_input_tokens\":1024}"));
        EndpointDetector.Detection d = detector.detect(base(), null);
        assertThat(d.protocol()).contains(Protocol.TGI_GENERATE);
        assertThat(d.proposedModel()).isEqualTo("bigscience/bloom-560m");
    }

    @Test
    void unknownServerGetsAReportOfEveryProbe() {
        answer(Map.of("/v1/models", "{\"unexpected\":true}"));
        EndpointDetector.Detection d = detector.detect(base(), "K");
        assertThat(d.found()).isFalse();
        assertThat(d.report()).contains("/v1/models", "expected shape", "/api/tags", "HTTP 404", "/info",
                        "GRPCInferenceService/ServerLive")
                .doesNotContain("sk-secret-777");
        assertThat(d.probes()).hasSize(4);
    }

    @Test
    void aKserveGrpcServerIsFoundByServerLive() {
        try (org.latencylab.engine.sim.SimServer sim = org.latencylab.engine.sim.SimServer.start(
                org.latencylab.engine.sim.SimProfile.builtin("zero-latency"),
                org.latencylab.engine.sim.SimOptions.defaults())) {
            EndpointDetector.Detection d = detector.detect(sim.grpcBaseUrl(false), null);
            assertThat(d.protocol()).as(d.report()).contains(Protocol.KSERVE_GRPC);
            assertThat(d.probes()).hasSize(4);
            assertThat(d.probes().get(3).answer()).isEqualTo("ok (live)");
        }
    }
}
