package org.latencylab.engine.server;

import org.latencylab.engine.step.StepProgress;
import org.latencylab.engine.telemetry.TelemetryRecorder;

import java.util.Objects;

/**
 * What a running {@code server-bench} step reports about its variants, for live views: a variant is starting, under
 * load (with each telemetry tick: the server's running/waiting requests and KV-cache usage, the GPUs' memory), being
 * stopped, or done with its status ({@code ok}, {@code oom}, {@code start_failed}, {@code not_ready},
 * {@code crashed}, {@code cancelled}). Published through {@code StepContext.progress} on engine threads (the
 * telemetry sampler's, or the step's). Immutable and thread-safe.
 *
 * @param step    label of the server-bench step, e.g. {@code server-bench}
 * @param variant the variant's name with its grid values, e.g. {@code tgi-like batch_size=8}
 * @param index   1-based position among the expanded variants
 * @param count   expanded variants in all, &gt;= index
 * @param phase   what the variant is doing now
 * @param status  with {@link Phase#DONE}: how it went; null before, and when the step itself failed on this
 *                variant (an error of LatencyLab, not of the server; {@code message} says which)
 * @param message with {@link Phase#DONE} and a failure: why (first line of the variant's message); else null
 * @param tick    with {@link Phase#LOAD}: the latest telemetry tick (its times are seconds since the variant's
 *                telemetry started); else null
 * @throws NullPointerException     when step, variant or phase is null
 * @throws IllegalArgumentException when index is not in 1..count
 */
public record ServerBenchProgress(String step, String variant, int index, int count, Phase phase,
                                  VariantResult.Status status, String message,
                                  TelemetryRecorder.TelemetryTick tick) implements StepProgress {

    /** What a variant is doing. */
    public enum Phase {
        /** launching the server (or checking the attached one) and waiting for it to be ready */
        STARTING,
        /** under load; telemetry ticks arrive about once per scrape interval */
        LOAD,
        /** being stopped (SIGTERM, then SIGKILL after the grace period) */
        STOPPING,
        /** finished; {@code status} says how */
        DONE
    }

    public ServerBenchProgress {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(phase, "phase");
        if (index < 1 || index > count) {
            throw new IllegalArgumentException("index must be in 1.." + count + ", was " + index);
        }
    }
}
