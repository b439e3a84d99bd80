/**
 * The GPU-server benchmark in the Results tab: live progress per variant (starting, under load, stopping, and how
 * it ended: ok, oom, start failed, not ready, crashed, cancelled), the running server's telemetry as time series
 * (KV-cache usage, running and waiting requests, GPU memory used), and the finished benchmark's Pareto projections,
 * batching heatmap and report table. Fed by the engine's {@code ServerBenchProgress} events and its
 * {@code ServerBenchResult}; nothing here recomputes a statistic.
 */
package org.latencylab.app.ui.serverbench;
