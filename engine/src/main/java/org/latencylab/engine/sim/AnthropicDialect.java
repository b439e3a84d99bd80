package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Anthropic Messages {@code POST /v1/messages}, following Anthropic's streaming documentation: {@code message_start}
 * (provisional usage: input tokens, 1 output token), {@code content_block_start}, a {@code ping},
 * {@code content_block_delta}s ({@code thinking_delta} for reasoning tokens in block 0, then a
 * {@code signature_delta} and a new text block; {@code text_delta} for answer tokens), {@code content_block_stop},
 * {@code message_delta} with the cumulative {@code usage.output_tokens}, {@code message_stop}. As with the real API,
 * {@code max_tokens} is required. Stateless and thread-safe.
 */
final class AnthropicDialect implements Dialect {

    @Override
    public Framing framing() {
        return Framing.SSE;
    }

    @Override
    public String idPrefix() {
        return "msg_sim_";
    }

    @Override
    public boolean reasoning() {
        return true;
    }

    @Override
    public SimRequest parse(JsonNode body) {
        SimRequest.requireObject(body);
        JsonNode max = body.get("max_tokens");
        if (max == null || max.isNull()) {
            throw new BadRequestException("max_tokens", "max_tokens: Field required");
        }
        int maxTokens = SimRequest.tokens("max_tokens", max, SimRequest.DEFAULT_MAX_TOKENS);
        String system = SimRequest.content("system", body.get("system"));
        String prompt = system + SimRequest.messages(body.get("messages"), false);
        boolean stream = SimRequest.bool("stream", body.get("stream"), false);
        return new SimRequest(prompt, null, maxTokens, stream, false, false);
    }

    @Override
    public List<WireEvent> opening(Turn t) {
        ObjectNode start = Dialect.object().put("type", "message_start");
        ObjectNode msg = start.putObject("message").put("id", t.id).put("type", "message").put("role", "assistant")
                .put("model", t.model);
        msg.putArray("content");
        msg.putNull("stop_reason");
        msg.putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", t.promptTokens).put("cache_read_input_tokens", t.cachedTokens)
                .put("output_tokens", 1);
        List<WireEvent> out = new ArrayList<>(3);
        out.add(WireEvent.named("message_start", start));
        out.add(blockStart(0, t.reasoningTokens > 0));
        out.add(WireEvent.named("ping", Dialect.object().put("type", "ping")));
        return out;
    }

    @Override
    public List<WireEvent> token(Turn t, WordSource.Piece piece, boolean reasoning, boolean last) {
        int index = t.emitted - 1;
        if (reasoning) {
            ObjectNode d = delta(0);
            d.putObject("delta").put("type", "thinking_delta").put("thinking", piece.text());
            return List.of(WireEvent.named("content_block_delta", d));
        }
        List<WireEvent> out = new ArrayList<>(4);
        int block = t.reasoningTokens > 0 ? 1 : 0;
        if (t.reasoningTokens > 0 && index == t.reasoningTokens) {
            ObjectNode sig = delta(0);
            sig.putObject("delta").put("type", "signature_delta").put("signature", "c2ltdWxhdGVk");
            out.add(WireEvent.named("content_block_delta", sig));
            out.add(WireEvent.named("content_block_stop", Dialect.object().put("type", "content_block_stop")
                    .put("index", 0)));
            out.add(blockStart(1, false));
        }
        ObjectNode d = delta(block);
        d.putObject("delta").put("type", "text_delta").put("text", piece.text());
        out.add(WireEvent.named("content_block_delta", d));
        return out;
    }

    @Override
    public List<WireEvent> closing(Turn t) {
        int block = t.reasoningTokens > 0 && t.answer.length() > 0 ? 1 : 0;
        ObjectNode md = Dialect.object().put("type", "message_delta");
        md.putObject("delta").put("stop_reason", "max_tokens").putNull("stop_sequence");
        md.putObject("usage").put("output_tokens", t.completionTokens());
        return List.of(
                WireEvent.named("content_block_stop", Dialect.object().put("type", "content_block_stop")
                        .put("index", block)),
                WireEvent.named("message_delta", md),
                WireEvent.named("message_stop", Dialect.object().put("type", "message_stop")));
    }

    @Override
    public ObjectNode whole(Turn t) {
        ObjectNode msg = Dialect.object().put("id", t.id).put("type", "message").put("role", "assistant")
                .put("model", t.model);
        ArrayNode content = msg.putArray("content");
        if (t.reasoningTokens > 0) {
            content.addObject().put("type", "thinking").put("thinking", t.reasoning.toString())
                    .put("signature", "c2ltdWxhdGVk");
        }
        if (t.answer.length() > 0) {
            content.addObject().put("type", "text").put("text", t.answer.toString());
        }
        msg.put("stop_reason", "max_tokens");
        msg.putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", t.promptTokens).put("cache_read_input_tokens", t.cachedTokens)
                .put("output_tokens", t.completionTokens());
        return msg;
    }

    @Override
    public ObjectNode error(int status, ErrorKind kind, String message, String param) {
        String type = switch (kind) {
            case RATE_LIMITED -> "rate_limit_error";
            case SERVER_ERROR -> status == 529 ? "overloaded_error" : "api_error";
            case NOT_FOUND -> "not_found_error";
            case INVALID_REQUEST -> "invalid_request_error";
        };
        ObjectNode root = Dialect.object().put("type", "error");
        root.putObject("error").put("type", type).put("message", message);
        return root;
    }

    private static WireEvent blockStart(int index, boolean thinking) {
        ObjectNode s = Dialect.object().put("type", "content_block_start").put("index", index);
        if (thinking) {
            s.putObject("content_block").put("type", "thinking").put("thinking", "");
        } else {
            s.putObject("content_block").put("type", "text").put("text", "");
        }
        return WireEvent.named("content_block_start", s);
    }

    private static ObjectNode delta(int index) {
        return Dialect.object().put("type", "content_block_delta").put("index", index);
    }
}
