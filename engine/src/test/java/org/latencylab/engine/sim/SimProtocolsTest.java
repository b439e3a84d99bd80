package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.tokens.TokenCounter;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Anthropic, Ollama and TGI dialects over loopback, plus reasoning output. */
class SimProtocolsTest {
    private static final TokenCounter TC = TokenCounter.cl100k();

    private SimServer server;
    private Loopback http;

    @BeforeEach
    void start() {
        server = SimServer.start(Loopback.profile("""
                model: proto-model
                prefill: {t0: 0.02, k: 0, alpha: 1}
                decode: {tpot: 0.002}
                """), SimOptions.defaults());
        http = new Loopback(server);
    }

    @AfterEach
    void stop() {
        http.close();
        server.close();
    }

    /** SSE event names paired with their data, in order. */
    private static List<String[]> named(Loopback.Result r) {
        List<String[]> out = new ArrayList<>();
        String name = null;
        for (Loopback.Line l : r.lines()) {
            if (l.text().startsWith("event: ")) {
                name = l.text().substring(7);
            } else if (l.text().startsWith("data: ")) {
                out.add(new String[]{name, l.text().substring(6)});
                name = null;
            }
        }
        return out;
    }

    @Test
    void anthropicStreamHasTheDocumentedEventSequence() {
        String prompt = "Hello there, simulated Claude.";
        Loopback.Result r = http.post("/v1/messages", """
                {"model": "x", "max_tokens": 9, "stream": true, "system": "Be brief.",
                 "messages": [{"role": "user", "content": "%s"}]}
                """.formatted(prompt));
        assertThat(r.status()).isEqualTo(200);
        List<String[]> ev = named(r);
        List<String> names = ev.stream().map(e -> e[0]).toList();
        assertThat(names.subList(0, 3)).containsExactly("message_start", "content_block_start", "ping");
        assertThat(names.subList(3, 12)).containsOnly("content_block_delta");
        assertThat(names.subList(12, names.size()))
                .containsExactly("content_block_stop", "message_delta", "message_stop");
        for (String[] e : ev) {
            assertThat(Loopback.parse(e[1]).get("type").asText()).isEqualTo(e[0]);
        }
        JsonNode start = Loopback.parse(ev.get(0)[1]);
        assertThat(start.at("/message/usage/input_tokens").asInt()).isEqualTo(TC.count("Be brief." + prompt));
        assertThat(start.at("/message/usage/output_tokens").asInt()).isEqualTo(1);
        StringBuilder text = new StringBuilder();
        for (String[] e : ev.subList(3, 12)) {
            JsonNode d = Loopback.parse(e[1]);
            assertThat(d.at("/delta/type").asText()).isEqualTo("text_delta");
            text.append(d.at("/delta/text").asText());
        }
        JsonNode delta = Loopback.parse(ev.get(13)[1]);
        assertThat(delta.at("/usage/output_tokens").asInt()).isEqualTo(TC.count(text.toString())).isEqualTo(9);
        assertThat(delta.at("/delta/stop_reason").asText()).isEqualTo("max_tokens");
    }

    @Test
    void anthropicRequiresMaxTokensAndAnswersInItsErrorShape() {
        Loopback.Result r = http.post("/v1/messages", """
                {"model": "x", "messages": [{"role": "user", "content": "hi"}]}
                """);
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body().get("type").asText()).isEqualTo("error");
        assertThat(r.body().at("/error/type").asText()).isEqualTo("invalid_request_error");
        Loopback.Result whole = http.post("/v1/messages", """
                {"max_tokens": 4, "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}
                """);
        assertThat(whole.body().at("/content/0/type").asText()).isEqualTo("text");
        assertThat(TC.count(whole.body().at("/content/0/text").asText())).isEqualTo(4)
                .isEqualTo(whole.body().at("/usage/output_tokens").asInt());
    }

    @Test
    void ollamaChatAndGenerateStreamNdjsonWithNanosecondDurations() {
        String prompt = "Why is the sky blue?";
        Loopback.Result r = http.post("/api/chat", """
                {"model": "x", "messages": [{"role": "user", "content": "%s"}], "options": {"num_predict": 6}}
                """.formatted(prompt));
        assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("application/x-ndjson");
        List<JsonNode> lines = r.ndjson();
        assertThat(lines).hasSize(7);
        StringBuilder text = new StringBuilder();
        for (JsonNode l : lines.subList(0, 6)) {
            assertThat(l.get("done").asBoolean()).isFalse();
            text.append(l.at("/message/content").asText());
        }
        JsonNode done = lines.get(6);
        assertThat(done.get("done").asBoolean()).isTrue();
        assertThat(done.get("eval_count").asInt()).isEqualTo(TC.count(text.toString())).isEqualTo(6);
        assertThat(done.get("prompt_eval_count").asInt()).isEqualTo(TC.count(prompt));
        long total = done.get("total_duration").asLong();
        long promptEval = done.get("prompt_eval_duration").asLong();
        long eval = done.get("eval_duration").asLong();
        assertThat(promptEval).isBetween(19_000_000L, 300_000_000L); // 20 ms prefill
        assertThat(eval).isPositive();
        assertThat(promptEval + eval).isBetween(29_000_000L, 400_000_000L); // then 5 gaps of 2 ms
        assertThat(total).isGreaterThanOrEqualTo(promptEval + eval);
        assertThat(done.has("load_duration")).isTrue();

        Loopback.Result g = http.post("/api/generate", """
                {"prompt": "Say something", "stream": false, "options": {"num_predict": 5}}
                """);
        assertThat(TC.count(g.body().get("response").asText())).isEqualTo(5).isEqualTo(g.body().get("eval_count").asInt());
        assertThat(http.get("/api/tags").body().at("/models/0/name").asText()).isEqualTo("proto-model");
    }

    @Test
    void tgiStreamsTokenObjectsAndDetailsOnTheLastEvent() {
        Loopback.Result r = http.post("/generate_stream", """
                {"inputs": "What is deep learning?", "parameters": {"max_new_tokens": 8}}
                """);
        assertThat(r.lines().stream().filter(l -> l.text().startsWith("data:")))
                .allMatch(l -> l.text().startsWith("data:{"));
        List<JsonNode> ev = r.dataJson();
        assertThat(ev).hasSize(8);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            JsonNode t = ev.get(i).get("token");
            assertThat(TC.encode(t.get("text").asText())).containsExactly(t.get("id").asInt());
            assertThat(t.get("special").asBoolean()).isFalse();
            text.append(t.get("text").asText());
            if (i < 7) {
                assertThat(ev.get(i).get("generated_text").isNull()).isTrue();
                assertThat(ev.get(i).get("details").isNull()).isTrue();
            }
        }
        assertThat(ev.get(7).get("generated_text").asText()).isEqualTo(text.toString());
        assertThat(ev.get(7).at("/details/generated_tokens").asInt()).isEqualTo(8).isEqualTo(TC.count(text.toString()));
        assertThat(http.get("/info").body().get("model_id").asText()).isEqualTo("proto-model");
        Loopback.Result bad = http.post("/generate", "{\"parameters\": {}}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().get("error_type").asText()).isEqualTo("validation");
    }

    @Test
    void reasoningTokensComeFirstInEachProtocol() {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0.005, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                reasoning: {tokens: 3}
                """);
        try (SimServer s = SimServer.start(p, SimOptions.defaults()); Loopback h = new Loopback(s)) {
            List<JsonNode> openai = h.post("/v1/chat/completions", Loopback.chat("think", 7, true, true)).dataJson();
            assertThat(openai.subList(1, 4)).allMatch(e -> e.at("/choices/0/delta").has("reasoning_content"));
            assertThat(openai.subList(4, 8)).allMatch(e -> e.at("/choices/0/delta").has("content"));
            JsonNode usage = openai.get(8).get("usage");
            assertThat(usage.get("completion_tokens").asInt()).isEqualTo(7);
            assertThat(usage.at("/completion_tokens_details/reasoning_tokens").asInt()).isEqualTo(3);

            Loopback.Result a = h.post("/v1/messages", """
                    {"max_tokens": 5, "stream": true, "messages": [{"role": "user", "content": "think"}]}
                    """);
            List<String> deltaTypes = new ArrayList<>();
            for (String[] e : named(a)) {
                if ("content_block_delta".equals(e[0])) {
                    deltaTypes.add(Loopback.parse(e[1]).at("/delta/type").asText());
                }
            }
            assertThat(deltaTypes).containsExactly("thinking_delta", "thinking_delta", "thinking_delta",
                    "signature_delta", "text_delta", "text_delta");
            JsonNode md = named(a).stream().filter(e -> "message_delta".equals(e[0])).map(e -> Loopback.parse(e[1]))
                    .findFirst().orElseThrow();
            assertThat(md.at("/usage/output_tokens").asInt()).isEqualTo(5);

            List<JsonNode> ollama = h.post("/api/chat", """
                    {"messages": [{"role": "user", "content": "think"}], "options": {"num_predict": 4}}
                    """).ndjson();
            assertThat(ollama.subList(0, 3)).allMatch(l -> !l.at("/message/thinking").asText().isEmpty());
            assertThat(ollama.get(3).at("/message/content").asText()).isNotEmpty();
        }
    }
}
