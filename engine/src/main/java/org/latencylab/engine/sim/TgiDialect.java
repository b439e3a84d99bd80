package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Hugging Face Text Generation Inference: {@code POST /generate_stream} ({@code stream = true}; SSE
 * {@code data:{"index":i,"token":{"id","text","logprob","special"},"generated_text":null,"details":null}}, the
 * last token's event carrying {@code generated_text} and {@code details.generated_tokens}) and {@code POST /generate}
 * (one JSON answer, details when {@code parameters.details} is true). Token ids are cl100k ids of the pieces;
 * log-probabilities are made up (in [-1, 0]). {@code parameters.max_new_tokens} defaults to 16 here. No reasoning.
 * Stateless and thread-safe.
 */
final class TgiDialect implements Dialect {
    private final boolean stream;

    /** @param stream {@code /generate_stream} (true) or {@code /generate} (false) */
    TgiDialect(boolean stream) {
        this.stream = stream;
    }

    @Override
    public Framing framing() {
        return Framing.SSE_COMPACT;
    }

    @Override
    public String idPrefix() {
        return "tgi-sim-";
    }

    @Override
    public boolean reasoning() {
        return false;
    }

    @Override
    public SimRequest parse(JsonNode body) {
        SimRequest.requireObject(body);
        JsonNode inputs = body.get("inputs");
        if (inputs == null || !inputs.isTextual()) {
            throw new BadRequestException("inputs", "'inputs' must be a string, was "
                    + (inputs == null ? "missing" : inputs.toString()));
        }
        int maxTokens = SimRequest.DEFAULT_MAX_TOKENS;
        boolean details = false;
        JsonNode params = body.get("parameters");
        if (params != null && !params.isNull()) {
            if (!params.isObject()) {
                throw new BadRequestException("parameters", "'parameters' must be an object, was " + params);
            }
            maxTokens = SimRequest.tokens("parameters.max_new_tokens", params.get("max_new_tokens"),
                    SimRequest.DEFAULT_MAX_TOKENS);
            details = SimRequest.bool("parameters.details", params.get("details"), false);
        }
        return new SimRequest(inputs.asText(), null, maxTokens, stream, false, details);
    }

    @Override
    public List<WireEvent> opening(Turn t) {
        return List.of();
    }

    @Override
    public List<WireEvent> token(Turn t, WordSource.Piece piece, boolean reasoning, boolean last) {
        ObjectNode o = Dialect.object().put("index", t.emitted);
        o.putObject("token").put("id", piece.tokenId()).put("text", piece.text())
                .put("logprob", -(Math.floorMod(piece.tokenId() * 2_654_435_761L, 1000) / 1000.0))
                .put("special", false);
        if (last) {
            o.put("generated_text", t.answer.toString());
            o.putObject("details").put("finish_reason", "length").put("generated_tokens", t.completionTokens())
                    .put("input_length", t.promptTokens).putNull("seed");
        } else {
            o.putNull("generated_text");
            o.putNull("details");
        }
        o.putNull("top_tokens");
        return List.of(WireEvent.of(o));
    }

    @Override
    public List<WireEvent> closing(Turn t) {
        return List.of();
    }

    @Override
    public ObjectNode whole(Turn t) {
        ObjectNode o = Dialect.object().put("generated_text", t.answer.toString());
        if (t.request.details()) {
            o.putObject("details").put("finish_reason", "length").put("generated_tokens", t.completionTokens())
                    .putNull("seed");
        }
        return o;
    }

    @Override
    public ObjectNode error(int status, ErrorKind kind, String message, String param) {
        String type = switch (kind) {
            case RATE_LIMITED -> "overloaded";
            case SERVER_ERROR -> "generation";
            case NOT_FOUND -> "not_found";
            case INVALID_REQUEST -> "validation";
        };
        return Dialect.object().put("error", message).put("error_type", type);
    }
}
