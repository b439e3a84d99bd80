package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the simulator needs from a parsed request body, whatever the protocol. Immutable.
 *
 * @param promptText   the text whose tokens are the prompt (chat: all message contents concatenated)
 * @param promptIds    token ids when the prompt was given as ids (OpenAI completions), else null
 * @param maxTokens    output tokens to generate, in [1, {@link #MAX_OUTPUT_TOKENS}]
 * @param stream       whether to stream
 * @param includeUsage OpenAI {@code stream_options.include_usage}: send a usage chunk at the end
 * @param details      TGI {@code parameters.details}: include details in a non-streamed answer
 */
record SimRequest(String promptText, int[] promptIds, int maxTokens, boolean stream, boolean includeUsage,
                  boolean details) {

    /** Output tokens when a request does not say (OpenAI completions' documented default). */
    static final int DEFAULT_MAX_TOKENS = 16;
    /** Largest accepted output length, a guard against requests that would run for hours. */
    static final int MAX_OUTPUT_TOKENS = 1_000_000;

    // ---------------------------------------------------------------- field helpers for dialects

    /**
     * @param body   the request object
     * @param field  field name (dotted for messages)
     * @param node   the value or null/missing
     * @param def    value when absent or null
     * @return an output-token count
     * @throws BadRequestException when not an integer in range
     */
    static int tokens(String field, JsonNode node, int def) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return def;
        }
        if (!node.isIntegralNumber() || node.asLong() < 1 || node.asLong() > MAX_OUTPUT_TOKENS) {
            throw new BadRequestException(field, "'" + field + "' must be an integer in [1, " + MAX_OUTPUT_TOKENS
                    + "], was " + node);
        }
        return node.asInt();
    }

    /**
     * @param field field name
     * @param node  value or null/missing
     * @param def   value when absent or null
     * @return the boolean
     * @throws BadRequestException when not a boolean
     */
    static boolean bool(String field, JsonNode node, boolean def) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return def;
        }
        if (!node.isBoolean()) {
            throw new BadRequestException(field, "'" + field + "' must be true or false, was " + node);
        }
        return node.booleanValue();
    }

    /**
     * Text of a message content: a string, or an array of parts whose {@code text} fields are joined
     * (non-text parts such as images add nothing).
     *
     * @param field field name for messages
     * @param node  the content value
     * @return the text, never null
     * @throws BadRequestException for any other shape
     */
    static String content(String field, JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return "";
        }
        if (node.isTextual()) {
            return node.asText();
        }
        if (node.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : node) {
                if (!part.isObject()) {
                    throw new BadRequestException(field, "'" + field + "' parts must be objects, was " + part);
                }
                JsonNode text = part.get("text");
                if (text != null && text.isTextual()) {
                    sb.append(text.asText());
                } else if (text != null && !text.isNull()) {
                    throw new BadRequestException(field, "'" + field + "[].text' must be a string, was " + text);
                }
            }
            return sb.toString();
        }
        throw new BadRequestException(field, "'" + field + "' must be a string or an array of parts, was "
                + node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * Concatenated contents of a {@code messages} array.
     *
     * @param node      the {@code messages} value
     * @param allowEmpty whether an empty array is allowed
     * @return the text
     * @throws BadRequestException when missing, not an array or a message is malformed
     */
    static String messages(JsonNode node, boolean allowEmpty) {
        if (node == null || !node.isArray() || node.isEmpty() && !allowEmpty) {
            throw new BadRequestException("messages", "'messages' must be a non-empty array of {role, content}, was "
                    + (node == null ? "missing" : node.toString()));
        }
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (JsonNode m : node) {
            if (!m.isObject()) {
                throw new BadRequestException("messages", "'messages[" + i + "]' must be an object, was " + m);
            }
            JsonNode role = m.get("role");
            if (role == null || !role.isTextual()) {
                throw new BadRequestException("messages", "'messages[" + i + "].role' must be a string");
            }
            sb.append(content("messages[" + i + "].content", m.get("content")));
            i++;
        }
        return sb.toString();
    }

    /**
     * @param body a parsed body
     * @throws BadRequestException when it is not a JSON object
     */
    static void requireObject(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new BadRequestException(null, "the request body must be a JSON object");
        }
    }
}
