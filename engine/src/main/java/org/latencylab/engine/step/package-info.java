/**
 * The step contract: what every step type implements ({@link org.latencylab.engine.step.StepRunner}), what the run
 * gives a step ({@link org.latencylab.engine.step.StepContext}: endpoint, sending, prompts, the records' sink), how a
 * step reports progress ({@link org.latencylab.engine.step.StepProgress}), and the closed loop that probes, sweeps and
 * closed-loop load steps share ({@link org.latencylab.engine.step.ClosedLoop}). The orchestrator that runs steps lives
 * in {@code experiment}; step types in {@code experiment}, {@code load}, {@code server}, {@code compare},
 * {@code transport} and {@code monitor} depend on this package, not on each other's orchestrator.
 */
package org.latencylab.engine.step;
