package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import okhttp3.Request;
import okhttp3.Response;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;

import java.io.IOException;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * Anthropic Messages API, {@code POST /v1/messages}, as documented in Anthropic's "Streaming Messages" guide.
 *
 * <p>Authentication is {@code x-api-key} plus {@code anthropic-version: 2023-06-01}. Stream events (the
 * {@code type} inside each JSON payload): {@code message_start} (input tokens, provisional output count),
 * {@code content_block_start}, {@code content_block_delta} with {@code text_delta} (answer),
 * {@code thinking_delta} (reasoning) or {@code input_json_delta} (tool-call arguments), {@code ping},
 * {@code message_delta} (stop reason and the <em>cumulative</em> output token count: the last one wins, never
 * summed), {@code message_stop} (end marker) and {@code error} (stream error). Unknown types are ignored.
 * Stateless; thread-safe.
 */
final class AnthropicAdapter implements ProtocolAdapter {
    /** The API version header value this adapter speaks. */
    static final String API_VERSION = "2023-06-01";
    /** The shared instance. */
    static final AnthropicAdapter INSTANCE = new AnthropicAdapter();

    private AnthropicAdapter() {
    }

    @Override
    public Protocol protocol() {
        return Protocol.ANTHROPIC_MESSAGES;
    }

    @Override
    public String path(GenerationRequest request) {
        return "/v1/messages";
    }

    @Override
    public ObjectNode body(Endpoint endpoint, GenerationRequest request, ClientOptions options) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", endpoint.model());
        body.put("max_tokens", request.maxOutputTokens());
        ProtocolAdapter.putPrompt(body, request, true);
        body.put("stream", request.stream());
        return ProtocolAdapter.merge(body, request.extraBody());
    }

    @Override
    public void headers(Request.Builder builder, String apiKey) {
        if (apiKey != null && !apiKey.isEmpty()) {
            builder.header("x-api-key", apiKey);
        }
        builder.header("anthropic-version", API_VERSION);
    }

    @Override
    public void readStream(Response response, ResponseCollector c) throws IOException {
        SseEvents.read(response, (eventType, data, now, cut) -> {
            if (c.endMarkerSeen() || data.isBlank()) {
                return true;
            }
            JsonNode node = SseEvents.json(data, cut, now, c);
            if (node == null) {
                return false;
            }
            String type = ProtocolAdapter.text(node, "type");
            if (type == null) {
                type = eventType;
            }
            if (type == null) {
                return true;
            }
            long stamp = ProtocolAdapter.serverStamp(node);
            switch (type) {
                case "message_start" -> usage(node.path("message").get("usage"), c);
                case "content_block_start" -> block(node.get("content_block"), now, stamp, c);
                case "content_block_delta" -> delta(node.get("delta"), now, stamp, c);
                case "message_delta" -> {
                    usage(node.get("usage"), c);
                    JsonNode stop = node.path("delta").get("stop_reason");
                    if (stop != null && !stop.isNull()) {
                        c.finished();
                    }
                }
                case "message_stop" -> c.endMarker(now);
                case "error" -> {
                    JsonNode err = node.get("error");
                    c.fail(ErrorKind.STREAM_ERROR, "error event: "
                            + (err == null ? ProtocolAdapter.excerpt(data) : ProtocolAdapter.errorMessage(err)), now);
                    return false;
                }
                default -> {
                    // ping, content_block_stop and future event types carry no text
                }
            }
            return true;
        });
    }

    private static void usage(JsonNode usage, ResponseCollector c) {
        if (usage != null && usage.isObject()) {
            c.inputTokens(ProtocolAdapter.intField(usage, "input_tokens"));
            c.outputTokens(ProtocolAdapter.intField(usage, "output_tokens"));
        }
    }

    private static void block(JsonNode block, long now, long stamp, ResponseCollector c) {
        if (block == null) {
            return;
        }
        String type = ProtocolAdapter.text(block, "type");
        if ("text".equals(type)) {
            c.text(now, ProtocolAdapter.text(block, "text"), null, null, stamp);
        } else if ("thinking".equals(type)) {
            c.text(now, null, ProtocolAdapter.text(block, "thinking"), null, stamp);
        }
    }

    private static void delta(JsonNode delta, long now, long stamp, ResponseCollector c) {
        if (delta == null) {
            return;
        }
        String type = ProtocolAdapter.text(delta, "type");
        if (type == null) {
            return;
        }
        switch (type) {
            case "text_delta" -> c.text(now, ProtocolAdapter.text(delta, "text"), null, null, stamp);
            case "thinking_delta" -> c.text(now, null, ProtocolAdapter.text(delta, "thinking"), null, stamp);
            case "input_json_delta" -> c.text(now, null, null, ProtocolAdapter.text(delta, "partial_json"), stamp);
            default -> {
                // signature_delta and future delta types carry no generated text
            }
        }
    }

    @Override
    public void readBody(JsonNode body, ResponseCollector c) {
        if ("error".equals(ProtocolAdapter.text(body, "type")) || body.hasNonNull("error")) {
            JsonNode err = body.get("error");
            c.fail(ErrorKind.STREAM_ERROR, "error in response body: "
                    + (err == null ? ProtocolAdapter.excerpt(body.toString()) : ProtocolAdapter.errorMessage(err)),
                    System.nanoTime());
            return;
        }
        JsonNode content = body.get("content");
        if (content != null && content.isArray()) {
            for (JsonNode block : content) {
                String type = ProtocolAdapter.text(block, "type");
                if ("text".equals(type)) {
                    c.text(UNSET, ProtocolAdapter.text(block, "text"), null, null, UNSET);
                } else if ("thinking".equals(type)) {
                    c.text(UNSET, null, ProtocolAdapter.text(block, "thinking"), null, UNSET);
                } else if ("tool_use".equals(type) && block.has("input")) {
                    c.text(UNSET, null, null, block.get("input").toString(), UNSET);
                }
            }
        }
        c.finished();
        usage(body.get("usage"), c);
    }
}
