/**
 * The run directory: what a run leaves on disk, written so that a crash loses nothing.
 *
 * <ul>
 *   <li>{@code requests.jsonl} — one JSON object per finished request, appended and flushed as each request
 *       ends ({@link org.latencylab.engine.results.RequestLog}); fields in {@link org.latencylab.engine.results.RequestJson}.</li>
 *   <li>{@code run.json} — spec, environment, summary and step results; versioned ({@code "format": 1}) and
 *       replaced atomically (written to a temporary file, then moved) so a reader never sees half a file.</li>
 *   <li>{@code summary.csv} — one row per step and metric with count, mean and percentiles in milliseconds.</li>
 *   <li>charts ({@code *.png}) written by the {@code charts} module.</li>
 * </ul>
 * Times in {@code requests.jsonl} are relative to the run's start: {@code *_ms} fields are milliseconds
 * (3 decimals), the {@code t} object holds the raw timestamps in nanoseconds since the run's start.
 */
package org.latencylab.engine.results;
