package org.latencylab.app.ui.settings;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.app.Defaults;

import java.util.List;

/**
 * The experiment form as last used, stored in {@code settings.json} so the next session starts where this one
 * ended. Values are not range-checked here (the form validates them); missing values get the engine's defaults.
 * Immutable and thread-safe.
 *
 * @param kind              {@code probe}, {@code sweep}, {@code load} or {@code grid}
 * @param requests          probe: number of requests
 * @param concurrency       requests in flight at once (probe and sweep)
 * @param promptTokens      probe: prompt length, tokens
 * @param maxOutputTokens   probe: tokens to generate
 * @param stream            probe: streaming on
 * @param sweepLengths      sweep: context lengths, tokens (checked boxes and custom lengths together)
 * @param requestsPerLength sweep: requests per length
 * @param cold              unique prompt prefix per request (probe and sweep)
 * @param tokenizer         jtokkit encoding name, e.g. {@code cl100k_base}
 * @param load              the load-test form's fields as text (field name → value), or empty
 * @param grid              the grid form's fields as text, or empty
 */
public record ExperimentDraft(@JsonProperty("kind") String kind, @JsonProperty("requests") Integer requests,
                              @JsonProperty("concurrency") Integer concurrency,
                              @JsonProperty("promptTokens") Integer promptTokens,
                              @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                              @JsonProperty("stream") Boolean stream,
                              @JsonProperty("sweepLengths") List<Integer> sweepLengths,
                              @JsonProperty("requestsPerLength") Integer requestsPerLength,
                              @JsonProperty("cold") Boolean cold, @JsonProperty("tokenizer") String tokenizer,
                              @JsonProperty("load") java.util.Map<String, String> load,
                              @JsonProperty("grid") java.util.Map<String, String> grid) {

    /** Defaults: a probe of 100 requests at concurrency 1, 256-token prompts, 64 output tokens, streaming, cold. */
    public static final ExperimentDraft DEFAULTS = new ExperimentDraft("probe", Defaults.PROBE_REQUESTS,
            Defaults.PROBE_CONCURRENCY, Defaults.PROBE_PROMPT_TOKENS, Defaults.PROBE_MAX_OUTPUT_TOKENS, true,
            List.of(2048, 8192, 32768), Defaults.SWEEP_REQUESTS_PER_LENGTH, true, "cl100k_base", null, null);

    /** Fills missing values from {@link #DEFAULTS}' literal values. */
    public ExperimentDraft {
        kind = List.of("sweep", "load", "grid").contains(kind) ? kind : "probe";
        requests = requests == null ? Defaults.PROBE_REQUESTS : requests;
        concurrency = concurrency == null ? Defaults.PROBE_CONCURRENCY : concurrency;
        promptTokens = promptTokens == null ? Defaults.PROBE_PROMPT_TOKENS : promptTokens;
        maxOutputTokens = maxOutputTokens == null ? Defaults.PROBE_MAX_OUTPUT_TOKENS : maxOutputTokens;
        stream = stream == null || stream;
        sweepLengths = sweepLengths == null ? List.of(2048, 8192, 32768) : List.copyOf(sweepLengths);
        requestsPerLength = requestsPerLength == null ? Defaults.SWEEP_REQUESTS_PER_LENGTH : requestsPerLength;
        cold = cold == null || cold;
        tokenizer = tokenizer == null || tokenizer.isBlank() ? "cl100k_base" : tokenizer;
        load = load == null ? java.util.Map.of() : java.util.Map.copyOf(load);
        grid = grid == null ? java.util.Map.of() : java.util.Map.copyOf(grid);
    }

    /**
     * A draft of a probe or sweep form (the load and grid forms empty).
     *
     * @param kind              {@code probe} or {@code sweep}
     * @param requests          probe: number of requests
     * @param concurrency       requests in flight at once
     * @param promptTokens      probe: prompt length, tokens
     * @param maxOutputTokens   probe: tokens to generate
     * @param stream            probe: streaming on
     * @param sweepLengths      sweep: context lengths, tokens
     * @param requestsPerLength sweep: requests per length
     * @param cold              unique prompt prefix per request
     * @param tokenizer         jtokkit encoding name
     */
    public ExperimentDraft(String kind, Integer requests, Integer concurrency, Integer promptTokens,
                           Integer maxOutputTokens, Boolean stream, List<Integer> sweepLengths,
                           Integer requestsPerLength, Boolean cold, String tokenizer) {
        this(kind, requests, concurrency, promptTokens, maxOutputTokens, stream, sweepLengths, requestsPerLength,
                cold, tokenizer, null, null);
    }
}
