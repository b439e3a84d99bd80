/**
 * The run directory and the result model: what a run leaves on disk, written so that a crash loses nothing, and
 * the one code that turns requests into results ({@link org.latencylab.engine.results.RunModel}), fed live by the
 * run engine and from {@code requests.jsonl} by {@link org.latencylab.engine.results.RunReader} (reopen,
 * recovery of a killed run, explicit re-judging).
 *
 * <ul>
 *   <li>{@code requests.jsonl} — one JSON object per finished request, appended and flushed as each request
 *       ends ({@link org.latencylab.engine.results.RequestLog}); fields in {@link org.latencylab.engine.results.RequestJson};
 *       a first line {@code {"requests_format": 2}} gives the format (absent in format 1, read all the same).</li>
 *   <li>{@code run.json} — spec, environment, summary and step results; versioned ({@code "format": 2}; readers accept older formats and refuse newer ones with a message) and
 *       replaced atomically (written to a temporary file, then moved) so a reader never sees half a file.</li>
 *   <li>{@code summary.csv} — one row per step and metric with count, mean and percentiles in milliseconds.</li>
 *   <li>charts ({@code *.png}) written by the {@code charts} module.</li>
 * </ul>
 * Times in {@code requests.jsonl} are relative to the run's start: {@code *_ms} fields are milliseconds
 * (3 decimals), the {@code t} object holds the raw timestamps in nanoseconds since the run's start.
 */
package org.latencylab.engine.results;
