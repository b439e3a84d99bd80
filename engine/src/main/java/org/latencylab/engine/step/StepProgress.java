package org.latencylab.engine.step;

/**
 * Something a running step reports about itself before it ends, for live views: a load step's closed second, a
 * grid's finished cell. Implementations are immutable records and thread-safe. Published through
 * {@link StepContext#progress(StepProgress)} to a {@link StepProgressListener}.
 */
public interface StepProgress {
    /** @return label of the step that reported it, e.g. {@code "load"} or a grid cell's {@code "grid-r0c1"} */
    String step();
}
