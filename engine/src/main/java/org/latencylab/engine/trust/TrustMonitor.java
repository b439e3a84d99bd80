package org.latencylab.engine.trust;

import org.HdrHistogram.Histogram;
import org.latencylab.engine.api.TrustCheck;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Locale;

/**
 * Watches the measuring process during one run and judges it at the end ({@link TrustCheck}): runs a
 * {@link HiccupMeter} and reads the process CPU time at the start and at the end. Each step can be judged on its own
 * too ({@link #stepStart}, {@link #stepEnd}), so that a step that saturated the client does not disqualify the
 * steps before or after it. A step's window is its measurement: from its clock start ({@link #stepClockStarted}, after
 * its connections were opened and the heap collected) to the end of its last request ({@link #stepStop}), so that
 * neither the preparation before the clock nor the statistics after the last request count as the client's load while
 * it measured (the preparation alone is a visible share of the CPU per request).
 *
 * <p>Thread-safe: {@link #finish} may be called once, from any thread; the step methods from any thread, in the order
 * {@link #stepStart}, {@link #stepClockStarted} (optional), {@link #stepStop} (optional), {@link #stepEnd}.
 */
public final class TrustMonitor {
    private final HiccupMeter meter;
    private final long startNanos;
    private final long startCpuNanos;

    private final SchedulerWaits.Snapshot startWaits;

    private long stepStartNanos;
    private long stepStartCpuNanos;
    private SchedulerWaits.Snapshot stepStartWaits;
    /** Whether the current step's clock start was marked ({@link #stepClockStarted}). */
    private boolean stepClockMarked;
    /** The current step's end ({@link #stepStop}), or null while it runs. */
    private End stepStopped;

    /** The figures at the end of a window: hiccups since its start, time, CPU and scheduler waits. */
    private record End(Histogram hiccups, long nanos, long cpuNanos, SchedulerWaits.Snapshot waits) {
        static End now(Histogram hiccups) {
            return new End(hiccups, System.nanoTime(), processCpuNanos(), SchedulerWaits.snapshot());
        }
    }

    private TrustMonitor() {
        startNanos = System.nanoTime();
        startCpuNanos = processCpuNanos();
        startWaits = SchedulerWaits.snapshot();
        stepStartNanos = startNanos;
        stepStartCpuNanos = startCpuNanos;
        stepStartWaits = startWaits;
        meter = HiccupMeter.start();
    }

    /**
     * Marks the start of a step: the step's verdict ({@link #stepEnd}) counts hiccups, CPU and time from here, or from
     * its clock start when {@link #stepClockStarted} is called.
     */
    public synchronized void stepStart() {
        markStepStart();
        stepClockMarked = false;
        stepStopped = null;
    }

    private void markStepStart() {
        meter.mark(); // what happened before (between steps, opening connections) belongs to the run, not to the step
        stepStartNanos = System.nanoTime();
        stepStartCpuNanos = processCpuNanos();
        stepStartWaits = SchedulerWaits.snapshot();
    }

    /**
     * Marks the moment the current step's clock starts: its verdict counts from here instead of from
     * {@link #stepStart}. Only the first call after {@link #stepStart} counts (a step that starts several clocks, such
     * as a sweep, is judged from its first). Callable from any thread (a closed loop's first worker calls it).
     */
    public synchronized void stepClockStarted() {
        if (!stepClockMarked && stepStopped == null) {
            stepClockMarked = true;
            markStepStart();
        }
    }

    /**
     * Marks the end of the current step's last request: its verdict ({@link #stepEnd}) counts hiccups, CPU and time up
     * to here, not the statistics computed afterwards. Idempotent until the next {@link #stepStart}.
     */
    public synchronized void stepStop() {
        if (stepStopped == null) {
            stepStopped = End.now(meter.mark());
        }
    }

    /**
     * Judges one step with the rule of {@link TrustCheck}: the hiccups, process CPU, request threads' run-queue wait
     * and time from its clock start ({@link #stepClockStarted}, else {@link #stepStart}) to its last request's end
     * ({@link #stepStop}, else now), and the step's own requests and dispatch lag. The run's verdict
     * ({@link #finish}) still covers everything.
     *
     * @param requests         requests the step recorded, >= 0
     * @param succeeded        of those, the ones that succeeded
     * @param dispatchLagP99Ms P99 dispatch lag of the step's measured requests, ms, or NaN when none
     * @param dispatchLagShareOverLimit share (0..1) of them whose dispatch lag exceeded
     *                         {@link TrustCheck#DISPATCH_LAG_P99_LIMIT_MS}, or NaN when none
     * @param laggedRequests   how many requests that share is, >= 0
     * @return the step's verdict
     */
    public synchronized TrustCheck stepEnd(long requests, long succeeded, double dispatchLagP99Ms,
                                           double dispatchLagShareOverLimit, long laggedRequests) {
        return stepEnd(requests, succeeded, dispatchLagP99Ms, dispatchLagShareOverLimit, laggedRequests, false);
    }

    /**
     * Same as {@link #stepEnd(long, long, double, double, long)}, for a dispatch lag that may leave out waits at the
     * step's caps.
     *
     * @param capWaitsLeftOut true when the dispatch-lag figures are the client's own part only: requests waited at
     *                        the step's {@code maxInFlight} or {@code maxRateRps} cap, and that wait is not counted
     *                        ({@link org.latencylab.engine.api.RequestRecord#clientDispatchLagNanos}); the message
     *                        says so
     * @return the step's verdict
     */
    public synchronized TrustCheck stepEnd(long requests, long succeeded, double dispatchLagP99Ms,
                                           double dispatchLagShareOverLimit, long laggedRequests,
                                           boolean capWaitsLeftOut) {
        End end = stepStopped != null ? stepStopped : End.now(meter.mark());
        stepStopped = end;
        return judgeSince(end, stepStartNanos, stepStartCpuNanos, stepStartWaits, requests, succeeded,
                dispatchLagP99Ms, dispatchLagShareOverLimit, laggedRequests, capWaitsLeftOut);
    }

    /** Judges hiccups {@code h} with the process CPU, run-queue wait and wall time since the given moment. */
    private static TrustCheck judgeSince(End end, long sinceNanos, long sinceCpuNanos,
                                         SchedulerWaits.Snapshot sinceWaits, long requests, long succeeded,
                                         double dispatchLagP99Ms, double dispatchLagShareOverLimit,
                                         long laggedRequests, boolean capWaitsLeftOut) {
        Histogram h = end.hiccups();
        SchedulerWaits.Snapshot waits = end.waits();
        long wall = end.nanos() - sinceNanos;
        long cpuEnd = end.cpuNanos();
        double cpu = sinceCpuNanos < 0 || cpuEnd < 0 ? Double.NaN : cpuEnd - sinceCpuNanos;
        int cores = Runtime.getRuntime().availableProcessors();
        double load = Double.isNaN(cpu) || wall <= 0 ? Double.NaN : Math.min(1.0, cpu / ((double) wall * cores));
        double perRequest = Double.isNaN(cpu) || requests <= 0 ? Double.NaN : cpu / requests / 1e6;
        return judge(h, dispatchLagP99Ms, dispatchLagShareOverLimit, laggedRequests, perRequest, load, succeeded > 0,
                waits.waitPerSliceMsSince(sinceWaits), waits.slicesSince(sinceWaits), capWaitsLeftOut);
    }

    /** @return a monitor that is already measuring */
    public static TrustMonitor start() {
        return new TrustMonitor();
    }

    /**
     * Stops measuring and judges the run.
     *
     * @param requests         requests the run recorded (the CPU time is divided by it), >= 0
     * @param dispatchLagP99Ms P99 dispatch lag of the measured requests, ms, or NaN when none
     * @param dispatchLagShareOverLimit share (0..1) of measured requests whose dispatch lag exceeded
     *                         {@link TrustCheck#DISPATCH_LAG_P99_LIMIT_MS}, or NaN when none
     * @param laggedRequests   how many measured requests that share is, >= 0
     * @return the verdict
     */
    public TrustCheck finish(long requests, double dispatchLagP99Ms, double dispatchLagShareOverLimit,
                             long laggedRequests) {
        return finish(requests, requests, dispatchLagP99Ms, dispatchLagShareOverLimit, laggedRequests);
    }

    /**
     * Stops measuring and judges the run.
     *
     * @param requests         requests the run recorded (the CPU time is divided by it), >= 0
     * @param succeeded        of those, the ones that succeeded (0: there are no latencies for a verdict to qualify)
     * @param dispatchLagP99Ms P99 dispatch lag of the measured requests, ms, or NaN when none
     * @param dispatchLagShareOverLimit share (0..1) of measured requests whose dispatch lag exceeded
     *                         {@link TrustCheck#DISPATCH_LAG_P99_LIMIT_MS}, or NaN when none
     * @param laggedRequests   how many measured requests that share is, >= 0
     * @return the verdict
     */
    public TrustCheck finish(long requests, long succeeded, double dispatchLagP99Ms, double dispatchLagShareOverLimit,
                             long laggedRequests) {
        return finish(requests, succeeded, dispatchLagP99Ms, dispatchLagShareOverLimit, laggedRequests, false);
    }

    /**
     * Same as {@link #finish(long, long, double, double, long)}, for a dispatch lag that may leave out waits at the
     * load steps' caps.
     *
     * @param capWaitsLeftOut true when the dispatch-lag figures are the client's own part only (requests waited at a
     *                        step's {@code maxInFlight} or {@code maxRateRps} cap, and that wait is not counted); the
     *                        message says so
     * @return the verdict
     */
    public TrustCheck finish(long requests, long succeeded, double dispatchLagP99Ms, double dispatchLagShareOverLimit,
                             long laggedRequests, boolean capWaitsLeftOut) {
        return judgeSince(End.now(meter.stop()), startNanos, startCpuNanos, startWaits, requests, succeeded,
                dispatchLagP99Ms, dispatchLagShareOverLimit, laggedRequests, capWaitsLeftOut);
    }

    /**
     * Process CPU share of all cores below which a hiccup verdict adds that other load on the machine held the
     * client up (a client busy with its own work uses more).
     */
    static final double BUSY_ELSEWHERE_BELOW = 0.5;

    /**
     * Applies the rule of {@link TrustCheck} to measured figures.
     *
     * @param hiccups          oversleep per 1 ms interval, ns
     * @param dispatchLagP99Ms P99 dispatch lag, ms, or NaN
     * @param lagShareOverLimit share of requests with dispatch lag above the limit, 0..1, or NaN
     * @param laggedRequests   how many requests that share is, >= 0
     * @param cpuPerRequestMs  CPU per request, ms, or NaN
     * @param cpuLoad          process CPU share of all cores, 0..1, or NaN
     * @return the verdict
     */
    static TrustCheck judge(Histogram hiccups, double dispatchLagP99Ms, double lagShareOverLimit, long laggedRequests,
                            double cpuPerRequestMs, double cpuLoad) {
        return judge(hiccups, dispatchLagP99Ms, lagShareOverLimit, laggedRequests, cpuPerRequestMs, cpuLoad, true);
    }

    /**
     * Applies the rule of {@link TrustCheck} to measured figures.
     *
     * @param hiccups          oversleep per 1 ms interval, ns
     * @param dispatchLagP99Ms P99 dispatch lag, ms, or NaN
     * @param lagShareOverLimit share of requests with dispatch lag above the limit, 0..1, or NaN
     * @param laggedRequests   how many requests that share is, >= 0
     * @param cpuPerRequestMs  CPU per request, ms, or NaN
     * @param cpuLoad          process CPU share of all cores, 0..1, or NaN
     * @param latencies        whether any request succeeded: without one a saturated verdict names no percentile
     * @return the verdict
     */
    static TrustCheck judge(Histogram hiccups, double dispatchLagP99Ms, double lagShareOverLimit, long laggedRequests,
                            double cpuPerRequestMs, double cpuLoad, boolean latencies) {
        return judge(hiccups, dispatchLagP99Ms, lagShareOverLimit, laggedRequests, cpuPerRequestMs, cpuLoad, latencies,
                Double.NaN, 0);
    }

    /**
     * Applies the rule of {@link TrustCheck} to measured figures.
     *
     * @param hiccups          oversleep per 1 ms interval, ns
     * @param dispatchLagP99Ms P99 dispatch lag, ms, or NaN
     * @param lagShareOverLimit share of requests with dispatch lag above the limit, 0..1, or NaN
     * @param laggedRequests   how many requests that share is, >= 0
     * @param cpuPerRequestMs  CPU per request, ms, or NaN
     * @param cpuLoad          process CPU share of all cores, 0..1, or NaN
     * @param latencies        whether any request succeeded: without one a saturated verdict names no percentile
     * @param runQueueWaitMs   request threads' mean run-queue wait per time slice, ms, or NaN when unknown
     * @param runQueueSlices   time slices that mean is over, >= 0 (below {@link TrustCheck#MIN_RUN_QUEUE_SLICES} it is
     *                         reported but not judged)
     * @return the verdict
     */
    static TrustCheck judge(Histogram hiccups, double dispatchLagP99Ms, double lagShareOverLimit, long laggedRequests,
                            double cpuPerRequestMs, double cpuLoad, boolean latencies, double runQueueWaitMs,
                            long runQueueSlices) {
        return judge(hiccups, dispatchLagP99Ms, lagShareOverLimit, laggedRequests, cpuPerRequestMs, cpuLoad, latencies,
                runQueueWaitMs, runQueueSlices, false);
    }

    /**
     * Applies the rule of {@link TrustCheck} to measured figures.
     *
     * @param capWaitsLeftOut true when the dispatch-lag figures leave out waits at load steps' caps (then the message
     *                        names the lag "the client's own dispatch lag P99 … (waits at the caps left out)")
     * @return the verdict; the other parameters as in the overload without this one
     */
    static TrustCheck judge(Histogram hiccups, double dispatchLagP99Ms, double lagShareOverLimit, long laggedRequests,
                            double cpuPerRequestMs, double cpuLoad, boolean latencies, double runQueueWaitMs,
                            long runQueueSlices, boolean capWaitsLeftOut) {
        String lagName = capWaitsLeftOut ? "the client's own dispatch lag P99" : "dispatch lag P99";
        String lagNote = capWaitsLeftOut ? " (waits at the maxInFlight/maxRateRps caps left out)" : "";
        long n = hiccups.getTotalCount();
        double p50 = n == 0 ? 0 : hiccups.getValueAtPercentile(50) / 1e6;
        double p99 = n == 0 ? 0 : hiccups.getValueAtPercentile(99) / 1e6;
        double max = n == 0 ? 0 : hiccups.getMaxValue() / 1e6;
        long limitNanos = (long) (TrustCheck.HICCUP_P99_LIMIT_MS * 1e6);
        double hiccupShare = n == 0 ? 0
                : (double) (n - hiccups.getCountBetweenValues(0, limitNanos)) / n;
        boolean hiccupBad = p99 > TrustCheck.HICCUP_P99_LIMIT_MS;
        boolean lagBad = dispatchLagP99Ms > TrustCheck.DISPATCH_LAG_P99_LIMIT_MS
                && laggedRequests >= TrustCheck.MIN_LAGGED_REQUESTS;
        boolean cpuBad = cpuLoad > TrustCheck.CPU_LOAD_LIMIT;
        boolean waitBad = runQueueWaitMs > TrustCheck.RUN_QUEUE_WAIT_LIMIT_MS
                && runQueueSlices >= TrustCheck.MIN_RUN_QUEUE_SLICES;
        boolean saturated = hiccupBad || lagBad || cpuBad || waitBad;
        double share = Math.max(hiccupShare, Double.isNaN(lagShareOverLimit) ? 0 : lagShareOverLimit);
        double upTo = Math.max(0, Math.min(99.9, floorTo(100 * (1 - share), 1)));
        if (waitBad) {
            upTo = Math.min(upTo, TrustCheck.RUN_QUEUE_TRUSTED_UP_TO);
        }
        // without a successful request there is no latency whose percentiles could be trusted or not
        double trustedUpTo = !latencies ? Double.NaN : saturated ? upTo : 100;
        String message;
        if (saturated) {
            StringBuilder why = new StringBuilder();
            if (hiccupBad || !lagBad && !cpuBad && !waitBad) {
                why.append(String.format(Locale.ROOT, "hiccup P99 = %s", ms(p99)));
                if (!Double.isNaN(cpuLoad) && cpuLoad < BUSY_ELSEWHERE_BELOW) {
                    // the process could not run on time although it asked for little CPU: the cores were busy with
                    // something else (another program, or a test suite beside the run)
                    why.append(String.format(Locale.ROOT, " while the client used only %.0f %% of all CPU cores:"
                            + " other load on this machine held it up", cpuLoad * 100));
                }
            }
            if (lagBad) {
                why.append(why.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT,
                        "%s = %s%s (the client fell behind its schedule)", lagName, ms(dispatchLagP99Ms),
                        lagNote));
            }
            if (cpuBad) {
                why.append(why.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT,
                        "the client used %.0f %% of all CPU cores", cpuLoad * 100));
            }
            if (waitBad) {
                why.append(why.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT,
                        "its request threads waited %s on average for a CPU each time they ran (run-queue wait,"
                                + " limit %s: too many request threads for the cores, or other load on them)",
                        ms(runQueueWaitMs), ms(TrustCheck.RUN_QUEUE_WAIT_LIMIT_MS)));
            }
            if (!waitBad && !Double.isNaN(runQueueWaitMs)) { // named, though not what decided the verdict
                why.append(String.format(Locale.ROOT, "; run-queue wait %s per time slice%s", ms(runQueueWaitMs),
                        runQueueSlices < TrustCheck.MIN_RUN_QUEUE_SLICES ? String.format(Locale.ROOT,
                                " (over %d time slices: too few to judge)", runQueueSlices) : ""));
            }
            message = latencies
                    ? String.format(Locale.ROOT, "client saturated: latencies above P%s are not trustworthy; %s",
                    trim(trustedUpTo), why)
                    : String.format(Locale.ROOT, "client saturated (no latency to qualify:"
                    + " none was measured); %s", why);
        } else {
            boolean fewLagged = dispatchLagP99Ms > TrustCheck.DISPATCH_LAG_P99_LIMIT_MS;
            message = String.format(Locale.ROOT, "client kept up: hiccup P99 = %s, max %s%s%s", ms(p99), ms(max),
                    Double.isNaN(dispatchLagP99Ms) ? "" : ", " + lagName + " = " + ms(dispatchLagP99Ms) + lagNote
                            + (fewLagged ? String.format(Locale.ROOT, " (only %d request%s more than %s late: too few"
                            + " to call the client saturated)", laggedRequests, laggedRequests == 1 ? "" : "s",
                            ms(TrustCheck.DISPATCH_LAG_P99_LIMIT_MS)) : ""),
                    Double.isNaN(cpuLoad) ? "" : String.format(Locale.ROOT, ", CPU %.0f %% of all cores",
                            cpuLoad * 100))
                    + (Double.isNaN(runQueueWaitMs) ? "" : ", run-queue wait " + ms(runQueueWaitMs) + " per time slice"
                    + (runQueueSlices < TrustCheck.MIN_RUN_QUEUE_SLICES ? String.format(Locale.ROOT,
                    " (over %d time slices: too few to judge)", runQueueSlices) : ""));
        }
        return new TrustCheck(p50, p99, max, n, dispatchLagP99Ms, cpuPerRequestMs, cpuLoad, trustedUpTo, saturated,
                message, runQueueWaitMs);
    }

    private static double floorTo(double v, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.floor(v * f) / f;
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String ms(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v > 0 && v < 0.01) {
            return String.format(Locale.ROOT, "%.3f ms", v);
        }
        return v < 10 ? String.format(Locale.ROOT, "%.2f ms", v) : String.format(Locale.ROOT, "%.0f ms", v);
    }

    /** @return CPU time used by this process so far, ns, or -1 when the platform does not say */
    public static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }
}
