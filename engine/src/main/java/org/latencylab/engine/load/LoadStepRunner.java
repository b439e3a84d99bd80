package org.latencylab.engine.load;

import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Runs a {@link LoadSpec}: schedules requests (closed or open loop), sends each on its own request thread through
 * {@link StepContext#send}, hands every record to {@link StepContext#finished} exactly once, and returns a
 * {@link LoadResult} with totals and per-second series. Writes {@code <label>.ttft.hlog},
 * {@code <label>.e2e.hlog} and {@code <label>.dispatch-lag.hlog} (HdrHistogram interval logs, one interval per
 * second, values in ns) into the run directory.
 *
 * <p>Thread-safe and stateless: per-run state lives in the call. Cancellation ({@link StepContext#cancelled()} or
 * an interrupt of the calling thread) stops scheduling within about 20 ms and interrupts in-flight requests, which
 * end as {@code cancelled} records.
 */
public final class LoadStepRunner implements StepRunner<LoadSpec> {
    private final Executor launcher;
    private final FirstTokenHook hook;

    /**
     * A runner on LatencyLab's request threads ({@link org.latencylab.engine.client.RequestThreads}: why platform
     * threads, with figures): an open loop sends each request on a thread of the request pool, a closed loop gives
     * each worker its own thread. It learns of first tokens from LatencyLab's client ({@link ClientFirstTokenHook}).
     */
    public LoadStepRunner() {
        this(null, ClientFirstTokenHook.INSTANCE);
    }

    /**
     * @param launcher starts each request's task on its own thread (open loop: per request; closed loop: per
     *                 worker); must run tasks concurrently; the open-loop dispatcher calls it, so a slow launcher
     *                 delays dispatch (that delay shows as dispatch lag); null for LatencyLab's request threads
     * @param hook     how requests are sent and first tokens signalled
     */
    public LoadStepRunner(Executor launcher, FirstTokenHook hook) {
        this.launcher = launcher;
        this.hook = Objects.requireNonNull(hook, "hook");
    }

    /** Open-loop rate of {@link #warmUp}, requests/s. */
    static final double WARM_UP_RATE_RPS = 1_000;
    /** How long {@link #warmUp} schedules requests. */
    static final java.time.Duration WARM_UP_DURATION = java.time.Duration.ofMillis(600);

    /**
     * Runs an open loop of {@value #WARM_UP_RATE_RPS} streaming requests/s (Poisson arrivals, 8 output tokens) for
     * {@link #WARM_UP_DURATION} through {@code scratch}: the dispatcher, the request pool, the deadline and meter
     * bookkeeping and the per-request end path, which the client's own warm-up does not reach. Without it they ran
     * interpreted, and were compiled, during the first second of a measured open loop.
     *
     * @param scratch the warm-up's context (an in-process simulator; records discarded)
     * @throws InterruptedException when interrupted
     */
    @Override
    public void warmUp(StepContext scratch) throws InterruptedException {
        LoadSpec spec = LoadSpec.builder().rate(WARM_UP_RATE_RPS).arrival(ArrivalProcess.POISSON)
                .duration(WARM_UP_DURATION).contextTokens(4).maxOutputTokens(8).stream(true).build();
        run(spec, "warm-up", scratch);
    }

    /**
     * Runs the step.
     *
     * @param spec    the load step
     * @param label   label of its requests (warmup / cooldown requests carry their {@link org.latencylab.engine.api.Phase})
     * @param context the run's services
     * @return a {@link LoadResult}
     * @throws InterruptedException         when the calling thread is interrupted (in-flight requests are cancelled
     *                                      and recorded first)
     * @throws java.io.UncheckedIOException when the interval logs cannot be created in the run directory
     */
    @Override
    public LoadResult run(LoadSpec spec, String label, StepContext context) throws InterruptedException {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(context, "context");
        context.openConnections(expectedInFlight(spec), spec.stream());
        context.beforeClock();
        return new LoadRun(spec, label == null ? "load" : label, context, launcher, hook).execute();
    }

    /**
     * Runs an open-loop step whose arrivals come from a feed (a trace replay) instead of its rate profile. The spec's
     * rate profile still sizes the connections opened first and is the step's target rate (give the feed's mean
     * rate); its duration and request count still end the step.
     *
     * @param spec    an open-loop load step
     * @param label   label of its requests
     * @param context the run's services
     * @param feed    the arrivals, read on the step's dispatcher thread
     * @return a {@link LoadResult}
     * @throws IllegalArgumentException     when the spec is not an open loop
     * @throws InterruptedException         when the calling thread is interrupted (in-flight requests are cancelled
     *                                      and recorded first)
     * @throws java.io.UncheckedIOException when the interval logs cannot be created in the run directory
     */
    public LoadResult runFed(LoadSpec spec, String label, StepContext context, ArrivalFeed feed)
            throws InterruptedException {
        Objects.requireNonNull(feed, "feed");
        if (spec.mode() != LoadMode.OPEN) {
            throw new IllegalArgumentException("a fed load step must be an open loop, was " + spec.mode());
        }
        context.openConnections(expectedInFlight(spec), spec.stream());
        context.beforeClock();
        return new LoadRun(spec, label == null ? "load" : label, context, launcher, hook, feed).execute();
    }

    /**
     * How many connections a load step should find open when it starts: its concurrency in a closed loop; in an open
     * loop the requests in flight at the peak rate if each took {@value #ASSUMED_LATENCY_MILLIS} ms (Little's law,
     * L = λ·W), at least 4 and at most 256 (more are opened on demand), never above {@code maxInFlight}.
     *
     * @param spec the load step
     * @return connections to open before it starts, >= 1
     */
    static int expectedInFlight(LoadSpec spec) {
        if (spec.mode() == LoadMode.CLOSED) {
            return spec.concurrency() == null ? 1 : spec.concurrency();
        }
        double peak = 0;
        for (RateProfile.Segment s : spec.rateProfile().segments()) {
            peak = Math.max(peak, Math.max(s.fromRps(), s.toRps()));
        }
        int n = (int) Math.ceil(peak * ASSUMED_LATENCY_MILLIS / 1000.0);
        n = Math.max(4, Math.min(256, n));
        return spec.maxInFlight() == null ? n : Math.max(1, Math.min(n, spec.maxInFlight()));
    }

    /** Latency assumed when sizing an open loop's connections, in milliseconds. */
    static final int ASSUMED_LATENCY_MILLIS = 50;
}
