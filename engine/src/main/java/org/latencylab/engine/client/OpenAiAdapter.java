package org.latencylab.engine.client;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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

    /** Reads a member's value as a tree inside a chunk (the shared mapper would reject the rest of the chunk). */
    private static final com.fasterxml.jackson.databind.ObjectMapper SUBTREES =
            new com.fasterxml.jackson.databind.ObjectMapper();

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
        try (EventParser parser = new EventParser()) {
            readStream(response, c, parser);
        }
    }

    private void readStream(Response response, ResponseCollector c, EventParser parser) throws IOException {
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
            return onChunk(parser, data, cut, now, c);
        });
    }

    /**
     * One stream's JSON parser: Jackson's non-blocking parser, fed each event's data as one root-level value.
     * Creating a parser per event cost about 1.1 KB of garbage per event (parser, I/O context, text buffer, symbol
     * table, contexts), which at a thousand streams of 50 events/s was more than half of what the client allocated
     * while measuring, and every collection that garbage caused walked the stacks of all request threads. Reading
     * stops at the first bad event, so one event can never leave the parser in a state the next one sees.
     *
     * <p>An event whose object is not complete makes the parser ask for more input ({@link JsonToken#NOT_AVAILABLE});
     * this parser turns that into an exception, as the end of input is for a blocking parser. Not thread-safe (one
     * stream, one thread).
     */
    private static final class EventParser extends com.fasterxml.jackson.core.util.JsonParserDelegate
            implements AutoCloseable {
        private final com.fasterxml.jackson.core.async.ByteArrayFeeder feeder;

        EventParser() throws IOException {
            super(JSON.getFactory().createNonBlockingByteArrayParser());
            feeder = (com.fasterxml.jackson.core.async.ByteArrayFeeder) delegate.getNonBlockingInputFeeder();
        }

        /** Gives the parser one event's data. @throws IOException when the previous event was not read to its end */
        void feed(String data) throws IOException {
            byte[] bytes = data.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            feeder.feedInput(bytes, 0, bytes.length);
        }

        /** @return true when the event held nothing after its value but white space */
        boolean atEventEnd() throws IOException {
            return delegate.nextToken() == JsonToken.NOT_AVAILABLE;
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = delegate.nextToken();
            if (t == JsonToken.NOT_AVAILABLE) {
                throw new com.fasterxml.jackson.core.io.JsonEOFException(delegate, null,
                        "event data ended inside a JSON value");
            }
            return t;
        }

        @Override
        public String nextFieldName() throws IOException {
            return nextToken() == JsonToken.FIELD_NAME ? currentName() : null;
        }

        @Override
        public JsonToken nextValue() throws IOException {
            JsonToken t = nextToken();
            return t == JsonToken.FIELD_NAME ? nextToken() : t;
        }

        @Override
        public JsonParser skipChildren() throws IOException {
            JsonToken at = currentToken();
            if (at != JsonToken.START_OBJECT && at != JsonToken.START_ARRAY) {
                return this;
            }
            for (int open = 1; open > 0; ) { // through nextToken above, so a cut value fails instead of looping
                JsonToken t = nextToken();
                if (t.isStructStart()) {
                    open++;
                } else if (t.isStructEnd()) {
                    open--;
                }
            }
            return this;
        }
    }

    /**
     * Handles one chunk with Jackson's streaming parser: only the members that matter are read, the rest is skipped
     * without building a tree (per event this is several times cheaper than a tree, and events are the client's
     * hottest path), with the stream's one {@link EventParser}. Same rules as {@link #readBody}: a non-null top-level {@code error} is a stream error; data
     * that is not one JSON object is {@code protocol}, or {@code truncated} when the body ended inside it. (Parsing
     * the data's UTF-8 bytes instead is no faster with C1-compiled code and allocates a copy of every event.)
     *
     * @return false after the request was failed (the caller stops reading)
     */
    private boolean onChunk(EventParser p, String data, boolean cut, long now, ResponseCollector c) {
        Chunk k = new Chunk();
        try {
            p.feed(data);
            if (p.atEventEnd() || p.currentToken() != JsonToken.START_OBJECT) {
                throw new JsonParseException(p, "not an object");
            }
            readChunk(p, k);
            if (!p.atEventEnd()) {
                throw new JsonParseException(p, "trailing data");
            }
        } catch (IOException e) {
            c.fail(cut ? ErrorKind.TRUNCATED : ErrorKind.PROTOCOL, (cut ? "stream ended inside an event: "
                    : "event data is not a JSON object: ") + ProtocolAdapter.excerpt(data), now);
            return false;
        }
        if (k.error != null) {
            c.fail(ErrorKind.STREAM_ERROR, "error in stream: " + k.error, now);
            return false;
        }
        if (k.finished) {
            c.finished();
        }
        if (k.choices) {
            if (k.choiceCount > 0) {
                c.chunk(now);
            }
            c.text(now, k.answer(), k.reasoning(), k.tool(), k.stamp);
        }
        c.inputTokens(k.promptTokens);
        c.outputTokens(k.completionTokens);
        if (k.promptMs != null) {
            c.serverTiming("prompt_eval", k.promptMs);
        }
        if (k.predictedMs != null) {
            c.serverTiming("eval", k.predictedMs);
        }
        return true;
    }

    /** What one streamed chunk carries. */
    private static final class Chunk {
        boolean choices;
        int choiceCount;
        boolean finished;
        String error;
        long stamp = org.latencylab.engine.api.RequestRecord.UNSET;
        int promptTokens = -1;
        int completionTokens = -1;
        Double promptMs;
        Double predictedMs;
        private StringBuilder answer;
        private StringBuilder reasoningContent;
        private StringBuilder reasoning;
        private StringBuilder tool;

        static StringBuilder add(StringBuilder sb, String s) {
            return sb == null ? new StringBuilder(s) : sb.append(s);
        }

        String answer() {
            return answer == null ? null : answer.toString();
        }

        String reasoning() {
            if (reasoningContent == null) {
                return reasoning == null ? null : reasoning.toString();
            }
            return reasoning == null ? reasoningContent.toString() : reasoningContent.append(reasoning).toString();
        }

        String tool() {
            return tool == null ? null : tool.toString();
        }
    }

    private void readChunk(JsonParser p, Chunk k) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "choices" -> {
                    if (t == JsonToken.START_ARRAY) {
                        k.choices = true;
                        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                            if (t == JsonToken.START_OBJECT) {
                                k.choiceCount++;
                                readChoice(p, k);
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                case "usage" -> {
                    if (t == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String u = p.currentName();
                            JsonToken v = p.nextToken();
                            if (v.isNumeric() && u.equals("prompt_tokens")) {
                                k.promptTokens = p.getIntValue();
                            } else if (v.isNumeric() && u.equals("completion_tokens")) {
                                k.completionTokens = p.getIntValue();
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                case "timings" -> {
                    if (t == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String u = p.currentName();
                            JsonToken v = p.nextToken();
                            if (v.isNumeric() && u.equals("prompt_ms")) {
                                k.promptMs = p.getDoubleValue();
                            } else if (v.isNumeric() && u.equals("predicted_ms")) {
                                k.predictedMs = p.getDoubleValue();
                            } else {
                                p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                case "error" -> {
                    if (t != JsonToken.VALUE_NULL) {
                        JsonNode err = SUBTREES.readTree(p);
                        k.error = ProtocolAdapter.errorMessage(err);
                    }
                }
                case "x_sent_ns" -> {
                    if (t == JsonToken.VALUE_NUMBER_INT) {
                        k.stamp = p.getLongValue();
                    }
                }
                default -> p.skipChildren();
            }
        }
    }

    private void readChoice(JsonParser p, Chunk k) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (chat && field.equals("delta") && t == JsonToken.START_OBJECT) {
                readDelta(p, k);
            } else if (!chat && field.equals("text") && t == JsonToken.VALUE_STRING) {
                k.answer = Chunk.add(k.answer, p.getText());
            } else if (field.equals("finish_reason") && t != JsonToken.VALUE_NULL) {
                k.finished = true;
                p.skipChildren();
            } else {
                p.skipChildren();
            }
        }
    }

    private static void readDelta(JsonParser p, Chunk k) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_STRING) {
                switch (field) {
                    case "content" -> k.answer = Chunk.add(k.answer, p.getText());
                    case "reasoning_content" -> k.reasoningContent = Chunk.add(k.reasoningContent, p.getText());
                    case "reasoning" -> k.reasoning = Chunk.add(k.reasoning, p.getText());
                    default -> { }
                }
            } else if (field.equals("tool_calls") && t == JsonToken.START_ARRAY) {
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == JsonToken.START_OBJECT) {
                        readToolCall(p, k);
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private static void readToolCall(JsonParser p, Chunk k) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if (field.equals("function") && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String f = p.currentName();
                    JsonToken v = p.nextToken();
                    if (f.equals("arguments") && v == JsonToken.VALUE_STRING) {
                        k.tool = Chunk.add(k.tool, p.getText());
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
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
