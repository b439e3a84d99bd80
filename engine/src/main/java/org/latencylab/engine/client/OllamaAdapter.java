package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import okhttp3.Response;
import okio.BufferedSource;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;

import java.io.IOException;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * Ollama's native API, {@code POST /api/chat} and {@code POST /api/generate} (Ollama's {@code docs/api.md}).
 *
 * <p>Streaming responses are NDJSON: one JSON object per line. Lines are framed with okio's
 * {@link BufferedSource#readUtf8Line()}, so objects split across network reads or several objects in one read
 * are handled; an event is stamped when its line is complete. Generated text: {@code message.content} /
 * {@code response} (answer), {@code message.thinking} / {@code thinking} (reasoning), {@code
 * message.tool_calls[].function.arguments} (tool calls). {@code done: true} is the end marker; its
 * {@code eval_count} and {@code prompt_eval_count} are the output and input token counts, and its durations
 * (nanoseconds) become the server timings {@code total}, {@code load}, {@code prompt_eval} and {@code eval} in
 * milliseconds. An {@code error} member is a stream error. Stateless; thread-safe.
 */
final class OllamaAdapter implements ProtocolAdapter {
    /** {@code /api/chat}. */
    static final OllamaAdapter CHAT = new OllamaAdapter(true);
    /** {@code /api/generate}. */
    static final OllamaAdapter GENERATE = new OllamaAdapter(false);

    private final boolean chat;

    private OllamaAdapter(boolean chat) {
        this.chat = chat;
    }

    @Override
    public Protocol protocol() {
        return chat ? Protocol.OLLAMA_CHAT : Protocol.OLLAMA_GENERATE;
    }

    @Override
    public String path(GenerationRequest request) {
        return chat ? "/api/chat" : "/api/generate";
    }

    @Override
    public ObjectNode body(Endpoint endpoint, GenerationRequest request, ClientOptions options) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", endpoint.model());
        ProtocolAdapter.putPrompt(body, request, chat);
        body.put("stream", request.stream());
        body.putObject("options").put("num_predict", request.maxOutputTokens());
        return ProtocolAdapter.merge(body, request.extraBody());
    }

    @Override
    public void readStream(Response response, ResponseCollector c) throws IOException {
        StampedBody body = StampedBody.of(response.body());
        readLines(body, c);
    }

    /**
     * Reads NDJSON lines until the end of the source or a failure recorded in the collector.
     *
     * @param source the body
     * @param c      the collector
     * @throws IOException on a read failure
     */
    void readLines(StampedBody body, ResponseCollector c) throws IOException {
        BufferedSource source = body.source();
        while (true) {
            // indexOf blocks until a line end or the end of the body; -1 means the rest has no line end
            boolean terminated = source.indexOf((byte) '\n') >= 0;
            String line = source.readUtf8Line();
            if (line == null) {
                return;
            }
            long now = body.consumedStamp();
            if (c.endMarkerSeen() || line.isBlank()) {
                continue;
            }
            JsonNode node = ProtocolAdapter.parseObject(line);
            if (node == null) {
                c.fail(terminated ? ErrorKind.PROTOCOL : ErrorKind.TRUNCATED,
                        (terminated ? "NDJSON line is not a JSON object: " : "stream ended inside a JSON line: ")
                                + ProtocolAdapter.excerpt(line), now);
                return;
            }
            if (!onObject(node, now, c, true)) {
                return;
            }
        }
    }

    /** Handles one object (a stream line or the whole body); returns false after an error. */
    private boolean onObject(JsonNode node, long now, ResponseCollector c, boolean streaming) {
        if (ProtocolAdapter.failOnErrorMember(node, c, "stream", now)) {
            return false;
        }
        String answer;
        String reasoning;
        String tool = null;
        if (chat) {
            JsonNode message = node.get("message");
            answer = ProtocolAdapter.text(message, "content");
            reasoning = ProtocolAdapter.text(message, "thinking");
            JsonNode calls = message == null ? null : message.get("tool_calls");
            if (calls != null && calls.isArray() && !calls.isEmpty()) {
                StringBuilder sb = new StringBuilder();
                for (JsonNode call : calls) {
                    JsonNode args = call.path("function").get("arguments");
                    if (args != null && !args.isNull()) {
                        sb.append(args.isTextual() ? args.asText() : args.toString());
                    }
                }
                tool = sb.toString();
            }
        } else {
            answer = ProtocolAdapter.text(node, "response");
            reasoning = ProtocolAdapter.text(node, "thinking");
        }
        c.text(streaming ? now : UNSET, answer, reasoning, tool, ProtocolAdapter.serverStamp(node));
        JsonNode done = node.get("done");
        if (done != null && done.asBoolean(false)) {
            c.outputTokens(ProtocolAdapter.intField(node, "eval_count"));
            c.inputTokens(ProtocolAdapter.intField(node, "prompt_eval_count"));
            timing(node, "total_duration", "total", c);
            timing(node, "load_duration", "load", c);
            timing(node, "prompt_eval_duration", "prompt_eval", c);
            timing(node, "eval_duration", "eval", c);
            c.finished();
            c.endMarker(now);
        }
        return true;
    }

    private static void timing(JsonNode node, String field, String key, ResponseCollector c) {
        JsonNode v = node.get(field);
        if (v != null && v.isNumber()) {
            c.serverTiming(key, v.asDouble() / 1e6);
        }
    }

    @Override
    public void readBody(JsonNode body, ResponseCollector c) {
        onObject(body, System.nanoTime(), c, false);
        c.finished();
    }
}
