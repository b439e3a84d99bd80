package org.latencylab.engine.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.api.Protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One stream conformance case (format 1): a scripted server response and the values a correct latency client
 * measures from it. The format is described in the project's {@code cases/README.md}.
 *
 * <p>Immutable and thread-safe (the part byte arrays are copied in and out).
 *
 * @param source     where the case was read from (a file name or a label), for messages
 * @param name       case name (the file name without {@code .json})
 * @param about      what makes the case tricky
 * @param protocolId protocol id as written in the file, e.g. {@code openai-chat}; may name a protocol this
 *                   version does not know (see {@link #protocol()})
 * @param maxRetries {@code client.max_retries}, 0 when absent
 * @param responses  one scripted response per attempt, served in order (the last one repeats); not empty
 * @param expect     expectation key → value ({@link Number}, {@link String} or {@link Boolean}), in file order
 */
public record ConformanceCase(String source, String name, String about, String protocolId, int maxRetries,
                              List<ScriptedResponse> responses, Map<String, Object> expect) {

    /** The only case format this version reads. */
    public static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    public ConformanceCase {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(source + ": name must not be blank");
        }
        if (responses == null || responses.isEmpty()) {
            throw new IllegalArgumentException(source + ": responses must hold at least one response");
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException(source + ": client.max_retries must be >= 0, was " + maxRetries);
        }
        responses = List.copyOf(responses);
        expect = Collections.unmodifiableMap(new LinkedHashMap<>(expect == null ? Map.of() : expect));
    }

    /** @return the protocol, or empty when {@link #protocolId()} names one this version does not know */
    public Optional<Protocol> protocol() {
        try {
            return Optional.of(Protocol.fromId(protocolId));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * One scripted HTTP response.
     *
     * @param status             HTTP status, 100..599
     * @param headers            response headers (name → value), in file order
     * @param compressIfAccepted {@code "gzip"} to gzip the body when the request accepts gzip, else null
     * @param parts              body parts, written and flushed in order
     */
    public record ScriptedResponse(int status, Map<String, String> headers, String compressIfAccepted,
                                   List<Part> parts) {
        public ScriptedResponse {
            if (status < 100 || status > 599) {
                throw new IllegalArgumentException("status must be 100..599, was " + status);
            }
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers == null ? Map.of() : headers));
            parts = List.copyOf(parts == null ? List.of() : parts);
        }
    }

    /**
     * One body part.
     *
     * @param atMs  when to write it, milliseconds after the server read the request; >= 0
     * @param bytes the bytes to write (copied)
     */
    public record Part(long atMs, byte[] bytes) {
        public Part {
            if (atMs < 0) {
                throw new IllegalArgumentException("at_ms must be >= 0, was " + atMs);
            }
            bytes = bytes.clone();
        }

        /** @return a copy of the bytes */
        @Override
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    /**
     * Reads a case file.
     *
     * @param file a {@code .json} case file
     * @return the case
     * @throws IOException              when the file cannot be read
     * @throws IllegalArgumentException when it is not a valid format-1 case; the message names the file and
     *                                  the field
     */
    public static ConformanceCase load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.getFileName().toString());
    }

    /**
     * Parses a case from JSON text.
     *
     * @param json   the case JSON
     * @param source a name for messages (usually the file name)
     * @return the case
     * @throws IllegalArgumentException when it is not a valid format-1 case; the message names the source
     *                                  and the field
     */
    public static ConformanceCase parse(String json, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + ": not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(source + ": the top level must be a JSON object");
        }
        int format = requiredInt(root, "format", source);
        if (format != FORMAT) {
            throw new IllegalArgumentException(source + ": format must be " + FORMAT + ", was " + format);
        }
        String name = requiredText(root, "name", source);
        String about = root.path("about").asText("");
        String protocol = requiredText(root, "protocol", source);
        int retries = 0;
        JsonNode client = root.get("client");
        if (client != null && !client.isNull()) {
            if (!client.isObject()) {
                throw new IllegalArgumentException(source + ": client must be an object");
            }
            if (client.has("max_retries")) {
                retries = requiredInt(client, "max_retries", source + ": client");
            }
        }
        JsonNode rs = root.get("responses");
        if (rs == null || !rs.isArray() || rs.isEmpty()) {
            throw new IllegalArgumentException(source + ": responses must be a non-empty array");
        }
        List<ScriptedResponse> responses = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) {
            responses.add(response(rs.get(i), source + ": responses[" + i + "]"));
        }
        Map<String, Object> expect = new LinkedHashMap<>();
        JsonNode ex = root.get("expect");
        if (ex == null || !ex.isObject()) {
            throw new IllegalArgumentException(source + ": expect must be an object");
        }
        for (Map.Entry<String, JsonNode> e : ex.properties()) {
            JsonNode v = e.getValue();
            Object value;
            if (v.isNumber()) {
                value = v.isIntegralNumber() ? (Object) v.asLong() : (Object) v.asDouble();
            } else if (v.isTextual()) {
                value = v.asText();
            } else if (v.isBoolean()) {
                value = v.asBoolean();
            } else {
                throw new IllegalArgumentException(source + ": expect." + e.getKey()
                        + " must be a number, string or boolean, was " + v.getNodeType());
            }
            expect.put(e.getKey(), value);
        }
        try {
            return new ConformanceCase(source, name, about, protocol, retries, responses, expect);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static ScriptedResponse response(JsonNode r, String where) {
        if (r == null || !r.isObject()) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        int status = requiredInt(r, "status", where);
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode h = r.get("headers");
        if (h != null && !h.isNull()) {
            if (!h.isObject()) {
                throw new IllegalArgumentException(where + ".headers must be an object of strings");
            }
            for (Map.Entry<String, JsonNode> e : h.properties()) {
                if (!e.getValue().isTextual()) {
                    throw new IllegalArgumentException(where + ".headers." + e.getKey() + " must be a string");
                }
                headers.put(e.getKey(), e.getValue().asText());
            }
        }
        String compress = null;
        JsonNode c = r.get("compress_if_accepted");
        if (c != null && !c.isNull()) {
            if (!c.isTextual() || !c.asText().equals("gzip")) {
                throw new IllegalArgumentException(where + ".compress_if_accepted must be \"gzip\", was " + c);
            }
            compress = "gzip";
        }
        List<Part> parts = new ArrayList<>();
        JsonNode ps = r.get("parts");
        if (ps == null || !ps.isArray()) {
            throw new IllegalArgumentException(where + ".parts must be an array");
        }
        for (int i = 0; i < ps.size(); i++) {
            parts.add(part(ps.get(i), where + ".parts[" + i + "]"));
        }
        try {
            return new ScriptedResponse(status, headers, compress, parts);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static Part part(JsonNode p, String where) {
        if (p == null || !p.isObject()) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        JsonNode at = p.get("at_ms");
        if (at == null || !at.isNumber() || at.asDouble() < 0) {
            throw new IllegalArgumentException(where + ".at_ms must be a number >= 0");
        }
        JsonNode text = p.get("text");
        JsonNode hex = p.get("hex");
        if ((text == null) == (hex == null)) {
            throw new IllegalArgumentException(where + " must have exactly one of text or hex");
        }
        byte[] bytes;
        if (text != null) {
            if (!text.isTextual()) {
                throw new IllegalArgumentException(where + ".text must be a string");
            }
            bytes = text.asText().getBytes(StandardCharsets.UTF_8);
        } else {
            try {
                bytes = HexFormat.of().parseHex(hex.asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ".hex is not an even-length hex string: "
                        + e.getMessage(), e);
            }
        }
        return new Part(Math.round(at.asDouble()), bytes);
    }

    private static int requiredInt(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new IllegalArgumentException(where + ": " + field + " must be an integer");
        }
        return v.asInt();
    }

    private static String requiredText(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new IllegalArgumentException(where + ": " + field + " must be a non-empty string");
        }
        return v.asText();
    }
}
