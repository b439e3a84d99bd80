/**
 * The metric-definition lens: TTFT, ITL, TPOT and E2E of recorded requests recomputed under the definitions of
 * other benchmark tools, next to LatencyLab's own, so a user can see why two tools disagree about one server.
 *
 * <p>The definitions, each with the source it was read from, are listed in {@link
 * org.latencylab.engine.lens.MetricDefinition}. The lens needs per-request events: the send time, the first
 * streamed chunk (a role-only chunk included, {@code RequestRecord.firstChunkNanos}), the token-bearing events
 * and the end of the stream. It is a view on recorded requests, not a run's judgement: SLOs and tiers stay on
 * LatencyLab's definitions.
 */
package org.latencylab.engine.lens;
