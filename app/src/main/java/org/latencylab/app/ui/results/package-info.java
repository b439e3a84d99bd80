/**
 * Results of a run — live while it runs, and reopened from a run directory later — and the side-by-side
 * comparison of two runs.
 *
 * <p>{@link org.latencylab.app.ui.results.ResultData} is the one pure computation from request records to what the
 * window shows (CDF samples, TTFT per second, sweep points and power-law fit, the engine's {@code StatsReport});
 * it runs on a background thread. {@link org.latencylab.app.ui.results.ResultsViewModel} accumulates records
 * from the live snapshot stream and recomputes at most one {@code ResultData} at a time (a newer request replaces
 * a queued one). {@link org.latencylab.app.ui.results.MetricGlossary} holds the metric definitions shown as
 * tooltips; they are the definitions of the engine's {@code org.latencylab.engine.api} package documentation.
 */
package org.latencylab.app.ui.results;
