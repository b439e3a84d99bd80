package org.latencylab.engine.run;

import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.HttpPath;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.stats.LatencyCdf;
import org.latencylab.engine.stats.SecondSeries;
import org.latencylab.engine.stats.StatsReport;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The engine's result model of a run: what the console, the PNG charts, {@code run.json}, {@code summary.csv}, the
 * desktop app's live view, its history and its comparisons all show. The same record describes a run in progress
 * (status {@link Status#RUNNING}, live statistics of the step that runs), a finished one, a reopened one and one
 * rebuilt from its {@code requests.jsonl} after the process died ({@link Status#INTERRUPTED}). Statistics are judged
 * with {@code spec.stats()}, the settings the run ran with. Immutable and thread-safe.
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
 *                            clock; null when unknown (a run read from an older run directory)
 * @param trust               whether the client kept up during the run (hiccups, dispatch lag, CPU); null when no
 *                            check was made
 * @param httpPath            which code measured the requests to the run's endpoint (own HTTP/1.1 exchange, OkHttp,
 *                            gRPC); null when unknown (an older run, an imported one, or the run failed before its
 *                            client was made). Steps with endpoints of their own may use other paths.
 */
public record RunResult(String name, Status status, String failure, Path runDirectory, Instant startedAt,
                        Duration duration, String endpointDescription, RunSpec spec, List<StepOutcome> steps,
                        StatsReport overall, List<String> notices, ClockOrigin clockOrigin,
                        TrustCheck trust, HttpPath httpPath) {
    public RunResult {
        steps = List.copyOf(steps);
        notices = List.copyOf(notices);
    }

    /**
     * A run whose HTTP path is unknown ({@code httpPath} null); parameters as in the canonical constructor.
     */
    public RunResult(String name, Status status, String failure, Path runDirectory, Instant startedAt,
                     Duration duration, String endpointDescription, RunSpec spec, List<StepOutcome> steps,
                     StatsReport overall, List<String> notices, ClockOrigin clockOrigin, TrustCheck trust) {
        this(name, status, failure, runDirectory, startedAt, duration, endpointDescription, spec, steps, overall,
                notices, clockOrigin, trust, null);
    }

    /** How a run ended. */
    public enum Status {
        /** Every step ran to the end. */
        COMPLETED,
        /** The user cancelled; finished requests are kept. */
        CANCELLED,
        /** The run could not go on (e.g. the simulator did not start); see {@link RunResult#failure()}. */
        FAILED,
        /** Still running: a live view. */
        RUNNING,
        /**
         * The process ended without finishing the run (killed, crashed); the result was rebuilt from
         * {@code requests.jsonl} and requests in flight at the end are lost.
         */
        INTERRUPTED;

        /** @return lower-case name used in files */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param id a name written by {@link Status#id()}
     * @return the status
     * @throws IllegalArgumentException when unknown
     */
    public static Status status(String id) {
        for (Status s : Status.values()) {
            if (s.id().equals(id)) {
                return s;
            }
        }
        throw new IllegalArgumentException("status must be one of completed, cancelled, failed, running,"
                + " interrupted; was '" + id + "'");
    }

    /** @return true when every SLO of every step passed (true when there are none) */
    public boolean slosPassed() {
        return steps.stream().allMatch(s -> s.stats() == null || s.stats().allSlosPassed());
    }

    /**
     * One step's outcome.
     *
     * @param label     step label, e.g. {@code "probe"} or {@code "sweep"}
     * @param type      spec type
     * @param spec      the step's spec
     * @param result    the step runner's result (a sweep's per-length points and fit, a load step's totals and
     *                  seconds), or null while the step runs or when it was lost with the process
     * @param stats     statistics over the step's measured requests (warmup and cooldown left out); exact once
     *                  the step ended, from histograms while it runs ({@code live})
     * @param parts     statistics per request label when the step used several (a sweep's context lengths
     *                  {@code sweep-2048}, ...; a grid's cells), in the order first seen; empty otherwise. Parts are
     *                  not judged against SLOs
     * @param perSecond the step's tier metric per second of the run
     * @param cdfs      distributions of TTFT and E2E ({@code "ttft"}, {@code "e2e"}) of the step's successful
     *                  measured requests, for CDF charts
     * @param live      true while the step runs (statistics from histograms, no result yet)
     * @param trust     the trust check of this step alone (hiccups, dispatch lag and CPU while it ran), or null when
     *                  not judged (a live step, a run read back from before steps were judged)
     * @param notices   the notices raised while this step ran (also in the run's {@link RunResult#notices()}), in
     *                  order; empty when none, or for a run read back from before they were kept per step; null is
     *                  read as empty
     */
    public record StepOutcome(String label, String type, ExperimentSpec spec, StepResult result, StatsReport stats,
                              java.util.Map<String, StatsReport> parts, SecondSeries perSecond,
                              java.util.Map<String, LatencyCdf> cdfs, boolean live, TrustCheck trust,
                              List<String> notices) {
        public StepOutcome {
            parts = parts == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(parts));
            cdfs = cdfs == null ? java.util.Map.of() : java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(cdfs));
            notices = notices == null ? List.of() : List.copyOf(notices);
        }

        /**
         * A step without notices of its own.
         *
         * @param label     step label
         * @param type      step type
         * @param spec      the step's spec
         * @param result    the runner's result, or null
         * @param stats     statistics over the step's measured requests
         * @param parts     statistics per request label
         * @param perSecond the step's tier metric per second
         * @param cdfs      TTFT and E2E distributions
         * @param live      true while the step runs
         * @param trust     the step's own trust check, or null
         */
        public StepOutcome(String label, String type, ExperimentSpec spec, StepResult result, StatsReport stats,
                           java.util.Map<String, StatsReport> parts, SecondSeries perSecond,
                           java.util.Map<String, LatencyCdf> cdfs, boolean live, TrustCheck trust) {
            this(label, type, spec, result, stats, parts, perSecond, cdfs, live, trust, List.of());
        }

        /**
         * A step without its own trust check.
         *
         * @param label     step label
         * @param type      step type
         * @param spec      the step's spec
         * @param result    the runner's result, or null
         * @param stats     statistics over the step's measured requests
         * @param parts     statistics per request label
         * @param perSecond the step's tier metric per second
         * @param cdfs      TTFT and E2E distributions
         * @param live      true while the step runs
         */
        public StepOutcome(String label, String type, ExperimentSpec spec, StepResult result, StatsReport stats,
                           java.util.Map<String, StatsReport> parts, SecondSeries perSecond,
                           java.util.Map<String, LatencyCdf> cdfs, boolean live) {
            this(label, type, spec, result, stats, parts, perSecond, cdfs, live, null);
        }

        /**
         * @param check this step's own trust check
         * @return a copy of this outcome that carries it
         */
        public StepOutcome withTrust(TrustCheck check) {
            return new StepOutcome(label, type, spec, result, stats, parts, perSecond, cdfs, live, check, notices);
        }

        /**
         * @param raised the notices raised while this step ran, in order (null: none)
         * @return a copy of this outcome that carries them instead of its own
         */
        public StepOutcome withNotices(List<String> raised) {
            return new StepOutcome(label, type, spec, result, stats, parts, perSecond, cdfs, live, trust, raised);
        }

        /**
         * @param run the run's trust check, or null
         * @return whether this step's latencies are to be read as the client's rather than the server's: by the
         *         step's own check when it has one, else by the run's
         */
        public boolean clientSaturated(TrustCheck run) {
            TrustCheck t = trust != null ? trust : run;
            return t != null && t.saturated();
        }

        /**
         * A sweep is judged per context length, never on all lengths pooled.
         *
         * @return the tier to show for the whole step, or null when the step has none (a sweep, or no samples)
         */
        public org.latencylab.engine.stats.Tier stepTier() {
            return stats == null || spec != null && !spec.tierPooled() ? null : stats.tier();
        }
    }
}
