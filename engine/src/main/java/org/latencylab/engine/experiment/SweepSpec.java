package org.latencylab.engine.experiment;

import org.latencylab.engine.api.InvalidFieldException;
import org.latencylab.engine.run.ExperimentSpec;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * A context sweep: for each context length, {@code requestsPerLength} requests at fixed concurrency, then a
 * power-law fit {@code TTFT = a · n^α} (optionally {@code + c}) of P50 and P95 TTFT against the context length.
 * Scenario type {@code "sweep"}. Immutable and thread-safe.
 *
 * @param contextTokens     prompt lengths in tokens, each in 1..{@link org.latencylab.engine.prompt.PromptBuilder#MAX_TOKENS},
 *                          at least one (default 2048, 8192, 32768)
 * @param requestsPerLength requests per length, >= 1 (default 20)
 * @param concurrency       requests in flight at once, >= 1 (default 1)
 * @param maxOutputTokens   tokens to generate per request, >= 1 (default 16; a sweep measures prefill)
 * @param cold              unique prefix per request so no prefix cache helps (default true)
 * @param fitOffset         fit {@code c + a·n^α} instead of {@code a·n^α} (default false)
 * @param extrapolateTo     context lengths to extrapolate the fit to, tokens (default none)
 * @param warmup            unrecorded requests sent first at the shortest length (default 1: connection setup and
 *                          the client's JIT warm-up are not measured), >= 0
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record SweepSpec(@JsonProperty("contextTokens") List<Integer> contextTokens,
                        @JsonProperty("requestsPerLength") Integer requestsPerLength,
                        @JsonProperty("concurrency") Integer concurrency,
                        @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                        @JsonProperty("cold") Boolean cold,
                        @JsonProperty("fitOffset") Boolean fitOffset,
                        @JsonProperty("extrapolateTo") List<Integer> extrapolateTo,
                        @JsonProperty("warmup") Integer warmup) implements ExperimentSpec {

    /** Scenario type name. */
    public static final String TYPE = "sweep";

    public SweepSpec {
        contextTokens = contextTokens == null ? List.of(2048, 8192, 32768) : List.copyOf(contextTokens);
        if (contextTokens.isEmpty()) {
            throw new InvalidFieldException("contextTokens", "contextTokens must list at least one length, e.g."
                    + " [2048, 8192, 32768]");
        }
        for (Integer n : contextTokens) {
            if (n == null || n < 1) {
                throw new InvalidFieldException("contextTokens", "contextTokens must be token counts >= 1, was " + n);
            }
            ProbeSpec.promptAtMost("contextTokens", "", n);
        }
        requestsPerLength = ProbeSpec.atLeast("requestsPerLength", requestsPerLength, 20, 1);
        concurrency = ProbeSpec.atLeast("concurrency", concurrency, 1, 1);
        maxOutputTokens = ProbeSpec.atLeast("maxOutputTokens", maxOutputTokens, 16, 1);
        cold = cold == null || cold;
        fitOffset = fitOffset != null && fitOffset;
        extrapolateTo = extrapolateTo == null ? List.of() : List.copyOf(extrapolateTo);
        for (Integer n : extrapolateTo) {
            if (n == null || n < 1) {
                throw new InvalidFieldException("extrapolateTo", "extrapolateTo must be token counts >= 1, was " + n);
            }
        }
        warmup = ProbeSpec.atLeast("warmup", warmup, 1, 0);
    }

    /**
     * @param lengths           context lengths in tokens
     * @param requestsPerLength requests per length
     * @param concurrency       concurrency
     * @return a cold sweep with the other defaults
     */
    public static SweepSpec of(List<Integer> lengths, int requestsPerLength, int concurrency) {
        return new SweepSpec(lengths, requestsPerLength, concurrency, null, null, null, null, null);
    }

    @Override
    public String type() {
        return TYPE;
    }

    /** @return false: a sweep's context lengths differ by design and are judged one by one */
    @Override
    public boolean tierPooled() {
        return false;
    }

    @Override
    public long plannedRequests() {
        return (long) contextTokens.size() * requestsPerLength;
    }
}
