/**
 * The metric-definition lens in the window: a finished run's requests re-timed under the definitions of LatencyLab,
 * vLLM bench serve, GuideLLM and AIPerf (engine {@code lens} package), side by side, with each definition's rules and
 * source, so a user can see why two tools disagree on one server. Reads {@code requests.jsonl} once per run shown,
 * in the background.
 */
package org.latencylab.app.ui.lens;
