package org.latencylab.app.ui.settings;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * The experiment form as last used, stored in {@code settings.json} so the next session starts where this one
 * ended. Values are not range-checked here (the form validates them); missing values get the engine's defaults.
 * Immutable and thread-safe.
 *
 * @param kind              {@code probe} or {@code sweep}
 * @param requests          probe: number of requests
 * @param concurrency       requests in flight at once (probe and sweep)
 * @param promptTokens      probe: prompt length, tokens
 * @param maxOutputTokens   probe: tokens to generate
 * @param stream            probe: streaming on
 * @param sweepLengths      sweep: context lengths, tokens (checked boxes and custom lengths together)
 * @param requestsPerLength sweep: requests per length
 * @param cold              unique prompt prefix per request (probe and sweep)
 * @param tokenizer         jtokkit encoding name, e.g. {@code cl100k_base}
 */
public record ExperimentDraft(@JsonProperty("kind") String kind, @JsonProperty("requests") Integer requests,
                              @JsonProperty("concurrency") Integer concurrency,
                              @JsonProperty("promptTokens") Integer promptTokens,
                              @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                              @JsonProperty("stream") Boolean stream,
                              @JsonProperty("sweepLengths") List<Integer> sweepLengths,
                              @JsonProperty("requestsPerLength") Integer requestsPerLength,
                              @JsonProperty("cold") Boolean cold, @JsonProperty("tokenizer") String tokenizer) {

    /** Defaults: a probe of 100 requests at concurrency 1, 256-token prompts, 64 output tokens, streaming, cold. */
    public static final ExperimentDraft DEFAULTS = new ExperimentDraft("probe", 100, 1, 256, 64, true,
            List.of(2048, 8192, 32768), 20, true, "cl100k_base");

    /** Fills missing values from {@link #DEFAULTS}' literal values. */
    public ExperimentDraft {
        kind = "sweep".equals(kind) ? "sweep" : "probe";
        requests = requests == null ? 100 : requests;
        concurrency = concurrency == null ? 1 : concurrency;
        promptTokens = promptTokens == null ? 256 : promptTokens;
        maxOutputTokens = maxOutputTokens == null ? 64 : maxOutputTokens;
        stream = stream == null || stream;
        sweepLengths = sweepLengths == null ? List.of(2048, 8192, 32768) : List.copyOf(sweepLengths);
        requestsPerLength = requestsPerLength == null ? 20 : requestsPerLength;
        cold = cold == null || cold;
        tokenizer = tokenizer == null || tokenizer.isBlank() ? "cl100k_base" : tokenizer;
    }
}
