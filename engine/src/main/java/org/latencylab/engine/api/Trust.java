package org.latencylab.engine.api;

/**
 * Whether a run's numbers describe the server or the measuring client: the trust check every run carries
 * (DESIGN.md, "The measuring process stays out of the numbers"). Filled by the run engine's trust meter; a run
 * without one has no {@code Trust}. Immutable and thread-safe.
 *
 * @param saturated          true when the client, not the server, was the bottleneck (the numbers are suspect)
 * @param message            one line for the user saying what was seen and what to do; never null
 * @param hiccupP99Ms        P99 of the client's hiccup meter (a thread that sleeps 1 ms and records how late it
 *                           woke up: GC and scheduling stalls), ms, or NaN when not measured
 * @param dispatchLagP99Ms   P99 of the dispatch lag (actual send − intended start), ms, or NaN
 * @param cpuPerRequestMs    client CPU time per request, ms, or NaN
 */
public record Trust(boolean saturated, String message, double hiccupP99Ms, double dispatchLagP99Ms,
                    double cpuPerRequestMs) {
    public Trust {
        message = message == null ? "" : message;
    }
}
