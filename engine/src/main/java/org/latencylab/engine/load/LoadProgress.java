package org.latencylab.engine.load;

import org.latencylab.engine.step.StepProgress;

import java.util.Objects;

/**
 * A second of a running load step has closed: the same {@link LoadSecond} that ends up in the step's
 * {@code seconds[]} of {@code run.json}, published as soon as it is known so a live view draws exactly what the
 * run will conclude. Immutable and thread-safe.
 *
 * @param step   label of the load step (a grid cell's label, e.g. {@code grid-r1c0}, inside a grid)
 * @param second the closed second
 * @throws NullPointerException when an argument is null
 */
public record LoadProgress(String step, LoadSecond second) implements StepProgress {
    public LoadProgress {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(second, "second");
    }
}
