/**
 * Results of a run — live while it runs, and reopened from a run directory later — and the side-by-side
 * comparison of two runs.
 *
 * <p>Nothing here computes statistics: {@link org.latencylab.app.ui.results.ResultsViewModel} presents the
 * engine's result model ({@code org.latencylab.engine.run.RunResult}: per-step summaries, tiers, SLO verdicts,
 * per-second series, CDF samples, a sweep's per-length points and fit) as text, and the charts are drawn by the
 * charts module's {@code org.latencylab.charts.results.ResultCharts}, the same builder that writes a run's PNG
 * files, so the window, its exports and the run directory show the same chart. A live
 * run's model is fetched from the engine ({@code RunHandle.view()}); a reopened run's is read by the engine from its
 * run directory with the settings it ran with. {@link org.latencylab.app.ui.results.MetricGlossary} holds the metric
 * definitions shown as tooltips; they are the definitions of the engine's {@code org.latencylab.engine.api} package
 * documentation.
 */
package org.latencylab.app.ui.results;
