package org.latencylab.engine.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import okhttp3.Request;
import okhttp3.Response;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;

import java.io.IOException;
import java.util.Map;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * One wire protocol: how to build its request and how to read its response into a {@link ResponseCollector}.
 *
 * <p>Implementations are stateless and thread-safe; all per-request state lives in the collector.
 */
interface ProtocolAdapter {
    /**
     * Shared JSON mapper (thread-safe once configured); trailing tokens after a JSON value are an error. Its parsers
     * take their buffers from one shared pool: Jackson's default pool is per thread, and every request runs on a new
     * virtual thread, so each event's parser would allocate fresh buffers (kilobytes per event).
     */
    ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .recyclerPool(com.fasterxml.jackson.core.util.JsonRecyclerPools.sharedConcurrentDequePool()).build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** @return the protocol this adapter speaks */
    Protocol protocol();

    /** @param request the request @return the path appended to the endpoint's base URL, e.g. {@code /v1/chat/completions} */
    String path(GenerationRequest request);

    /**
     * @param endpoint endpoint (model name)
     * @param request  what to ask for; {@code extraBody} fields override the adapter's own
     * @param options  client options (e.g. include usage)
     * @return the JSON request body
     */
    ObjectNode body(Endpoint endpoint, GenerationRequest request, ClientOptions options);

    /**
     * Adds the protocol's authentication and fixed headers.
     *
     * @param builder request builder
     * @param apiKey  the key value, or null when none is configured; never logged
     */
    default void headers(Request.Builder builder, String apiKey) {
        if (apiKey != null && !apiKey.isEmpty()) {
            builder.header("Authorization", "Bearer " + apiKey);
        }
    }

    /**
     * Reads a 2xx streaming response to its end. Framing, JSON and stream errors are reported to the
     * collector; I/O failures are thrown.
     *
     * @param response  the response (body wrapped for first-byte timing); the caller closes it
     * @param collector per-attempt collector
     * @throws IOException on a read failure (reset, timeout, cancel)
     */
    void readStream(Response response, ResponseCollector collector) throws IOException;

    /**
     * Reads a whole non-streaming JSON body.
     *
     * @param body      the parsed body
     * @param collector per-attempt collector (non-streaming mode)
     */
    void readBody(JsonNode body, ResponseCollector collector);

    /**
     * Puts the prompt into a request body: as one user message ({@code messages: [{role: user, content}]}) for
     * chat-style APIs, else as {@code prompt}.
     *
     * @param body    the body being built
     * @param request what to send
     * @param chat    chat-style API
     */
    static void putPrompt(ObjectNode body, GenerationRequest request, boolean chat) {
        if (chat) {
            ObjectNode msg = body.putArray("messages").addObject();
            msg.put("role", "user");
            msg.put("content", request.prompt());
        } else {
            body.put("prompt", request.prompt());
        }
    }

    /**
     * Fails the request as {@code stream_error} when a JSON object carries a non-null top-level {@code error}
     * member (an error object inside a 2xx stream or body).
     *
     * @param node  the event or body
     * @param c     the collector to fail
     * @param where {@code "stream"} or {@code "response body"}, for the message
     * @param now   {@link System#nanoTime()} of the event
     * @return true when the request was failed (the caller stops reading)
     */
    static boolean failOnErrorMember(JsonNode node, ResponseCollector c, String where, long now) {
        JsonNode error = node.get("error");
        if (error == null || error.isNull()) {
            return false;
        }
        c.fail(ErrorKind.STREAM_ERROR, "error in " + where + ": " + errorMessage(error), now);
        return true;
    }

    /** Merges {@code extra} into {@code body}, {@code extra} winning. */
    static ObjectNode merge(ObjectNode body, Map<String, Object> extra) {
        for (Map.Entry<String, Object> e : extra.entrySet()) {
            body.set(e.getKey(), JSON.valueToTree(e.getValue()));
        }
        return body;
    }

    /**
     * Parses one event's JSON payload.
     *
     * @param data the payload text
     * @return the object, or null when the text is not a JSON object (the caller reports {@code protocol})
     */
    static JsonNode parseObject(String data) {
        try {
            JsonNode node = JSON.readTree(data);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** @return the text of a string field, or null when absent, null or not a string */
    static String text(JsonNode node, String field) {
        if (node == null) {
            return null;
        }
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    /** @return an int field, or -1 when absent or not a number */
    static int intField(JsonNode node, String field) {
        if (node == null) {
            return -1;
        }
        JsonNode v = node.get(field);
        return v != null && v.isNumber() ? v.asInt() : -1;
    }

    /** @return the top-level {@code x_sent_ns} server stamp (simulator stamping mode), or UNSET */
    static long serverStamp(JsonNode node) {
        JsonNode v = node.get("x_sent_ns");
        return v != null && v.isIntegralNumber() ? v.asLong() : UNSET;
    }

    /** @return a short, single-line excerpt of {@code s} for error messages */
    static String excerpt(String s) {
        String one = s.replaceAll("\\s+", " ").strip();
        String page = HtmlPages.summary(one);
        if (page != null) {
            return page;
        }
        return one.length() <= 200 ? one : one.substring(0, 200) + "...";
    }

    /** @return the message of an {@code error} member (object with message, or string), or a JSON excerpt */
    static String errorMessage(JsonNode error) {
        if (error.isTextual()) {
            return error.asText();
        }
        String msg = text(error, "message");
        return msg != null ? msg : excerpt(error.toString());
    }
}
