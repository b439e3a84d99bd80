package org.latencylab.engine.run;

/**
 * The result of one step, written into {@code run.json} under {@code steps[i].result}. Implementations are
 * immutable records that Jackson can serialise. Thread-safe.
 */
public interface StepResult {
    /** @return the step label, e.g. {@code "probe"} or {@code "sweep"} */
    String label();

    /** @return the spec type, e.g. {@code "probe"} */
    String type();
}
