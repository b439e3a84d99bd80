/**
 * Load generation: closed and open loops, arrival processes, rate shapes, caps, deadlines, per-second statistics
 * and grids of load steps.
 *
 * <h2>Scheduling</h2>
 * An open loop places every request's <em>intended start</em> on an absolute schedule computed from the step's
 * start ({@link org.latencylab.engine.load.ArrivalSchedule}: unit-mean gaps summed in operational time and mapped
 * through the inverse cumulative rate of a {@link org.latencylab.engine.load.RateProfile}), never as "now + gap",
 * so a late dispatcher cannot make the rate drift. One platform thread dispatches (parking until each intended
 * start) and each request runs on a pooled platform thread ({@link org.latencylab.engine.client.RequestThreads#pool()}).
 * The client stamps the actual send; the difference is
 * the <em>dispatch lag</em>, kept as its own metric. Latency is reported both from the intended start (what a
 * user of the service experiences, queueing in the client included, so coordinated omission is never hidden)
 * and from the actual send (what the server and network did). A closed loop runs {@code concurrency} workers through
 * {@link org.latencylab.engine.step.ClosedLoop} (the one closed loop, shared with probes and sweeps); a worker's
 * intended start is the moment it is ready (after its think time).
 *
 * <h2>Caps</h2>
 * An open loop may cap in-flight requests ({@code maxInFlight}) and the send rate ({@code maxRateRps}). At a cap
 * a request either waits ({@code queue}: the dispatcher blocks, its intended start and those of the requests
 * behind it stay where the schedule put them, so the wait is visible in latency from the intended start and in
 * dispatch lag) or is dropped ({@code drop}: never sent, no id, no record, counted in {@code dropped}). A closed
 * loop has exactly {@code concurrency} requests in flight; its workers wait at the rate cap.
 *
 * <h2>Accounting</h2>
 * Every request that gets an id ends in exactly one of succeeded, failed (by {@link org.latencylab.engine.api.ErrorKind})
 * or cancelled, and is handed to {@link org.latencylab.engine.step.StepContext#finished} exactly once, also
 * when the step is cancelled or its drain times out ({@code sent = succeeded + failed + cancelled}). A first-token
 * deadline miss is a failure of kind {@code timeout}. Warmup and cooldown requests are sent and written with the
 * phase {@code warmup} / {@code cooldown} (field {@code phase}), counted in the accounting, and excluded from latencies,
 * goodput, error rate and tier.
 *
 * <h2>Over time</h2>
 * Statistics are kept per second of completion (the HdrHistogram interval-log convention): percentiles,
 * P99 − P50 jitter, goodput (requests that succeeded and met every per-request SLO), error rate, 429 and 5xx
 * counts, the tier of the P95 of the tier metric (default table: Tier-0 ≤ 80 ms, Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s,
 * Tier-3 ≤ 4.5 s, Tier-4 above). The rule of the optional auto-stop is documented on
 * {@link org.latencylab.engine.load.LoadSpec.AutoStop}.
 */
package org.latencylab.engine.load;
