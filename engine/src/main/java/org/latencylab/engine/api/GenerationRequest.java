package org.latencylab.engine.api;

import java.util.Map;

/**
 * What one request asks the model for. Immutable and thread-safe.
 *
 * @param prompt          the user prompt text; not null
 * @param promptTokens    tokens in {@code prompt} as counted by LatencyLab's tokenizer, or -1 when unknown
 * @param maxOutputTokens upper bound on generated tokens ({@code max_tokens}); >= 1
 * @param stream          true for a streaming request (SSE/NDJSON), false for one response body
 * @param extraBody       extra top-level JSON fields merged into the request body (copied; never null), e.g.
 *                        {@code temperature}; a field the adapter sets itself is overridden by this map
 * @throws IllegalArgumentException when {@code maxOutputTokens < 1} or the prompt is null
 */
public record GenerationRequest(String prompt, int promptTokens, int maxOutputTokens, boolean stream,
                                Map<String, Object> extraBody) {

    public GenerationRequest {
        if (prompt == null) {
            throw new IllegalArgumentException("prompt must not be null");
        }
        if (maxOutputTokens < 1) {
            throw new IllegalArgumentException("maxOutputTokens must be >= 1, was " + maxOutputTokens);
        }
        if (promptTokens < -1) {
            throw new IllegalArgumentException("promptTokens must be >= 0 or -1 (unknown), was " + promptTokens);
        }
        extraBody = extraBody == null ? Map.of() : Map.copyOf(extraBody);
    }

    /**
     * @param prompt          prompt text
     * @param maxOutputTokens max tokens to generate, >= 1
     * @return a streaming request with unknown prompt token count and no extra fields
     */
    public static GenerationRequest streaming(String prompt, int maxOutputTokens) {
        return new GenerationRequest(prompt, -1, maxOutputTokens, true, Map.of());
    }
}
