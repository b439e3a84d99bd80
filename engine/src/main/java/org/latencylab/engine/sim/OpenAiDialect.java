package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI-compatible {@code POST /v1/chat/completions} ({@code chat = true}) and {@code POST /v1/completions},
 * shaped like vLLM's OpenAI server: a role-only first chat chunk, one token per chunk, {@code finish_reason} on the
 * last token's chunk, an optional usage chunk with {@code choices: []} ({@code stream_options.include_usage}), then
 * {@code data: [DONE]}. Reasoning tokens go out as {@code delta.reasoning_content} (vLLM's reasoning parsers).
 * vLLM sends the role chunk together with the first token; the simulator sends it as soon as the request is
 * admitted (before prefill), so a client that wrongly counts it as a token shows a TTFT near the queue wait instead
 * of the prefill time. Stateless and thread-safe.
 */
final class OpenAiDialect implements Dialect {
    private final boolean chat;

    /** @param chat chat completions (true) or legacy completions (false) */
    OpenAiDialect(boolean chat) {
        this.chat = chat;
    }

    @Override
    public Framing framing() {
        return Framing.SSE;
    }

    @Override
    public String idPrefix() {
        return chat ? "chatcmpl-sim-" : "cmpl-sim-";
    }

    @Override
    public boolean reasoning() {
        return chat;
    }

    @Override
    public SimRequest parse(JsonNode body) {
        SimRequest.requireObject(body);
        String prompt;
        int[] ids = null;
        int maxTokens;
        if (chat) {
            prompt = SimRequest.messages(body.get("messages"), false);
            JsonNode mct = body.get("max_completion_tokens");
            maxTokens = mct != null && !mct.isNull()
                    ? SimRequest.tokens("max_completion_tokens", mct, SimRequest.DEFAULT_MAX_TOKENS)
                    : SimRequest.tokens("max_tokens", body.get("max_tokens"), SimRequest.DEFAULT_MAX_TOKENS);
        } else {
            JsonNode p = body.get("prompt");
            if (p != null && p.isTextual()) {
                prompt = p.asText();
            } else if (p != null && p.isArray() && p.size() == 1 && p.get(0).isTextual()) {
                prompt = p.get(0).asText();
            } else if (p != null && p.isArray() && !p.isEmpty() && allInts(p)) {
                prompt = null;
                ids = new int[p.size()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = p.get(i).asInt();
                }
            } else {
                throw new BadRequestException("prompt", "'prompt' must be a string, an array of one string or an "
                        + "array of token ids (the simulator serves one prompt per request), was "
                        + (p == null ? "missing" : p.toString()));
            }
            maxTokens = SimRequest.tokens("max_tokens", body.get("max_tokens"), SimRequest.DEFAULT_MAX_TOKENS);
        }
        boolean stream = SimRequest.bool("stream", body.get("stream"), false);
        JsonNode so = body.get("stream_options");
        boolean usage = false;
        if (so != null && !so.isNull()) {
            if (!so.isObject()) {
                throw new BadRequestException("stream_options", "'stream_options' must be an object, was " + so);
            }
            usage = SimRequest.bool("stream_options.include_usage", so.get("include_usage"), false);
        }
        return new SimRequest(prompt, ids, maxTokens, stream, usage, false);
    }

    private static boolean allInts(JsonNode array) {
        for (JsonNode n : array) {
            if (!n.isIntegralNumber()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<WireEvent> opening(Turn t) {
        if (!chat) {
            return List.of();
        }
        ObjectNode delta = Dialect.object().put("role", "assistant").put("content", "");
        return List.of(WireEvent.of(chunk(t, delta, null)));
    }

    @Override
    public List<WireEvent> token(Turn t, WordSource.Piece piece, boolean reasoning, boolean last) {
        String finish = last ? "length" : null;
        if (chat) {
            ObjectNode delta = Dialect.object().put(reasoning ? "reasoning_content" : "content", piece.text());
            return List.of(WireEvent.of(chunk(t, delta, finish)));
        }
        ObjectNode c = header(t, "text_completion");
        ObjectNode choice = c.putArray("choices").addObject();
        choice.put("index", 0).put("text", piece.text()).putNull("logprobs");
        choice.put("finish_reason", finish);
        return List.of(WireEvent.of(c));
    }

    @Override
    public List<WireEvent> closing(Turn t) {
        List<WireEvent> out = new ArrayList<>(2);
        if (t.request.includeUsage()) {
            ObjectNode c = header(t, chat ? "chat.completion.chunk" : "text_completion");
            c.putArray("choices");
            c.set("usage", usage(t));
            out.add(WireEvent.of(c));
        }
        out.add(WireEvent.raw("[DONE]"));
        return out;
    }

    @Override
    public ObjectNode whole(Turn t) {
        ObjectNode c = header(t, chat ? "chat.completion" : "text_completion");
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        if (chat) {
            ObjectNode msg = choice.putObject("message").put("role", "assistant").put("content", t.answer.toString());
            if (t.reasoningTokens > 0) {
                msg.put("reasoning_content", t.reasoning.toString());
            }
        } else {
            choice.put("text", t.answer.toString());
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", "length");
        c.set("usage", usage(t));
        return c;
    }

    @Override
    public ObjectNode error(int status, ErrorKind kind, String message, String param) {
        ObjectNode root = Dialect.object();
        ObjectNode e = root.putObject("error").put("message", message);
        switch (kind) {
            case RATE_LIMITED -> e.put("type", "requests").put("param", param).put("code", "rate_limit_exceeded");
            case SERVER_ERROR -> e.put("type", "server_error").put("param", param).put("code", status);
            case NOT_FOUND -> e.put("type", "invalid_request_error").put("param", param).put("code", "not_found");
            default -> e.put("type", "invalid_request_error").put("param", param).put("code", status);
        }
        return root;
    }

    private ObjectNode chunk(Turn t, ObjectNode delta, String finish) {
        ObjectNode c = header(t, "chat.completion.chunk");
        ArrayNode choices = c.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        choice.put("finish_reason", finish);
        return c;
    }

    private static ObjectNode header(Turn t, String object) {
        return Dialect.object().put("id", t.id).put("object", object).put("created", t.createdSeconds)
                .put("model", t.model);
    }

    private static ObjectNode usage(Turn t) {
        int completion = t.completionTokens();
        ObjectNode u = Dialect.object().put("prompt_tokens", t.promptTokens)
                .put("total_tokens", t.promptTokens + completion).put("completion_tokens", completion);
        u.putObject("prompt_tokens_details").put("cached_tokens", t.cachedTokens);
        if (t.reasoningTokens > 0) {
            u.putObject("completion_tokens_details").put("reasoning_tokens", t.reasoningCount());
        }
        return u;
    }
}
