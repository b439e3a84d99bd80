package org.latencylab.engine.api;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Progress of a running experiment, published by the engine at a fixed rate (4–10 Hz) to a
 * {@link RunListener}: progress counters and the requests that ended since the previous snapshot. Statistics are not
 * here: the run's result model (live and final summaries, tiers, series, distributions) is read from the run's
 * handle ({@code RunHandle.view()}), so a listener may drop snapshots (latest wins). Immutable and thread-safe.
 *
 * @param runName          name of the run
 * @param step             label of the step running now (e.g. {@code "sweep-8192"}); "" between steps
 * @param elapsedNanos     time since the run started, ns
 * @param completed        requests ended so far (any outcome) over the whole run
 * @param planned          requests planned for the whole run, or -1 when the run is bounded by time
 * @param inFlight         requests in flight at the snapshot
 * @param succeeded        successful requests so far
 * @param errorsByKind     failed requests so far, by kind (unmodifiable)
 * @param cancelled        cancelled requests so far
 * @param targetRateRps    target arrival rate of the current step in requests/s, or 0 for closed loop
 * @param achievedRateRps  achieved send rate over the last interval, requests/s
 * @param newRecords       requests that ended since the previous snapshot, in the order they ended
 * @param finished         true on the last snapshot of the run
 * @param setupNanos       time from the run's start to the start of its first step (the simulator's start, the JIT
 *                         warm-up, opening the result files), ns, &gt;= 0 and at most {@code elapsedNanos}; the
 *                         run's requests are sent after it, so a rate or an ETA leaves it out
 *                         ({@link #measuringNanos()})
 */
public record IntervalSnapshot(String runName, String step, long elapsedNanos, long completed, long planned,
                               int inFlight, long succeeded, Map<ErrorKind, Long> errorsByKind, long cancelled,
                               double targetRateRps, double achievedRateRps, List<RequestRecord> newRecords,
                               boolean finished, long setupNanos) {
    /** @throws IllegalArgumentException when {@code setupNanos} is negative */
    public IntervalSnapshot {
        if (setupNanos < 0) {
            throw new IllegalArgumentException("setupNanos must be >= 0, was " + setupNanos);
        }
        Objects.requireNonNull(runName, "runName");
        step = step == null ? "" : step;
        errorsByKind = errorsByKind == null ? Map.of() : Map.copyOf(errorsByKind);
        newRecords = newRecords == null ? List.of() : List.copyOf(newRecords);
    }

    /** @return time since the first step started ({@code elapsedNanos - setupNanos}, at least 0), ns */
    public long measuringNanos() {
        return Math.max(0, elapsedNanos - setupNanos);
    }

    /** @return failed requests so far, all kinds together */
    public long failed() {
        long sum = 0;
        for (long v : errorsByKind.values()) {
            sum += v;
        }
        return sum;
    }

    /** @return fraction of planned requests ended, in [0, 1], or -1 when the run is time-bounded */
    public double progress() {
        return planned <= 0 ? -1 : Math.min(1.0, completed / (double) planned);
    }
}
