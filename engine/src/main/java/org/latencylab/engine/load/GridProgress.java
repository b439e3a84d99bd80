package org.latencylab.engine.load;

import org.latencylab.engine.step.StepProgress;

import java.util.Objects;

/**
 * A cell of a running grid has ended: the grid's matrix so far, cells not yet run being null — the same
 * {@link GridResult} the step returns at the end, only with fewer cells filled. Immutable and thread-safe.
 *
 * @param step  label of the grid step, e.g. {@code grid}
 * @param soFar the grid with every finished cell filled
 * @throws NullPointerException when an argument is null
 */
public record GridProgress(String step, GridResult soFar) implements StepProgress {
    public GridProgress {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(soFar, "soFar");
    }
}
