/**
 * The run as values: what a run is ({@link org.latencylab.engine.run.RunSpec}, its steps'
 * {@link org.latencylab.engine.run.ExperimentSpec}s, the {@link org.latencylab.engine.run.StatsSettings} it is judged
 * with, its {@link org.latencylab.engine.run.TargetSpec}) and what it concluded
 * ({@link org.latencylab.engine.run.RunResult}, the engine's result model that every writer and view shows).
 *
 * <p>This package sits below both {@code experiment} (which runs specs) and {@code results} (which writes and reads
 * run directories), so neither needs the other's types and the engine has no package cycle (an ArchUnit test checks
 * it). It depends only on {@code api} and {@code stats}.
 */
package org.latencylab.engine.run;
