package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.tokens.TokenCounter;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimServerOpenAiTest {
    private static final TokenCounter TC = TokenCounter.cl100k();

    private SimServer server;
    private Loopback http;

    @BeforeEach
    void start() {
        SimProfile p = Loopback.profile("""
                name: quick
                model: quick-model
                prefill: {t0: 0.005, k: 0.00001, alpha: 1}
                decode: {tpot: 0.001}
                """);
        server = SimServer.start(p, SimOptions.defaults());
        http = new Loopback(server);
    }

    @AfterEach
    void stop() {
        http.close();
        server.close();
    }

    @Test
    void streamingChatHasRoleChunkOneTokenPerEventUsageAndDone() {
        String prompt = "Tell me about rivers and the sea, in plain words.";
        Loopback.Result r = http.post("/v1/chat/completions", Loopback.chat(prompt, 25, true, true));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        assertThat(r.error()).isNull();

        List<Loopback.Line> data = r.data();
        assertThat(data.get(data.size() - 1).text()).isEqualTo("[DONE]");
        List<JsonNode> events = r.dataJson();
        JsonNode first = events.get(0).at("/choices/0/delta");
        assertThat(first.get("role").asText()).isEqualTo("assistant");
        assertThat(first.get("content").asText()).isEmpty();

        List<JsonNode> tokens = events.stream().filter(e -> e.at("/choices/0/delta/content").asText().length() > 0)
                .toList();
        assertThat(tokens).hasSize(25);
        StringBuilder text = new StringBuilder();
        for (JsonNode e : tokens) {
            String piece = e.at("/choices/0/delta/content").asText();
            assertThat(TC.count(piece)).isEqualTo(1);
            text.append(piece);
        }
        assertThat(tokens.get(24).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(tokens.get(0).at("/choices/0/finish_reason").isNull()).isTrue();

        JsonNode usageChunk = events.get(events.size() - 1);
        assertThat(usageChunk.get("choices")).isEmpty();
        JsonNode usage = usageChunk.get("usage");
        assertThat(usage.get("completion_tokens").asInt()).isEqualTo(TC.count(text.toString())).isEqualTo(25);
        assertThat(usage.get("prompt_tokens").asInt()).isEqualTo(TC.count(prompt));
        assertThat(usage.get("total_tokens").asInt()).isEqualTo(TC.count(prompt) + 25);
        assertThat(events.get(1).get("model").asText()).isEqualTo("quick-model");
        assertThat(events.get(1).get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(events.get(1).has("x_sent_ns")).as("stamping is off by default").isFalse();
    }

    @Test
    void chatPromptTokensCountConcatenatedMessageContents() {
        String body = """
                {"messages": [{"role": "system", "content": "You are terse."},
                              {"role": "user", "content": [{"type": "text", "text": "Name a river"},
                                                           {"type": "text", "text": " in Europe."}]}],
                 "max_completion_tokens": 3}
                """;
        Loopback.Result r = http.post("/v1/chat/completions", body);
        assertThat(r.status()).isEqualTo(200);
        JsonNode b = r.body();
        assertThat(b.at("/usage/prompt_tokens").asInt()).isEqualTo(TC.count("You are terse.Name a river in Europe."));
        String content = b.at("/choices/0/message/content").asText();
        assertThat(TC.count(content)).isEqualTo(3).isEqualTo(b.at("/usage/completion_tokens").asInt());
        assertThat(b.get("object").asText()).isEqualTo("chat.completion");
    }

    @Test
    void defaultIsSixteenTokensWithoutUsageChunk() {
        Loopback.Result r = http.post("/v1/chat/completions", """
                {"messages": [{"role": "user", "content": "hi"}], "stream": true}
                """);
        List<JsonNode> events = r.dataJson();
        assertThat(events).hasSize(17);
        assertThat(events).noneMatch(e -> e.has("usage"));
    }

    @Test
    void completionsStreamAndNonStream() {
        String prompt = "Once upon a time";
        Loopback.Result r = http.post("/v1/completions", """
                {"prompt": "%s", "max_tokens": 7, "stream": true, "stream_options": {"include_usage": true}}
                """.formatted(prompt));
        List<JsonNode> events = r.dataJson();
        assertThat(events).hasSize(8);
        StringBuilder text = new StringBuilder();
        for (JsonNode e : events.subList(0, 7)) {
            assertThat(e.get("object").asText()).isEqualTo("text_completion");
            text.append(e.at("/choices/0/text").asText());
        }
        assertThat(events.get(7).at("/usage/completion_tokens").asInt()).isEqualTo(TC.count(text.toString()))
                .isEqualTo(7);
        assertThat(events.get(7).at("/usage/prompt_tokens").asInt()).isEqualTo(TC.count(prompt));

        Loopback.Result ids = http.post("/v1/completions", "{\"prompt\": [1, 2, 3, 4, 5], \"max_tokens\": 2}");
        assertThat(ids.body().at("/usage/prompt_tokens").asInt()).isEqualTo(5);
        assertThat(ids.body().at("/usage/completion_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void badBodiesGetOpenAiStyle400() {
        Loopback.Result notJson = http.post("/v1/chat/completions", "{\"messages\": [");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.body().at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(notJson.body().at("/error/message").asText()).contains("not valid JSON");

        Loopback.Result noMessages = http.post("/v1/chat/completions", "{\"model\": \"x\"}");
        assertThat(noMessages.status()).isEqualTo(400);
        assertThat(noMessages.body().at("/error/param").asText()).isEqualTo("messages");

        Loopback.Result badMax = http.post("/v1/chat/completions",
                "{\"messages\": [{\"role\": \"user\", \"content\": \"x\"}], \"max_tokens\": \"ten\"}");
        assertThat(badMax.status()).isEqualTo(400);
        assertThat(badMax.body().at("/error/message").asText()).contains("max_tokens");

        Loopback.Result array = http.post("/v1/completions", "[1, 2]");
        assertThat(array.status()).isEqualTo(400);
    }

    @Test
    void modelsHealthAndUnknownRoutes() {
        Loopback.Result models = http.get("/v1/models");
        assertThat(models.body().at("/data/0/id").asText()).isEqualTo("quick-model");
        Loopback.Result health = http.get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(http.get("/nope").status()).isEqualTo(404);
        assertThat(http.get("/v1/chat/completions").status()).isEqualTo(405);
        assertThat(server.describe()).contains("quick-model").contains(server.baseUrl());
        assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
    }

    @Test
    void refusesNonLoopbackUnlessAllowed() {
        SimProfile p = SimProfile.builtin("zero-latency");
        assertThatThrownBy(() -> SimServer.start(p, SimOptions.builder().host("0.0.0.0").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("loopback");
    }
}
