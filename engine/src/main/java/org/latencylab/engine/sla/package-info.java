/**
 * Service-level agreements over finished runs: a multi-metric SLO matrix (e.g. P99 E2E, P99 TTFT, minimum output
 * tokens per second) judged cell by cell for every step of a run. The SLO budget that turns an end-to-end SLA into
 * a model SLO is {@link org.latencylab.engine.stats.SloBudget}.
 */
package org.latencylab.engine.sla;
