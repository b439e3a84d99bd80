package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import okhttp3.Response;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;

import java.io.IOException;

/**
 * OpenAI-compatible {@code /v1/chat/completions} and {@code /v1/completions}, streaming (SSE) and not.
 *
 * <p>Generated text of a chat event: {@code delta.content} (answer), {@code delta.reasoning_content} or
 * {@code delta.reasoning} (reasoning, as sent by vLLM/SGLang/DeepSeek/OpenRouter), {@code
 * delta.tool_calls[].function.arguments} (tool-call arguments). A completions event carries {@code text}.
 * {@code choices} may be missing, {@code null} or empty (usage-only events). {@code [DONE]} ends the stream; a
 * close after a {@code finish_reason} without {@code [DONE]} is accepted as complete. A top-level
 * {@code error} member is a stream error. {@code usage.prompt_tokens}/{@code completion_tokens} give the
 * token counts (last value wins); llama.cpp's {@code timings.prompt_ms}/{@code predicted_ms} become the
 * server timings {@code prompt_eval}/{@code eval}. Stateless; thread-safe.
 */
final class OpenAiAdapter implements ProtocolAdapter {
    /** Chat completions. */
    static final OpenAiAdapter CHAT = new OpenAiAdapter(true);
    /** Legacy completions. */
    static final OpenAiAdapter COMPLETIONS = new OpenAiAdapter(false);

    private final boolean chat;

    private OpenAiAdapter(boolean chat) {
        this.chat = chat;
    }

    @Override
    public Protocol protocol() {
        return chat ? Protocol.OPENAI_CHAT : Protocol.OPENAI_COMPLETIONS;
    }

    @Override
    public String path(GenerationRequest request) {
        return chat ? "/v1/chat/completions" : "/v1/completions";
    }

    @Override
    public ObjectNode body(Endpoint endpoint, GenerationRequest request, ClientOptions options) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", endpoint.model());
        ProtocolAdapter.putPrompt(body, request, chat);
        body.put("max_tokens", request.maxOutputTokens());
        body.put("stream", request.stream());
        if (request.stream() && options.includeUsage()) {
            body.putObject("stream_options").put("include_usage", true);
        }
        return ProtocolAdapter.merge(body, request.extraBody());
    }

    @Override
    public void readStream(Response response, ResponseCollector c) throws IOException {
        SseEvents.read(response, (type, data, now, cut) -> {
            if (c.endMarkerSeen()) {
                return true;
            }
            String trimmed = data.strip();
            if (trimmed.isEmpty()) {
                return true;
            }
            if (trimmed.equals("[DONE]")) {
                c.endMarker(now);
                return true;
            }
            JsonNode node = SseEvents.json(data, cut, now, c);
            if (node == null) {
                return false;
            }
            return onChunk(node, now, c);
        });
    }

    /** Handles one parsed chunk; returns false after a stream error. */
    private boolean onChunk(JsonNode node, long now, ResponseCollector c) {
        if (ProtocolAdapter.failOnErrorMember(node, c, "stream", now)) {
            return false;
        }
        long stamp = ProtocolAdapter.serverStamp(node);
        JsonNode choices = node.get("choices");
        if (choices != null && choices.isArray()) {
            if (!choices.isEmpty()) {
                c.chunk(now);
            }
            Texts t = texts(choices, "delta");
            for (JsonNode choice : choices) {
                JsonNode finish = choice.get("finish_reason");
                if (finish != null && !finish.isNull()) {
                    c.finished();
                }
            }
            c.text(now, t.answer(), t.reasoning(), t.tool(), stamp);
        }
        usageAndTimings(node, c);
        return true;
    }

    /** Generated text of one event or body, split by kind. */
    private record Texts(String answer, String reasoning, String tool) {
    }

    /**
     * @param choices the {@code choices} array
     * @param field   {@code delta} (stream events) or {@code message} (bodies); legacy completions use {@code text}
     * @return answer, reasoning and tool-call argument text over all choices
     */
    private Texts texts(JsonNode choices, String field) {
        StringBuilder answer = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        StringBuilder tool = new StringBuilder();
        for (JsonNode choice : choices) {
            if (chat) {
                collectChat(choice.get(field), answer, reasoning, tool);
            } else {
                appendIfText(answer, ProtocolAdapter.text(choice, "text"));
            }
        }
        return new Texts(answer.toString(), reasoning.toString(), tool.toString());
    }

    private static void collectChat(JsonNode delta, StringBuilder answer, StringBuilder reasoning,
                                    StringBuilder tool) {
        if (delta == null || !delta.isObject()) {
            return;
        }
        appendIfText(answer, ProtocolAdapter.text(delta, "content"));
        appendIfText(reasoning, ProtocolAdapter.text(delta, "reasoning_content"));
        appendIfText(reasoning, ProtocolAdapter.text(delta, "reasoning"));
        JsonNode calls = delta.get("tool_calls");
        if (calls != null && calls.isArray()) {
            for (JsonNode call : calls) {
                appendIfText(tool, ProtocolAdapter.text(call.get("function"), "arguments"));
            }
        }
    }

    private static void appendIfText(StringBuilder sb, String s) {
        if (s != null) {
            sb.append(s);
        }
    }

    private static void usageAndTimings(JsonNode node, ResponseCollector c) {
        JsonNode usage = node.get("usage");
        if (usage != null && usage.isObject()) {
            c.inputTokens(ProtocolAdapter.intField(usage, "prompt_tokens"));
            c.outputTokens(ProtocolAdapter.intField(usage, "completion_tokens"));
        }
        JsonNode timings = node.get("timings");
        if (timings != null && timings.isObject()) {
            JsonNode p = timings.get("prompt_ms");
            if (p != null && p.isNumber()) {
                c.serverTiming("prompt_eval", p.asDouble());
            }
            JsonNode d = timings.get("predicted_ms");
            if (d != null && d.isNumber()) {
                c.serverTiming("eval", d.asDouble());
            }
        }
    }

    @Override
    public void readBody(JsonNode body, ResponseCollector c) {
        if (ProtocolAdapter.failOnErrorMember(body, c, "response body", System.nanoTime())) {
            return;
        }
        JsonNode choices = body.get("choices");
        if (choices != null && choices.isArray()) {
            Texts t = texts(choices, "message");
            c.text(System.nanoTime(), t.answer(), t.reasoning(), t.tool(),
                    org.latencylab.engine.api.RequestRecord.UNSET);
        }
        c.finished();
        usageAndTimings(body, c);
    }
}
