package org.latencylab.engine.trace;

import java.util.List;
import java.util.Locale;

/**
 * The public LLM request-trace formats a replay reads. Each names the columns or keys it needs; a file whose header
 * lacks them is refused with the format it looks like instead. Immutable; thread-safe.
 *
 * <ul>
 *   <li>{@link #MOONCAKE}: JSON Lines as published with Mooncake (FAST 2025, "Mooncake: A KVCache-centric
 *       Disaggregated Architecture for LLM Serving", github.com/kvcache-ai/Mooncake, {@code mooncake_trace.jsonl}):
 *       one object per line with {@code timestamp} (ms from the trace's start), {@code input_length},
 *       {@code output_length} (tokens) and optional {@code hash_ids} (one id per 512-token block of the prompt; equal
 *       ids mean an equal block).</li>
 *   <li>{@link #BURSTGPT}: CSV as published with BurstGPT (github.com/HPMLL/BurstGPT): header
 *       {@code Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type}; {@code Timestamp} in seconds
 *       from the trace's start, {@code Log Type} {@code Conversation log} or {@code API log}.</li>
 *   <li>{@link #AZURE}: CSV of the Azure LLM inference traces (github.com/Azure/AzurePublicDataset,
 *       {@code AzureLLMInferenceTrace_*.csv}): header {@code TIMESTAMP,ContextTokens,GeneratedTokens}, the timestamp a
 *       wall-clock date-time such as {@code 2023-11-16 18:15:46.6805900}.</li>
 * </ul>
 */
public enum TraceFormat {
    /** Mooncake JSON Lines. */
    MOONCAKE(List.of("timestamp", "input_length", "output_length")),
    /** BurstGPT CSV. */
    BURSTGPT(List.of("Timestamp", "Request tokens", "Response tokens")),
    /** Azure LLM inference trace CSV. */
    AZURE(List.of("TIMESTAMP", "ContextTokens", "GeneratedTokens"));

    private final List<String> requiredFields;

    TraceFormat(List<String> requiredFields) {
        this.requiredFields = requiredFields;
    }

    /** @return the keys (JSON) or header columns (CSV) every record of this format must have, as the format spells them */
    public List<String> requiredFields() {
        return requiredFields;
    }

    /** @return the name as the command line and scenarios write it, e.g. {@code mooncake} */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text a format name as a user wrote it, case-insensitive
     * @return the format
     * @throws IllegalArgumentException when it is none of {@code mooncake}, {@code burstgpt}, {@code azure}; the
     *                                  message lists them
     */
    public static TraceFormat parse(String text) {
        for (TraceFormat f : values()) {
            if (f.id().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown trace format '" + text + "': use mooncake, burstgpt or azure");
    }

    /**
     * Guesses a file's format from its name: {@code .jsonl}/{@code .json} is Mooncake, a CSV whose name holds
     * {@code burst} is BurstGPT, any other CSV Azure.
     *
     * @param fileName the file's name
     * @return the format, or null when the name does not tell
     */
    public static TraceFormat guess(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".jsonl") || n.endsWith(".json")) {
            return MOONCAKE;
        }
        if (n.endsWith(".csv")) {
            return n.contains("burst") ? BURSTGPT : AZURE;
        }
        return null;
    }
}
