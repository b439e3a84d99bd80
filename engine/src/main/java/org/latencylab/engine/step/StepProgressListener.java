package org.latencylab.engine.step;

import org.latencylab.engine.api.RunListener;

/**
 * A {@link RunListener} that also wants the {@link StepProgress} of running steps (a load step's per-second
 * statistics as each second closes, a grid's matrix as each cell ends). The {@link org.latencylab.engine.experiment.RunEngine} calls
 * {@link #onStepProgress} on an engine thread, once per event and in the order a step reported them; the same
 * rules as for {@link RunListener} apply: fast, non-blocking, never throws (an exception is caught and logged).
 */
public interface StepProgressListener extends RunListener {
    /** @param progress what a step reported; never null */
    void onStepProgress(StepProgress progress);
}
