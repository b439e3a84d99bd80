package org.latencylab.engine.api;

import java.util.Locale;
import java.util.Objects;

/**
 * Whether the measuring process itself was fast enough for a run's numbers to describe the server, not the client.
 * Every run carries one ({@code run.json} {@code trust}). Hiccups and CPU are measured from the moment the first
 * step starts to the end of the run: the process's start-up, the simulator's start and the JIT warm-up before the
 * first step are not part of it.
 *
 * <h2>Inputs</h2>
 * <ul>
 *   <li><b>Hiccups</b> (the jHiccup method, Gil Tene): a platform thread sleeps 1 ms again and again and records by
 *       how much it overslept. Whatever stopped it (a garbage-collector pause, a safepoint, an overloaded CPU, the
 *       operating system) stopped the client's stamping threads as well, so a hiccup of {@code h} ms means a stamp
 *       taken then may be up to {@code h} ms late. Percentiles are over time, not over requests: missed 1 ms wake-ups
 *       during a long hiccup are filled in, as jHiccup does.</li>
 *   <li><b>Dispatch lag</b>: P99 of (actual send − intended start) over the run's measured requests: how far the
 *       client fell behind its own schedule.</li>
 *   <li><b>Process CPU</b>: CPU time (user + system) the measuring process used during the run, per request and as a
 *       share of all cores ({@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime}). With the built-in
 *       simulator the simulator runs in the same process and its CPU is included.</li>
 *   <li><b>Run-queue wait</b> (Linux): how long the request threads, once woken by the bytes they were blocked on,
 *       waited for a CPU, on average per time slice they ran (the scheduler's own accounting,
 *       {@code /proc/<pid>/task/<tid>/schedstat}). A stamp is late by that wait, and the hiccup meter cannot see it:
 *       it is one thread that the scheduler serves first. Many request threads on few cores (a thousand streams on
 *       two) raise it.</li>
 * </ul>
 *
 * <h2>Rule</h2>
 * The client is {@link #saturated()} when hiccup P99 &gt; {@value #HICCUP_P99_LIMIT_MS} ms, or dispatch-lag P99 &gt;
 * {@value #DISPATCH_LAG_P99_LIMIT_MS} ms with at least {@value #MIN_LAGGED_REQUESTS} requests over that limit (in a
 * run of 160 requests, P99 is the second-largest value: two late dispatches alone say little), or the process used more than {@value #CPU_LOAD_LIMIT} of all cores, or the request threads' run-queue wait
 * exceeded {@value #RUN_QUEUE_WAIT_LIMIT_MS} ms per time slice over at least {@value #MIN_RUN_QUEUE_SLICES} slices.
 * Then
 * the share of time with hiccups (or of requests with dispatch lag) above {@value #HICCUP_P99_LIMIT_MS} ms, say 3 %,
 * says which latency percentiles may carry the client's own delay: those above P97 are not trustworthy. A run-queue
 * wait over its limit says how long a wake-up waits on average, not how many: then no percentile above
 * P{@value #RUN_QUEUE_TRUSTED_UP_TO} is trusted (see {@link #RUN_QUEUE_WAIT_LIMIT_MS}). The limits
 * are this project's choice: a few milliseconds is where a client's own delay starts to move a P99 that a latency
 * tier (80 ms and up) or an SLO could notice.
 *
 * <p>Immutable and thread-safe.
 *
 * @param hiccupP50Ms          median oversleep of the 1 ms hiccup meter, ms, >= 0
 * @param hiccupP99Ms          P99 oversleep, ms, >= 0
 * @param hiccupMaxMs          largest oversleep, ms, >= 0
 * @param hiccupSamples        1 ms intervals observed (filled in during hiccups), >= 0
 * @param dispatchLagP99Ms     P99 of the measured requests' dispatch lag, ms, or NaN without requests
 * @param cpuPerRequestMs      process CPU time during the run ÷ requests recorded, ms, or NaN without requests
 * @param processCpuLoad       process CPU time ÷ (wall time × available processors), 0..1, or NaN when unknown
 * @param trustedUpToPercentile latency percentile up to which the client's own delay stays under the limits, e.g.
 *                             97.0; 100 when not saturated; NaN when no request succeeded (there are no latencies
 *                             to qualify)
 * @param saturated            whether the rule above holds
 * @param message              one sentence for people: {@code "client saturated: latencies above P97 are not
 *                             trustworthy; hiccup P99 = 38 ms"}, or {@code "client kept up: hiccup P99 = 0.2 ms, ..."}
 * @param runQueueWaitMs       the request threads' mean run-queue wait per time slice, ms, or NaN when unknown (not
 *                             Linux, or no request thread ran)
 * @throws IllegalArgumentException when a value is negative, {@code trustedUpToPercentile} is outside [0, 100]
 *                                  (NaN allowed), or the message is blank
 */
public record TrustCheck(double hiccupP50Ms, double hiccupP99Ms, double hiccupMaxMs, long hiccupSamples,
                         double dispatchLagP99Ms, double cpuPerRequestMs, double processCpuLoad,
                         double trustedUpToPercentile, boolean saturated, String message, double runQueueWaitMs) {
    /** Hiccup P99 above which the client counts as saturated, ms. */
    public static final double HICCUP_P99_LIMIT_MS = 5.0;
    /** Dispatch-lag P99 above which the client counts as saturated, ms. */
    public static final double DISPATCH_LAG_P99_LIMIT_MS = 5.0;
    /** Fewest requests dispatched later than {@link #DISPATCH_LAG_P99_LIMIT_MS} that can make the client saturated. */
    public static final long MIN_LAGGED_REQUESTS = 5;
    /** Share of all cores above which the measuring process counts as saturated. */
    public static final double CPU_LOAD_LIMIT = 0.9;
    /**
     * Mean run-queue wait per time slice of the request threads above which the client counts as saturated, ms.
     * Chosen by scoring the client's stamps against a stamping server's own (the truth server of
     * {@code shared/bench}, or {@code calibrate}'s simulator): runs whose error P99 stayed within a couple of
     * milliseconds had mean waits below this limit, and runs with late stamps in their tails had waits above it, even
     * where the hiccup meter alone said "kept up". A mean is a rough predictor (the same mean can come with tails ten
     * times apart), so the limit is set by the bad cases; the current figures are on the accuracy page of the docs.
     */
    public static final double RUN_QUEUE_WAIT_LIMIT_MS = 0.15;
    /** Fewest time slices of request threads on which a run-queue wait is judged (a mean over fewer says little). */
    public static final long MIN_RUN_QUEUE_SLICES = 1000;
    /**
     * Highest percentile trusted when the run-queue wait is over its limit: below the share of late stamps in the
     * worst runs scored against the truth server.
     */
    public static final int RUN_QUEUE_TRUSTED_UP_TO = 75;
    /** The rule in words, as written to {@code run.json}. */
    public static final String RULE = String.format(Locale.ROOT,
            "saturated when hiccup P99 > %.0f ms, or dispatch-lag P99 > %.0f ms with at least %d requests over it, or"
                    + " process CPU > %.0f %% of all cores, or the request threads' mean run-queue wait > %.2f ms per"
                    + " time slice over at least %d slices",
            HICCUP_P99_LIMIT_MS, DISPATCH_LAG_P99_LIMIT_MS, MIN_LAGGED_REQUESTS, CPU_LOAD_LIMIT * 100,
            RUN_QUEUE_WAIT_LIMIT_MS, MIN_RUN_QUEUE_SLICES);

    public TrustCheck {
        if (hiccupP50Ms < 0 || hiccupP99Ms < 0 || hiccupMaxMs < 0 || hiccupSamples < 0) {
            throw new IllegalArgumentException("hiccup figures must be >= 0, were P50 " + hiccupP50Ms + ", P99 "
                    + hiccupP99Ms + ", max " + hiccupMaxMs + ", samples " + hiccupSamples);
        }
        if (dispatchLagP99Ms < 0 || cpuPerRequestMs < 0 || processCpuLoad < 0 || runQueueWaitMs < 0) {
            throw new IllegalArgumentException("dispatch lag, CPU per request, CPU load and run-queue wait must be >= 0"
                    + " or NaN");
        }
        if (trustedUpToPercentile < 0 || trustedUpToPercentile > 100) {
            throw new IllegalArgumentException("trustedUpToPercentile must be in [0, 100] or NaN, was "
                    + trustedUpToPercentile);
        }
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("message must not be blank");
        }
        Objects.requireNonNull(message);
    }

    /**
     * A verdict without a run-queue wait ({@link #runQueueWaitMs} NaN): not measured, or read from a run written before
     * it was.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public TrustCheck(double hiccupP50Ms, double hiccupP99Ms, double hiccupMaxMs, long hiccupSamples,
                      double dispatchLagP99Ms, double cpuPerRequestMs, double processCpuLoad,
                      double trustedUpToPercentile, boolean saturated, String message) {
        this(hiccupP50Ms, hiccupP99Ms, hiccupMaxMs, hiccupSamples, dispatchLagP99Ms, cpuPerRequestMs, processCpuLoad,
                trustedUpToPercentile, saturated, message, Double.NaN);
    }
}
