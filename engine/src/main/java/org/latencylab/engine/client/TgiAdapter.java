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

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * Hugging Face Text Generation Inference: {@code POST /generate_stream} (SSE) and {@code POST /generate}.
 *
 * <p>Each stream event is {@code {"token":{"id","text","logprob","special"},"generated_text","details"}}; a
 * token with {@code special: true} (e.g. an end-of-sequence token) carries no generated text. The event whose
 * {@code generated_text} is not null is the last one (end marker); its {@code details.generated_tokens} is the
 * output token count. An {@code error} member is a stream error. The request asks for {@code details: true}.
 * Stateless; thread-safe.
 */
final class TgiAdapter implements ProtocolAdapter {
    /** The shared instance. */
    static final TgiAdapter INSTANCE = new TgiAdapter();

    private TgiAdapter() {
    }

    @Override
    public Protocol protocol() {
        return Protocol.TGI_GENERATE;
    }

    @Override
    public String path(GenerationRequest request) {
        return request.stream() ? "/generate_stream" : "/generate";
    }

    @Override
    public ObjectNode body(Endpoint endpoint, GenerationRequest request, ClientOptions options) {
        ObjectNode body = JSON.createObjectNode();
        body.put("inputs", request.prompt());
        ObjectNode params = body.putObject("parameters");
        params.put("max_new_tokens", request.maxOutputTokens());
        params.put("details", true);
        return ProtocolAdapter.merge(body, request.extraBody());
    }

    @Override
    public void readStream(Response response, ResponseCollector c) throws IOException {
        SseEvents.read(response, (type, data, now, cut) -> {
            if (c.endMarkerSeen() || data.isBlank()) {
                return true;
            }
            JsonNode node = SseEvents.json(data, cut, now, c);
            if (node == null) {
                return false;
            }
            if (ProtocolAdapter.failOnErrorMember(node, c, "stream", now)) {
                return false;
            }
            JsonNode token = node.get("token");
            if (token != null && token.isObject() && !token.path("special").asBoolean(false)) {
                c.text(now, ProtocolAdapter.text(token, "text"), null, null, ProtocolAdapter.serverStamp(node));
            }
            details(node.get("details"), c);
            JsonNode generated = node.get("generated_text");
            if (generated != null && !generated.isNull()) {
                c.finished();
                c.endMarker(now);
            }
            return true;
        });
    }

    private static void details(JsonNode details, ResponseCollector c) {
        if (details != null && details.isObject()) {
            c.outputTokens(ProtocolAdapter.intField(details, "generated_tokens"));
            JsonNode prefill = details.get("prefill");
            if (prefill != null && prefill.isArray() && !prefill.isEmpty()) {
                c.inputTokens(prefill.size());
            }
        }
    }

    @Override
    public void readBody(JsonNode body, ResponseCollector c) {
        if (ProtocolAdapter.failOnErrorMember(body, c, "response body", System.nanoTime())) {
            return;
        }
        c.text(UNSET, ProtocolAdapter.text(body, "generated_text"), null, null, UNSET);
        details(body.get("details"), c);
        c.finished();
    }
}
