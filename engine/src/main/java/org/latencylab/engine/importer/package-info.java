/**
 * Imports other benchmark tools' per-request results as LatencyLab run directories, so they can be compared with
 * LatencyLab's own runs: {@code vllm bench serve --save-result --save-detailed} JSON, GuideLLM's benchmark report
 * (JSON) and AIPerf's (GenAI-Perf's successor) {@code profile_export.jsonl}.
 *
 * <p>An imported run directory holds {@code requests.jsonl} (one record per request, timestamps rebuilt from what
 * the tool stored) and {@code run.json} with {@code source_tool}, {@code source_file}, {@code missing_metrics}
 * (metrics the tool does not store, which stay empty) and {@code notes} (where a value was derived or
 * interpolated). Each tool keeps its own metric definitions (e.g. vLLM's TTFT starts at the first chunk, a
 * role-only one included): the numbers are the tool's, not re-measured. See {@link
 * org.latencylab.engine.lens.MetricDefinition} for how the definitions differ.
 */
package org.latencylab.engine.importer;
