/**
 * Experiments: the recipes of latency engineering (probe, context sweep, load test) and the engine that runs
 * them step by step against one endpoint.
 *
 * <p>A run is a list of {@link org.latencylab.engine.run.ExperimentSpec}s. The
 * {@link org.latencylab.engine.experiment.RunEngine} runs them in order on its own threads; each spec type has a
 * {@link org.latencylab.engine.step.StepRunner} that schedules requests and hands every finished
 * {@link org.latencylab.engine.api.RequestRecord} to the {@link org.latencylab.engine.step.StepContext},
 * which appends it to {@code requests.jsonl} at once (so a crash loses nothing), feeds it to the run's result model
 * ({@link org.latencylab.engine.results.RunModel}), updates counters and feeds the snapshot publisher. Step runners
 * never see files or listeners directly. Step types are registered by the one composition root,
 * {@code org.latencylab.engine.scenario.StepCatalog}.
 */
package org.latencylab.engine.experiment;
