package org.latencylab.engine.sim;

import org.latencylab.engine.tokens.TokenCounter;

/**
 * The state of one request while the simulator answers it: ids, counts, generated text and timestamps.
 * Confined to the thread serving the request (not thread-safe).
 */
final class Turn {
    final SimRequest request;
    /** Response id, e.g. {@code chatcmpl-sim-7}. */
    final String id;
    /** Model name reported. */
    final String model;
    /** Unix time of the request [s]. */
    final long createdSeconds;
    /** Prompt tokens (cl100k) of the request. */
    final int promptTokens;
    /** Prompt tokens served by the prefix cache (set at admission). */
    int cachedTokens;
    /** Leading output tokens that are reasoning, in [0, maxTokens]. */
    final int reasoningTokens;
    final StringBuilder reasoning = new StringBuilder();
    final StringBuilder answer = new StringBuilder();
    /** Token events written so far. */
    int emitted;
    /** {@link System#nanoTime()} readings [ns]: body read, admitted, first token written, last token written. */
    long arriveNanos;
    long admittedNanos;
    long firstTokenNanos;
    long lastTokenNanos;

    Turn(SimRequest request, String id, String model, long createdSeconds, int promptTokens, int reasoningTokens) {
        this.request = request;
        this.id = id;
        this.model = model;
        this.createdSeconds = createdSeconds;
        this.promptTokens = promptTokens;
        this.reasoningTokens = Math.min(reasoningTokens, request.maxTokens());
    }

    /** @return output tokens by cl100k: reasoning and answer text counted separately, then added */
    int completionTokens() {
        TokenCounter tc = TokenCounter.cl100k();
        return tc.count(reasoning.toString()) + tc.count(answer.toString());
    }

    /** @return reasoning tokens by cl100k */
    int reasoningCount() {
        return TokenCounter.cl100k().count(reasoning.toString());
    }
}
