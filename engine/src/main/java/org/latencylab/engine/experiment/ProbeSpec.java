package org.latencylab.engine.experiment;

import org.latencylab.engine.api.InvalidFieldException;
import org.latencylab.engine.run.ExperimentSpec;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A probe: {@code requests} requests at fixed concurrency (closed loop), each with a prompt of
 * {@code promptTokens} tokens, asking for {@code maxOutputTokens}. Scenario type {@code "probe"}.
 * Immutable and thread-safe.
 *
 * @param requests        number of requests, >= 1 (default 100)
 * @param concurrency     requests in flight at once, >= 1 (default 1)
 * @param promptTokens    prompt length in tokens (LatencyLab's tokenizer), in 1..{@link
 *                        org.latencylab.engine.prompt.PromptBuilder#MAX_TOKENS} (default 256)
 * @param maxOutputTokens tokens to generate, >= 1 (default 64)
 * @param stream          streaming (default true)
 * @param cold            unique prompt prefix per request so no prefix cache helps (default true)
 * @param warmup          requests sent first and not recorded (default 1: connection setup and the client's
 *                        JIT warm-up are not measured), >= 0
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record ProbeSpec(@JsonProperty("requests") Integer requests,
                        @JsonProperty("concurrency") Integer concurrency,
                        @JsonProperty("promptTokens") Integer promptTokens,
                        @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                        @JsonProperty("stream") Boolean stream,
                        @JsonProperty("cold") Boolean cold,
                        @JsonProperty("warmup") Integer warmup) implements ExperimentSpec {

    /** Scenario type name. */
    public static final String TYPE = "probe";

    public ProbeSpec {
        requests = atLeast("requests", requests, 100, 1);
        concurrency = atLeast("concurrency", concurrency, 1, 1);
        promptTokens = atLeast("promptTokens", promptTokens, 256, 1);
        promptAtMost("promptTokens", "", promptTokens);
        maxOutputTokens = atLeast("maxOutputTokens", maxOutputTokens, 64, 1);
        stream = stream == null || stream;
        cold = cold == null || cold;
        warmup = atLeast("warmup", warmup, 1, 0);
    }

    /** @return a probe with every default (100 requests at concurrency 1) */
    public static ProbeSpec defaults() {
        return new ProbeSpec(null, null, null, null, null, null, null);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public long plannedRequests() {
        return requests;
    }

    @Override
    public boolean streaming() {
        return stream;
    }

    /**
     * Refuses a prompt longer than the prompt builder makes, when the spec is made (so a plan is refused before its
     * run directory exists), in the words the scenario and the command line show.
     *
     * @throws InvalidFieldException when {@code tokens} is above {@link org.latencylab.engine.prompt.PromptBuilder#MAX_TOKENS}
     */
    static void promptAtMost(String field, String prefix, int tokens) {
        if (tokens > org.latencylab.engine.prompt.PromptBuilder.MAX_TOKENS) {
            throw new InvalidFieldException(field, prefix + field + " must be at most " + org.latencylab.engine.prompt.PromptBuilder.MAX_TOKENS
                    + " tokens (the longest prompt LatencyLab builds), was " + tokens);
        }
    }

    static Integer atLeast(String field, Integer value, int dflt, int min) {
        int v = value == null ? dflt : value;
        if (v < min) {
            throw new InvalidFieldException(field, field + " must be >= " + min + ", was " + v);
        }
        return v;
    }
}
