/**
 * Step results in the Results tab: the live panel of load tests and grids (per-second P50/P95/P99 from the
 * intended start with tier bands, target vs achieved rate, errors, dispatch lag; a grid's heatmap filled cell by
 * cell) and the table of a finished run's steps. Fed by the engine's {@code StepProgress} events and its
 * {@code RunResult}; nothing here recomputes a statistic.
 */
package org.latencylab.app.ui.steps;
