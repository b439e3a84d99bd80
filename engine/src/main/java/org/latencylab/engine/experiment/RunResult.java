package org.latencylab.engine.experiment;

import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.stats.StatsReport;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a finished run produced. Immutable and thread-safe.
 *
 * @param name                run name
 * @param status              completed, cancelled or failed
 * @param failure             why the run failed (null unless FAILED)
 * @param runDirectory        where its files are
 * @param startedAt           wall-clock start
 * @param duration            wall time of the run
 * @param endpointDescription what was measured, e.g. {@code simulator llama-8b-class at http://127.0.0.1:41234}
 * @param spec                the spec that was run
 * @param steps               one outcome per step that ran, in order
 * @param overall             statistics over every request of the run
 * @param notices             notices raised during the run
 * @param clockOrigin         the instant {@code requests.jsonl} times are relative to, on the monotonic and the wall
 *                            clock; never null
 * @param trust               whether the client kept up during the run (hiccups, dispatch lag, CPU); null only when
 *                            the run failed before it could be judged
 */
public record RunResult(String name, Status status, String failure, Path runDirectory, Instant startedAt,
                        Duration duration, String endpointDescription, RunSpec spec, List<StepOutcome> steps,
                        StatsReport overall, List<String> notices, ClockOrigin clockOrigin, TrustCheck trust) {

    /** How a run ended. */
    public enum Status {
        /** Every step ran to the end. */
        COMPLETED,
        /** The user cancelled; finished requests are kept. */
        CANCELLED,
        /** The run could not go on (e.g. the simulator did not start); see {@link RunResult#failure()}. */
        FAILED;

        /** @return lower-case name used in files */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** @return true when every SLO of every step passed (true when there are none) */
    public boolean slosPassed() {
        return steps.stream().allMatch(s -> s.stats() == null || s.stats().allSlosPassed());
    }

    /**
     * One step's outcome.
     *
     * @param label  step label, e.g. {@code "probe"} or {@code "sweep"}
     * @param type   spec type
     * @param spec   the step's spec
     * @param result the step runner's result
     * @param stats  statistics over the step's requests (warmup and cooldown left out)
     * @param parts  statistics per request label when the step used several (a sweep's context lengths
     *               {@code sweep-2048}, ...; a grid's cells), in the order first seen; empty otherwise
     */
    public record StepOutcome(String label, String type, ExperimentSpec spec, StepResult result, StatsReport stats,
                              java.util.Map<String, StatsReport> parts) {
        public StepOutcome {
            parts = parts == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(parts));
        }
    }
}
