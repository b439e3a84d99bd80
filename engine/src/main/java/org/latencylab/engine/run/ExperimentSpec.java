package org.latencylab.engine.run;

/**
 * One step of a run: what to measure and how much. Implementations are immutable records that Jackson reads
 * from a scenario file (the {@code type} field selects the implementation). Thread-safe.
 */
public interface ExperimentSpec {
    /** @return the scenario {@code type} name, e.g. {@code "probe"} */
    String type();

    /** @return requests this step plans to send, or -1 when it is bounded by time */
    long plannedRequests();

    /**
     * @return true for a step that continues an earlier run in the same directory (a monitor resumes into its run
     *         directory after a restart), so a run of only such steps may start where a run already is
     */
    default boolean resumesInPlace() {
        return false;
    }

    /**
     * @return the metric whose P95 decides this step's tier when the step sets its own (e.g. a load step judged
     *         on {@code ttft_from_intended}), or null to use the run's
     */
    default String tierMetric() {
        return null;
    }

    /**
     * @return true when one tier judges the step's requests pooled (probe, load); false when its requests differ by
     *         design and are judged per part (a sweep's context lengths), so no pooled tier is shown
     */
    default boolean tierPooled() {
        return true;
    }

    /** @return whether this step's requests stream (non-streaming requests have no TTFT, ITL or TPOT) */
    default boolean streaming() {
        return true;
    }

    /**
     * @return names of the endpoints this step measures instead of the run's {@code endpoint} (a ranking's or a
     *         monitor's endpoints, a baseline's pair, a server bench's variants), in order; empty when the step
     *         measures the run's endpoint (the default). The run names only endpoints its steps used.
     */
    default java.util.List<String> ownEndpoints() {
        return java.util.List.of();
    }

    /**
     * @return whether the step reaches the built-in simulator's other listeners (HTTP/2, gRPC) through the in-process
     *         server ({@code StepContext.simulator()}), so that a run's simulator must serve inside the measuring JVM
     *         rather than from a process of its own; false by default
     */
    default boolean needsInProcessSimulator() {
        return false;
    }

    /**
     * @return the SLOs this step carries and judges itself (a load step's goodput thresholds, a ranking's attainment
     *         column, a monitor's SLA, a server bench's load), besides the run-level {@code slos}; empty by default
     */
    default java.util.List<org.latencylab.engine.stats.Slo> stepSlos() {
        return java.util.List.of();
    }

    /**
     * @return the SLOs of this step that are judged on its pooled measured requests, like the run-level {@code slos}
     *         and next to them: a verdict per SLO in the step's summary, and a failed one fails the run (exit status
     *         1). A load step's own {@code slos}; empty by default (a ranking, a monitor and a server bench judge
     *         their {@link #stepSlos()} per endpoint or variant themselves)
     */
    default java.util.List<org.latencylab.engine.stats.Slo> judgedSlos() {
        return java.util.List.of();
    }
}
