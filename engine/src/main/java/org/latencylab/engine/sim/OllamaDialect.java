package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;

/**
 * Ollama's native {@code POST /api/chat} ({@code chat = true}) and {@code POST /api/generate}: NDJSON, streaming by
 * default, one object per token, then a {@code done: true} object with Ollama's counters and durations in
 * nanoseconds ({@code total_duration}, {@code load_duration}, {@code prompt_eval_count},
 * {@code prompt_eval_duration}, {@code eval_count}, {@code eval_duration}), as in Ollama's API documentation.
 * The simulator has no model to load: it reports its queue wait as {@code load_duration}, prefill as
 * {@code prompt_eval_duration} and first to last token as {@code eval_duration}. {@code options.num_predict}
 * below 1 (Ollama's -1 = unlimited) falls back to the default of 16. Reasoning tokens go out in
 * {@code message.thinking} / {@code thinking}. Stateless and thread-safe.
 */
final class OllamaDialect implements Dialect {
    private final boolean chat;

    /** @param chat {@code /api/chat} (true) or {@code /api/generate} (false) */
    OllamaDialect(boolean chat) {
        this.chat = chat;
    }

    @Override
    public Framing framing() {
        return Framing.NDJSON;
    }

    @Override
    public String idPrefix() {
        return "ollama-sim-";
    }

    @Override
    public boolean reasoning() {
        return true;
    }

    @Override
    public SimRequest parse(JsonNode body) {
        SimRequest.requireObject(body);
        String prompt;
        if (chat) {
            prompt = SimRequest.messages(body.get("messages"), false);
        } else {
            JsonNode p = body.get("prompt");
            if (p == null || !p.isTextual()) {
                throw new BadRequestException("prompt", "'prompt' must be a string, was "
                        + (p == null ? "missing" : p.toString()));
            }
            prompt = SimRequest.content("system", body.get("system")) + p.asText();
        }
        int maxTokens = SimRequest.DEFAULT_MAX_TOKENS;
        JsonNode options = body.get("options");
        if (options != null && !options.isNull()) {
            if (!options.isObject()) {
                throw new BadRequestException("options", "'options' must be an object, was " + options);
            }
            JsonNode np = options.get("num_predict");
            if (np != null && !np.isNull()) {
                if (!np.isIntegralNumber()) {
                    throw new BadRequestException("options.num_predict",
                            "'options.num_predict' must be an integer, was " + np);
                }
                if (np.asLong() >= 1) {
                    maxTokens = SimRequest.tokens("options.num_predict", np, SimRequest.DEFAULT_MAX_TOKENS);
                }
            }
        }
        boolean stream = SimRequest.bool("stream", body.get("stream"), true);
        return new SimRequest(prompt, null, maxTokens, stream, false, false);
    }

    @Override
    public List<WireEvent> opening(Turn t) {
        return List.of();
    }

    @Override
    public List<WireEvent> token(Turn t, WordSource.Piece piece, boolean reasoning, boolean last) {
        ObjectNode o = header(t);
        if (chat) {
            ObjectNode m = o.putObject("message").put("role", "assistant");
            if (reasoning) {
                m.put("content", "").put("thinking", piece.text());
            } else {
                m.put("content", piece.text());
            }
        } else if (reasoning) {
            o.put("response", "").put("thinking", piece.text());
        } else {
            o.put("response", piece.text());
        }
        o.put("done", false);
        return List.of(WireEvent.of(o));
    }

    @Override
    public List<WireEvent> closing(Turn t) {
        ObjectNode o = header(t);
        if (chat) {
            o.putObject("message").put("role", "assistant").put("content", "");
        } else {
            o.put("response", "");
        }
        done(t, o);
        return List.of(WireEvent.of(o));
    }

    @Override
    public ObjectNode whole(Turn t) {
        ObjectNode o = header(t);
        if (chat) {
            ObjectNode m = o.putObject("message").put("role", "assistant").put("content", t.answer.toString());
            if (t.reasoningTokens > 0) {
                m.put("thinking", t.reasoning.toString());
            }
        } else {
            o.put("response", t.answer.toString());
            if (t.reasoningTokens > 0) {
                o.put("thinking", t.reasoning.toString());
            }
        }
        done(t, o);
        return o;
    }

    @Override
    public ObjectNode error(int status, ErrorKind kind, String message, String param) {
        return Dialect.object().put("error", message);
    }

    private static void done(Turn t, ObjectNode o) {
        long end = System.nanoTime();
        o.put("done", true).put("done_reason", "length")
                .put("total_duration", end - t.arriveNanos)
                .put("load_duration", t.admittedNanos - t.arriveNanos)
                .put("prompt_eval_count", t.promptTokens)
                .put("prompt_eval_duration", t.firstTokenNanos - t.admittedNanos)
                .put("eval_count", t.completionTokens())
                .put("eval_duration", t.lastTokenNanos - t.firstTokenNanos);
    }

    private static ObjectNode header(Turn t) {
        return Dialect.object().put("model", t.model).put("created_at", Instant.now().toString());
    }
}
