package org.latencylab.engine.experiment;

/**
 * One step of a run: what to measure and how much. Implementations are immutable records that Jackson reads
 * from a scenario file (the {@code type} field selects the implementation). Thread-safe.
 */
public interface ExperimentSpec {
    /** @return the scenario {@code type} name, e.g. {@code "probe"} */
    String type();

    /** @return requests this step plans to send, or -1 when it is bounded by time */
    long plannedRequests();
}
