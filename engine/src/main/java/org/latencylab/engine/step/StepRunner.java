package org.latencylab.engine.step;

import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.run.ExperimentSpec;

/**
 * Runs one kind of {@link ExperimentSpec}. Implementations are stateless and thread-safe; per-run state lives in
 * the call.
 *
 * @param <S> the spec type this runner handles
 */
public interface StepRunner<S extends ExperimentSpec> {
    /**
     * Runs the step to completion, or until {@link StepContext#cancelled()} turns true, when it stops scheduling,
     * lets (or makes) in-flight requests end and returns promptly (within about a second).
     *
     * @param spec    what to run
     * @param label   label for this step's requests (e.g. {@code "probe"}, unique within the run)
     * @param context the run's services
     * @return the step's result (a Jackson-serialisable value written into {@code run.json})
     * @throws InterruptedException when the run thread is interrupted
     */
    StepResult run(S spec, String label, StepContext context) throws InterruptedException;

    /**
     * Runs this runner's own scheduling code briefly, before a run's clock starts, so that the just-in-time compiler
     * has compiled it when the first measured request is due ({@code JitWarmUp.schedulingPaths} in the experiment package). Whatever it sends
     * goes to an in-process zero-latency simulator through {@code scratch}, and nothing is recorded. This default does
     * nothing (a runner whose scheduling is a plain loop over the client needs no more than the client's warm-up).
     *
     * @param scratch a context of the warm-up: its endpoint is the in-process simulator, its records are discarded
     * @throws InterruptedException when the calling thread is interrupted (the warm-up's time limit passed)
     */
    default void warmUp(StepContext scratch) throws InterruptedException {
    }
}
