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
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.replay.ConformanceCase;
import org.latencylab.engine.replay.ReplayServer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Protocol-specific behaviour of each adapter, over a loopback replay server. */
class ProtocolAdaptersTest {
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final LlmClient client = new LlmClient(ClientOptions.DEFAULTS, name -> null);

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closeables) {
            c.close();
        }
        client.close();
    }

    private RequestRecord run(Protocol protocol, String contentType, boolean stream, String... bodyParts)
            throws Exception {
        List<ConformanceCase.Part> parts = new ArrayList<>();
        for (int i = 0; i < bodyParts.length; i++) {
            parts.add(new ConformanceCase.Part(i * 20L, bodyParts[i].getBytes(StandardCharsets.UTF_8)));
        }
        ConformanceCase c = new ConformanceCase("inline", "inline", "", protocol.id(), 0,
                List.of(new ConformanceCase.ScriptedResponse(200, Map.of("Content-Type", contentType), null, parts)),
                Map.of());
        ReplayServer s = ReplayServer.start(c);
        closeables.add(s);
        GenerationRequest req = new GenerationRequest("p", -1, 16, stream, Map.of());
        return client.execute(Endpoint.of("e", protocol, s.baseUrl(), "m"), req,
                new RequestTicket(0, "t", -1, System.nanoTime()));
    }

    private static String sse(String json) {
        return "data: " + json + "\n\n";
    }

    @Test
    void anthropicThinkingIsReasoningAndToolJsonCountsForTtft() throws Exception {
        RequestRecord r = run(Protocol.ANTHROPIC_MESSAGES, "text/event-stream", true,
                "event: message_start\n" + sse("{\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":9,\"output_tokens\":1}}}"),
                sse("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Hmm\"}}"),
                sse("{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":1}\"}}"),
                sse("{\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"text_delta\",\"text\":\"Yes\"}}"),
                sse("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":7}}"),
                sse("{\"type\":\"message_delta\",\"delta\":{},\"usage\":{\"output_tokens\":9}}"),
                sse("{\"type\":\"message_stop\"}"));
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.reasoningText()).isEqualTo("Hmm");
        assertThat(r.outputText()).isEqualTo("Yes");
        assertThat(r.tokens().size()).isEqualTo(3);
        assertThat(r.firstContentNanos()).isGreaterThan(r.firstTokenNanos());
        assertThat(r.outputTokens()).isEqualTo(9);
        assertThat(r.inputTokens()).isEqualTo(9);
    }

    @Test
    void anthropicErrorEventIsStreamError() throws Exception {
        RequestRecord r = run(Protocol.ANTHROPIC_MESSAGES, "text/event-stream", true,
                "event: error\n" + sse("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
        assertThat(r.errorKind()).isEqualTo(ErrorKind.STREAM_ERROR);
        assertThat(r.errorMessage()).contains("Overloaded");
    }

    @Test
    void ollamaGenerateReadsResponseFieldsAndServerTimings() throws Exception {
        RequestRecord r = run(Protocol.OLLAMA_GENERATE, "application/x-ndjson", true,
                "{\"response\":\"The\",\"done\":false}\n{\"response\":\" sky\",",
                "\"done\":false}\n",
                "{\"response\":\"\",\"done\":true,\"eval_count\":2,\"prompt_eval_count\":11,"
                        + "\"total_duration\":5000000,\"load_duration\":1000000,\"prompt_eval_duration\":2500000,"
                        + "\"eval_duration\":1500000}\n");
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputText()).isEqualTo("The sky");
        assertThat(r.outputTokens()).isEqualTo(2);
        assertThat(r.outputTokenSource()).isEqualTo(TokenSource.SERVER);
        assertThat(r.inputTokens()).isEqualTo(11);
        assertThat(r.serverTimingsMs()).containsEntry("total", 5.0).containsEntry("load", 1.0)
                .containsEntry("prompt_eval", 2.5).containsEntry("eval", 1.5);
    }

    @Test
    void ollamaStreamWithoutDoneLineIsTruncatedAndErrorLineIsStreamError() throws Exception {
        RequestRecord cut = run(Protocol.OLLAMA_CHAT, "application/x-ndjson", true,
                "{\"message\":{\"content\":\"Hi\"},\"done\":false}\n{\"message\":{\"cont");
        assertThat(cut.errorKind()).isEqualTo(ErrorKind.TRUNCATED);
        RequestRecord err = run(Protocol.OLLAMA_CHAT, "application/x-ndjson", true,
                "{\"error\":\"model 'x' not found\"}\n");
        assertThat(err.errorKind()).isEqualTo(ErrorKind.STREAM_ERROR);
        assertThat(err.errorMessage()).contains("not found");
    }

    @Test
    void tgiSkipsSpecialTokensAndTakesGeneratedTokensFromDetails() throws Exception {
        RequestRecord r = run(Protocol.TGI_GENERATE, "text/event-stream", true,
                sse("{\"index\":1,\"token\":{\"id\":1,\"text\":\"Hello\",\"logprob\":-0.1,\"special\":false},\"generated_text\":null,\"details\":null}"),
                sse("{\"index\":2,\"token\":{\"id\":2,\"text\":\" world\",\"logprob\":-0.1,\"special\":false},\"generated_text\":null,\"details\":null}"),
                sse("{\"index\":3,\"token\":{\"id\":3,\"text\":\"</s>\",\"logprob\":0,\"special\":true},\"generated_text\":\"Hello world\",\"details\":{\"finish_reason\":\"eos_token\",\"generated_tokens\":3}}"));
        assertThat(r.outcome()).as(String.valueOf(r.errorMessage())).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputText()).isEqualTo("Hello world");
        assertThat(r.tokens().size()).isEqualTo(2);
        assertThat(r.outputTokens()).isEqualTo(3);
    }

    @Test
    void tgiErrorIsStreamError() throws Exception {
        RequestRecord r = run(Protocol.TGI_GENERATE, "text/event-stream", true,
                sse("{\"error\":\"Input validation error\",\"error_type\":\"validation\"}"));
        assertThat(r.errorKind()).isEqualTo(ErrorKind.STREAM_ERROR);
    }

    @Test
    void llamaCppTimingsAndCompletionsText() throws Exception {
        RequestRecord r = run(Protocol.OPENAI_COMPLETIONS, "text/event-stream", true,
                sse("{\"choices\":[{\"text\":\"Once\",\"index\":0,\"finish_reason\":null}]}"),
                sse("{\"choices\":[{\"text\":\" upon\",\"index\":0,\"finish_reason\":\"length\"}],"
                        + "\"timings\":{\"prompt_ms\":12.5,\"predicted_ms\":30.25}}"),
                "data: [DONE]\n\n");
        assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputText()).isEqualTo("Once upon");
        assertThat(r.outputTokenSource()).isEqualTo(TokenSource.TOKENIZER);
        assertThat(r.serverTimingsMs()).containsEntry("prompt_eval", 12.5).containsEntry("eval", 30.25);
    }

    @Test
    void nonStreamingAnthropicOllamaAndTgiBodies() throws Exception {
        RequestRecord a = run(Protocol.ANTHROPIC_MESSAGES, "application/json", false,
                "{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}],\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}");
        assertThat(a.outputText()).isEqualTo("Hi");
        assertThat(a.outputTokens()).isEqualTo(1);
        assertThat(a.firstTokenNanos()).isEqualTo(RequestRecord.UNSET);
        RequestRecord o = run(Protocol.OLLAMA_CHAT, "application/json", false,
                "{\"message\":{\"role\":\"assistant\",\"content\":\"Yo\"},\"done\":true,\"eval_count\":1}");
        assertThat(o.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(o.outputText()).isEqualTo("Yo");
        RequestRecord t = run(Protocol.TGI_GENERATE, "application/json", false,
                "{\"generated_text\":\"Sure\",\"details\":{\"generated_tokens\":1}}");
        assertThat(t.outputText()).isEqualTo("Sure");
        assertThat(t.outputTokens()).isEqualTo(1);
    }
}
