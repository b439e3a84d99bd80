package org.latencylab.engine.transport;

import org.latencylab.engine.step.StepProgress;

import java.util.Objects;

/**
 * The cells of a running {@code transports} step for one network profile and connection mode have ended: the table so
 * far — the same {@link TransportsResult} the step returns at the end, only with fewer cells — so a live view can draw
 * the grouped bars as they come. Immutable and thread-safe.
 *
 * @param step  label of the transports step, e.g. {@code transports}
 * @param soFar the result with every finished cell
 * @throws NullPointerException when an argument is null
 */
public record TransportsProgress(String step, TransportsResult soFar) implements StepProgress {
    public TransportsProgress {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(soFar, "soFar");
    }
}
