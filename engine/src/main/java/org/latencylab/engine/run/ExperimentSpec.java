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
}
