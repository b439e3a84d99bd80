package org.latencylab.app.ui.endpoint;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** "Test connection" over real loopback HTTP, including the protocol hint after a failure. */
class ConnectionTesterTest {
    @Test
    void theBuiltInSimulatorAnswers() {
        ConnectionTester.ConnectionResult r = ConnectionTester.testSimulator("small-fast");
        assertThat(r.ok()).as(r.detail()).isTrue();
        assertThat(r.httpStatus()).isEqualTo(200);
        assertThat(r.ttftMs()).isPositive().isGreaterThanOrEqualTo(r.ttfbMs());
        assertThat(r.summary()).startsWith("OK · HTTP 200 · TTFB ");
        String model = org.latencylab.engine.sim.SimProfile.builtin("small-fast").model();
        assertThat(r.models()).containsExactly(model);
        assertThat(r.api()).isEqualTo("API openai-chat, as set · 1 model: " + model);
        assertThat(r.text().split("\n")).hasSize(3);
    }

    @Test
    void modelListsAreShortenedAfterFiveNames() {
        assertThat(ConnectionTester.models(java.util.List.of())).isEqualTo("no model listed");
        assertThat(ConnectionTester.models(java.util.List.of("a", "b", "c", "d", "e", "f", "g")))
                .isEqualTo("7 models: a, b, c, d, e and 2 more");
    }

    @Test
    void aWrongProtocolFailsAndTheDetectedOneIsProposed() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            byte[] body;
            int status;
            if (ex.getRequestURI().getPath().equals("/v1/models")) {
                status = 200;
                body = "{\"object\":\"list\",\"data\":[{\"id\":\"demo-8b\",\"object\":\"model\"}]}".getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
            } else {
                status = 404;
                body = "not here".getBytes(StandardCharsets.UTF_8);
            }
            ex.sendResponseHeaders(status, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        try {
            Endpoint ollama = Endpoint.of("x", Protocol.OLLAMA_CHAT,
                    "http://127.0.0.1:" + server.getAddress().getPort(), "llama3");
            ConnectionTester.ConnectionResult r = ConnectionTester.test(ollama);
            assertThat(r.ok()).isFalse();
            assertThat(r.httpStatus()).isEqualTo(404);
            assertThat(r.detail()).contains("http_status")
                    .contains("this URL answers as openai-chat, model demo-8b — choose that protocol");
            assertThat(r.api()).isEqualTo("API openai-chat, but the endpoint is set to ollama-chat: choose openai-chat"
                    + " · 1 model: demo-8b");
            assertThat(r.models()).containsExactly("demo-8b");
        } finally {
            server.stop(0);
        }
    }
}
