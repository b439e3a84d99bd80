/**
 * The experiment form: a probe (N requests at concurrency C), a load test ({@code LoadForm}), a grid
 * ({@code GridForm}) or a context sweep (prompts of exactly 2k/8k/32k and
 * custom token lengths, cold or warm) — only the controls that the engine's {@code ProbeSpec} and {@code SweepSpec}
 * honour (and {@code LoadSpec}, {@code GridSpec}). {@link org.latencylab.app.ui.experiment.ExperimentViewModel} turns the form into a {@code RunSpec};
 * {@link org.latencylab.app.ui.experiment.ExperimentView} lays it out.
 */
package org.latencylab.app.ui.experiment;
