package org.latencylab.engine.load;

import org.latencylab.engine.tuning.TuningProperties;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.RequestThreads;
import org.latencylab.engine.step.ClosedLoop;
import org.latencylab.engine.step.StepContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The state of one execution of a {@link LoadSpec}: schedules, dispatches, caps, deadlines, drains and accounts.
 * Created and used by {@link LoadStepRunner} for one call; its methods run on the step thread, a dispatcher
 * thread, request threads and one timer thread, and are safe for that. An open loop without caps shares its schedule
 * with its request threads (see "open loop, shared schedule" below).
 */
final class LoadRun {
    static final long POLL_NANOS = 20_000_000L;
    static final long LEAD_NANOS = 20_000_000L;

    final LoadSpec spec;
    final String label;
    final StepContext ctx;
    final Executor launcher;
    /** What runs an open loop's requests: {@code launcher}, or LatencyLab's request threads when it is null. */
    final Executor openLauncher;
    final FirstTokenHook hook;
    final LoadMeter meter;
    final ScheduledThreadPoolExecutor timer;
    final long startNanos;
    final long endNanos;
    final long warmupEndNanos;
    final long cooldownStartNanos;
    final long maxRequests;
    final long rateCapGapNanos;
    final Semaphore inFlightCap;
    final RateProfile profile;
    final GenerationRequest sharedRequest;
    final Set<InFlight> running = ConcurrentHashMap.newKeySet();
    final AtomicInteger active = new AtomicInteger();
    final AtomicLong claimed = new AtomicLong();
    final AtomicLong nextSlotNanos = new AtomicLong(Long.MIN_VALUE);
    final Object tickLock = new Object();
    volatile String stopReason;
    /**
     * Requests of a step that failed to connect ({@link ErrorKind#CONNECTION}: refused, unreachable) in a row from its
     * start, before any got an answer, after which the step stops: nothing listens at the endpoint, and a 10-minute
     * soak would otherwise spend its whole duration collecting the same error. A slow server (timeouts) or one that
     * answers with errors is not stopped by this.
     */
    static final int NO_SERVER_AFTER = 20;
    final AtomicInteger connectFailuresInARow = new AtomicInteger();
    /** Whether any request of the step got an answer (or ended otherwise than failing to connect). */
    volatile boolean answered;
    /**
     * An open loop without a {@code maxInFlight} of its own stops when this many of its requests are in flight at
     * once ({@link #OVERLOAD_IN_FLIGHT}, or the system property {@code latencylab.overloadInFlight}).
     */
    final int overloadInFlight;
    /** Set when the drain timeout ran out and the requests still in flight are being cancelled. */
    volatile boolean drainCancelling;
    /** Measured requests (the ones the step's statistics count) that the drain cancelled. */
    final AtomicLong drainCancelledMeasured = new AtomicLong();
    /** Warmup and cooldown requests that the drain cancelled. */
    final AtomicLong drainCancelledExcluded = new AtomicLong();
    volatile long stopNanos = Long.MAX_VALUE;
    volatile long lastEndNanos;
    /** When the last measured request ended ({@link System#nanoTime()}), 0 before any did; guarded by this. */
    long lastMeasuredEndNanos;
    volatile int nextSecond;
    /** The open loop's dispatcher (and the waits the shared schedule parks in); idle in a closed loop. */
    final OpenLoopDispatcher open = new OpenLoopDispatcher(this);
    /** The open loop's schedule shared with its request threads, when {@link SharedSchedule#sharesSchedule}. */
    final SharedSchedule shared = new SharedSchedule(this);

    /**
     * Requests in flight at which an open loop without a {@code maxInFlight} stops (reason {@code overload: …}) rather
     * than keep piling up requests: 4,096, as many as the client keeps pooled request threads and connections for
     * ({@code RequestThreads.MAX_POOLED}). Why: when neither the server nor the client keeps up with the schedule,
     * every arrival adds a request in flight, until the client runs out of heap and the run never ends. Fewer with a
     * small heap
     * ({@link #overloadInFlight(long)}). A run that means to hold more in flight sets {@code maxInFlight} (and a larger
     * {@code -Xmx}).
     */
    static final int OVERLOAD_IN_FLIGHT = 4096;
    /**
     * Heap per request in flight that {@link #overloadInFlight(long)} keeps, bytes: 128 KiB, several times what the
     * client alone holds per request, because the built-in simulator in the same JVM holds the same requests and an
     * open loop still has to drain after it stopped.
     */
    static final long HEAP_PER_IN_FLIGHT_BYTES = 128 * 1024;

    /**
     * @param maxHeapBytes the JVM's heap limit ({@link Runtime#maxMemory()}), bytes
     * @return the in-flight count at which an open loop without {@code maxInFlight} stops: {@link #OVERLOAD_IN_FLIGHT}
     *         or {@code maxHeapBytes / }{@link #HEAP_PER_IN_FLIGHT_BYTES}, whichever is smaller, at least 64
     */
    static int overloadInFlight(long maxHeapBytes) {
        return (int) Math.max(64, Math.min(OVERLOAD_IN_FLIGHT, maxHeapBytes / HEAP_PER_IN_FLIGHT_BYTES));
    }

    LoadRun(LoadSpec spec, String label, StepContext ctx, Executor launcher, FirstTokenHook hook) {
        this(spec, label, ctx, launcher, hook, null);
    }

    /** The arrivals of a replay, or null when the rate profile draws them; read by the dispatcher thread only. */
    final ArrivalFeed feed;

    LoadRun(LoadSpec spec, String label, StepContext ctx, Executor launcher, FirstTokenHook hook, ArrivalFeed feed) {
        this.feed = feed;
        this.overloadInFlight = TuningProperties.overloadInFlight(overloadInFlight(Runtime.getRuntime().maxMemory()));
        this.spec = spec;
        this.label = label;
        this.ctx = ctx;
        this.launcher = launcher;
        this.openLauncher = launcher != null ? launcher : RequestThreads.pool();
        this.hook = hook;
        this.startNanos = System.nanoTime() + LEAD_NANOS;
        long startEpochMs = System.currentTimeMillis() + LEAD_NANOS / 1_000_000;
        this.endNanos = spec.duration() == null ? Long.MAX_VALUE : startNanos + spec.duration().toNanos();
        this.warmupEndNanos = startNanos + spec.warmup().toNanos();
        this.cooldownStartNanos = endNanos == Long.MAX_VALUE ? Long.MAX_VALUE : endNanos - spec.cooldown().toNanos();
        this.maxRequests = spec.requests() == null ? Long.MAX_VALUE : spec.requests();
        this.rateCapGapNanos = spec.maxRateRps() == null ? 0 : Math.max(1, Math.round(1e9 / spec.maxRateRps()));
        this.inFlightCap = spec.maxInFlight() == null ? null : new Semaphore(spec.maxInFlight());
        this.profile = spec.mode() == LoadMode.OPEN ? spec.rateProfile() : null;
        this.sharedRequest = spec.coldPrompts() ? null : request(ctx.prompt(spec.contextTokens(), false));
        try {
            this.meter = new LoadMeter(spec, label, startEpochMs, ctx.runDirectory(), ctx.tierTable());
        } catch (IOException e) {
            throw new UncheckedIOException("load step '" + label + "': cannot create interval logs in "
                    + ctx.runDirectory() + ": " + e.getMessage(), e);
        }
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "load-timer-" + label);
            t.setDaemon(true);
            t.setPriority(Thread.NORM_PRIORITY); // whoever creates it (see RequestThreads.PARSING_PRIORITY)
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    GenerationRequest request(String prompt) {
        return new GenerationRequest(prompt, spec.contextTokens(), spec.maxOutputTokens(), spec.stream(), Map.of());
    }

    LoadResult execute() throws InterruptedException {
        ScheduledFuture<?> ticker = timer.scheduleAtFixedRate(this::tick,
                startNanos + 1_000_000_000L - System.nanoTime(), 1_000_000_000L, TimeUnit.NANOSECONDS);
        ctx.targetRate(profile == null ? 0 : profile.rateAt(0));
        Thread dispatcher = null;
        ClosedLoop.Handle workers = null;
        try {
            if (spec.mode() == LoadMode.OPEN) {
                Runnable dispatch = open::dispatchOpen;
                if (shared.sharesSchedule()) {
                    shared.openSharedSchedule();
                    dispatch = shared::dispatchShared;
                }
                dispatcher = Thread.ofPlatform().daemon().priority(Thread.NORM_PRIORITY).name("load-dispatch-" + label)
                        .start(dispatch);
            } else {
                // connections were opened before the clock (LoadStepRunner); the workers all start at startNanos
                workers = ClosedLoop.start(new ClosedLoop.Options(spec.concurrency(), "load-" + label, false,
                        spec.stream(), startNanos, spec.thinkTime(), launcher), // null: a thread per worker
                        this::closedTurn,
                        () -> stopReason != null, ctx);
            }
            while (stopReason == null) {
                if (ctx.cancelled()) {
                    stop("cancelled");
                    break;
                }
                Thread.sleep(POLL_NANOS / 1_000_000);
            }
            if (dispatcher != null) {
                dispatcher.join();
            }
            shared.awaitHolders();
            drain();
            if (workers != null && !workers.awaitEnd(java.time.Duration.ofSeconds(1))) {
                // a worker that claimed a request as scheduling stopped: cancel it, it still ends as a record
                workers.halt();
                if (!workers.awaitEnd(java.time.Duration.ofSeconds(10))) {
                    ctx.notice("load step '" + label + "': closed-loop workers did not end after being stopped");
                }
            }
            if (open.droppedAtInFlightCap + open.droppedAtRateCap > 0) {
                ctx.notice("load step '" + label + "': " + open.capDropNotice());
            }
            if (drainCancelling) {
                // said once every request it cancelled has ended, so that it counts what the step's line counts
                ctx.notice(drainNotice());
            }
        } catch (InterruptedException e) {
            stop("cancelled");
            if (workers != null) {
                workers.halt();
            }
            shared.awaitHolders();
            interruptAll();
            awaitIdle(5_000_000_000L);
            throw e;
        } finally {
            ticker.cancel(false);
            timer.shutdownNow();
            timer.awaitTermination(5, TimeUnit.SECONDS);
            ctx.targetRate(0);
        }
        synchronized (tickLock) {
            long endOffset = Math.max(lastEndNanos, System.nanoTime()) - startNanos;
            while (nextSecond < endOffset / 1_000_000_000L || nextSecond * 1_000_000_000L < endOffset
                    && meter.currentHasData()) {
                rollNext();
            }
        }
        meter.close();
        // a step that ran its whole duration measured until its end, not until the moment the schedule found no
        // arrival left before the end (a window cut short by the gap to the next arrival overstates the rate)
        long schedEnd = "duration".equals(stopReason) ? endNanos : Math.min(endNanos, stopNanos);
        long measuredFrom = warmupEndNanos;
        long measuredTo = Math.min(cooldownStartNanos, schedEnd);
        double measuredSeconds = Math.max(0, measuredTo - measuredFrom) / 1e9;
        double target = 0;
        if (profile != null && measuredSeconds > 0) {
            target = (profile.expectedCount(measuredTo - startNanos) - profile.expectedCount(measuredFrom - startNanos))
                    / measuredSeconds;
        }
        double elapsed = Math.max(0, Math.max(lastEndNanos, schedEnd == Long.MAX_VALUE ? 0 : schedEnd) - startNanos)
                / 1e9;
        LoadTotals totals = meter.totals(spec.mode(), elapsed, measuredSeconds,
                goodputSeconds(measuredFrom, measuredTo, measuredSeconds), target, stopReason);
        return new LoadResult(label, totals, meter.seconds(), meter.logFiles());
    }

    /**
     * The time goodput is counted over, s. A step that ran its whole duration: the measured window (its steady state;
     * the requests sent at its end finish after it, as those sent before its start finished in it). A step whose
     * schedule stopped early (a request count, an overload or error stop, a cancel): from the window's start until
     * its last measured request ended, if that is later than the stop. Its requests were still being served after
     * the stop, and their number over the window alone would claim a rate the server never reached.
     *
     * @param measuredFrom    start of the measured window, {@link System#nanoTime()}
     * @param measuredTo      end of the measured window, {@link System#nanoTime()}
     * @param measuredSeconds the measured window's length, s
     * @return seconds, >= 0
     */
    double goodputSeconds(long measuredFrom, long measuredTo, double measuredSeconds) {
        long lastEnd;
        synchronized (this) {
            lastEnd = lastMeasuredEndNanos;
        }
        if ("duration".equals(stopReason) || lastEnd == 0 || lastEnd <= measuredTo || measuredSeconds <= 0) {
            return measuredSeconds;
        }
        return (lastEnd - measuredFrom) / 1e9;
    }

    // ---- stopping -------------------------------------------------------------------------------------------

    /** @return true when this call stopped the step, false when it had stopped already */
    synchronized boolean stop(String reason) {
        if (stopReason == null) {
            stopNanos = System.nanoTime();
            stopReason = reason;
            for (Thread t : open.waiting) {
                LockSupport.unpark(t); // parked for an arrival without a poll (shared schedule)
            }
            return true;
        }
        return false;
    }

    void drain() throws InterruptedException {
        long drainEnd = System.nanoTime() + spec.drainTimeout().toNanos();
        boolean cancelled = "cancelled".equals(stopReason);
        while (active.get() > 0 && !cancelled && System.nanoTime() < drainEnd) {
            if (ctx.cancelled()) {
                cancelled = true;
                break;
            }
            Thread.sleep(5);
        }
        if (active.get() > 0) {
            drainCancelling = !cancelled;
            interruptAll();
            awaitIdle(10_000_000_000L);
        }
    }

    /**
     * @return the notice of the requests the drain timeout cancelled, with the count the step's statistics show
     *         ({@code 12 requests were cancelled: still in flight 300 ms (drainTimeout) after scheduling stopped})
     *         and, apart, the warmup and cooldown requests it cancelled
     */
    String drainNotice() {
        long measured = drainCancelledMeasured.get();
        long excluded = drainCancelledExcluded.get();
        return "load step '" + label + "': " + measured + (measured == 1 ? " request was" : " requests were")
                + " cancelled: still in flight " + spec.drainTimeout().toMillis() + " ms (drainTimeout) after"
                + " scheduling stopped" + (excluded == 0 ? "" : "; also " + excluded + " warmup or cooldown"
                + (excluded == 1 ? " request" : " requests") + ", which the step's statistics leave out");
    }

    void interruptAll() {
        for (InFlight f : running) {
            f.interrupt(false);
        }
    }

    void awaitIdle(long maxNanos) throws InterruptedException {
        long until = System.nanoTime() + maxNanos;
        while (active.get() > 0 && System.nanoTime() < until) {
            interruptAll();
            Thread.sleep(5);
        }
        if (active.get() > 0) {
            ctx.notice("load step '" + label + "': " + active.get() + " requests did not end after being cancelled");
        }
    }

    // ---- per-second ticks -----------------------------------------------------------------------------------

    void tick() {
        try {
            synchronized (tickLock) {
                long now = System.nanoTime();
                while ((long) (nextSecond + 1) * 1_000_000_000L <= now - startNanos) {
                    rollNext();
                }
            }
            if (profile != null && stopReason == null) {
                ctx.targetRate(profile.rateAt(System.nanoTime() - startNanos));
            }
            String auto = meter.autoStopReason();
            if (auto != null && stopReason == null) {
                stop(auto);
                ctx.notice("load step '" + label + "': " + auto);
            }
        } catch (RuntimeException e) {
            ctx.notice("load step '" + label + "': per-second statistics failed: " + e);
        }
    }

    /**
     * Closes every second that has fully passed, so that an event is counted in the second it happened in even when
     * the ticker thread runs late (the ticker is scheduled, not exact). Cheap when nothing is due: one volatile read.
     */
    void rollDue() {
        long elapsed = System.nanoTime() - startNanos;
        if ((long) (nextSecond + 1) * 1_000_000_000L <= elapsed) {
            synchronized (tickLock) {
                while ((long) (nextSecond + 1) * 1_000_000_000L <= System.nanoTime() - startNanos) {
                    rollNext();
                }
            }
        }
    }

    void rollNext() {
        // nextSecond moves on only once the second is closed: rollDue's unlocked check must not see a second as
        // closed while its counters are still being read, or a request sent just after the boundary (by a thread
        // that saw the new value and skipped the lock) is counted in the second before
        int s = nextSecond;
        long from = startNanos + s * 1_000_000_000L;
        String phase;
        if (from >= Math.min(endNanos, stopNanos)) {
            phase = "drain";
        } else if (from < warmupEndNanos) {
            phase = "warmup";
        } else if (from >= cooldownStartNanos) {
            phase = "cooldown";
        } else {
            phase = "measure";
        }
        double target = profile == null || "drain".equals(phase) ? 0
                : profile.rateAt(s * 1_000_000_000L + 500_000_000L);
        LoadSecond closed;
        try {
            closed = meter.roll(s, phase, target, active.get());
        } finally {
            nextSecond = s + 1;
        }
        ctx.progress(new LoadProgress(label, closed));
    }

    // ---- closed loop ----------------------------------------------------------------------------------------

    /**
     * One turn of a closed-loop worker ({@link ClosedLoop}): checks the duration and the request count, waits at the
     * rate cap, then sends one request whose intended start is the moment the worker was ready.
     *
     * @return false when this worker is done
     */
    boolean closedTurn(int worker, long ready) {
        if (stopReason != null) {
            return false;
        }
        if (ready >= endNanos) {
            stop("duration");
            return false;
        }
        long n = claimed.incrementAndGet();
        if (n > maxRequests) {
            stop("requests");
            return false;
        }
        if (n == maxRequests) {
            stop("requests");
        }
        long capWait = 0;
        if (rateCapGapNanos > 0) {
            long atCap = System.nanoTime();
            long prev = nextSlotNanos.getAndUpdate(x -> Math.max(x, System.nanoTime()) + rateCapGapNanos);
            long slot = Math.max(prev, ready);
            while (System.nanoTime() < slot && stopReason == null) {
                LockSupport.parkNanos(Math.min(slot - System.nanoTime(), POLL_NANOS));
            }
            if (System.nanoTime() < slot) {
                return false;
            }
            if (slot > atCap) { // it waited for its slot: from its ready time on, that wait is the cap's
                capWait = System.nanoTime() - ready;
            }
        }
        runRequest(newRequest(ready, capWait, null));
        return true;
    }

    // ---- one request ----------------------------------------------------------------------------------------

    /**
     * @param intendedNanos the arrival's intended start, {@link System#nanoTime()}
     * @param capWaitNanos  how long it waited at the step's caps after its intended start, ns (0: no caps)
     * @param arrival       the replayed arrival it sends (its own lengths), or null for the step's own prompt
     */
    InFlight newRequest(long intendedNanos, long capWaitNanos, ArrivalFeed.Arrival arrival) {
        Phase phase = intendedNanos < warmupEndNanos ? Phase.WARMUP
                : intendedNanos >= cooldownStartNanos ? Phase.COOLDOWN : Phase.MEASURED;
        RequestTicket ticket = new RequestTicket(ctx.nextRequestId(), label,
                arrival != null ? arrival.promptTokens() : spec.contextTokens(), intendedNanos, phase, capWaitNanos);
        InFlight f = new InFlight(ticket, phase == Phase.MEASURED);
        f.arrival = arrival;
        active.incrementAndGet();
        running.add(f);
        ctx.inFlight(+1);
        rollDue();
        meter.dispatched(f.measured);
        return f;
    }

    void runRequest(InFlight f) {
        f.start();
        RequestRecord record;
        try {
            if (stopReason != null && "cancelled".equals(stopReason) || f.isCancelRequested()) {
                record = cancelledBeforeSend(f.ticket);
            } else {
                if (spec.firstTokenDeadline() != null && (hook.signalsFirstToken() || !spec.stream())) {
                    long delay = f.ticket.intendedStartNanos() + spec.firstTokenDeadline().toNanos()
                            - System.nanoTime();
                    f.deadline = timer.schedule(() -> f.interrupt(true), Math.max(0, delay), TimeUnit.NANOSECONDS);
                }
                ArrivalFeed.Arrival a = f.arrival;
                // a replayed arrival carries its own lengths; its prompt is cold (unique), as a trace's requests are
                // different texts, and a per-length cache of warm prompts would grow with the trace's lengths
                GenerationRequest request = a != null
                        ? new GenerationRequest(ctx.prompt(a.promptTokens(), true), a.promptTokens(),
                                a.maxOutputTokens(), spec.stream(), Map.of())
                        : sharedRequest != null ? sharedRequest : request(ctx.prompt(spec.contextTokens(), true));
                // the first token is signalled only to a deadline that needs it: without a callback the client reads
                // a stream in large pieces (fewer wake-ups; the stamps are the same)
                record = hook.send(ctx, request, f.ticket, spec.firstTokenDeadline() != null ? f::firstToken : null);
            }
        } catch (InterruptedException e) {
            record = cancelledBeforeSend(f.ticket);
        } catch (RuntimeException e) {
            record = failure(f.ticket, "the client failed: " + e);
        }
        finish(f, record);
    }

    void finish(InFlight f, RequestRecord record) {
        f.end();
        if (record.phase() != f.ticket.phase() || record.capWaitNanos() != f.ticket.capWaitNanos()) {
            // the schedule decides the phase and the wait at the caps, whatever sent the request
            RequestRecord.Builder p = record.toBuilder();
            p.phase = f.ticket.phase();
            p.capWaitNanos = f.ticket.capWaitNanos();
            record = p.build();
        }
        boolean miss = false;
        if (spec.firstTokenDeadline() != null) {
            long limit = spec.firstTokenDeadline().toNanos();
            long ft = record.firstTokenNanos();
            long intended = f.ticket.intendedStartNanos();
            boolean late = ft != RequestRecord.UNSET ? ft - intended > limit
                    : record.outcome() == Outcome.SUCCESS && record.endNanos() != RequestRecord.UNSET
                      && record.endNanos() - intended > limit;
            miss = f.deadlineFired() || late && record.outcome() != Outcome.CANCELLED;
            if (miss) {
                RequestRecord.Builder b = record.toBuilder().error(ErrorKind.TIMEOUT, "first token not within the "
                        + spec.firstTokenDeadline().toMillis() + " ms deadline from the intended start");
                if (b.endNanos == RequestRecord.UNSET) {
                    b.endNanos = System.nanoTime(); // it ended when the deadline interrupted it
                }
                record = b.build();
            }
        }
        if (drainCancelling && record.outcome() == Outcome.CANCELLED) {
            (f.measured ? drainCancelledMeasured : drainCancelledExcluded).incrementAndGet();
        }
        try {
            ctx.finished(record);
        } finally {
            rollDue();
            meter.ended(record, f.measured, miss);
            if (!answered) {
                noServerCheck(record);
            }
            long end = record.endNanos() != RequestRecord.UNSET ? record.endNanos() : System.nanoTime();
            synchronized (this) {
                lastEndNanos = Math.max(lastEndNanos, end);
                if (f.measured) {
                    lastMeasuredEndNanos = Math.max(lastMeasuredEndNanos, end);
                }
            }
            running.remove(f);
            ctx.inFlight(-1);
            if (inFlightCap != null) {
                inFlightCap.release();
            }
            active.decrementAndGet();
        }
    }

    /** Stops the step at the {@value #NO_SERVER_AFTER}th failure to connect in a row with nothing answered before. */
    void noServerCheck(RequestRecord record) {
        if (record.outcome() == Outcome.CANCELLED) {
            return;
        }
        if (record.errorKind() != ErrorKind.CONNECTION) {
            answered = true;
            return;
        }
        if (connectFailuresInARow.incrementAndGet() == NO_SERVER_AFTER) {
            String reason = "no server: its first " + NO_SERVER_AFTER + " requests all failed to connect ("
                    + record.errorMessage() + ")";
            if (stop(reason)) {
                ctx.notice("load step '" + label + "': stopped, " + reason);
            }
        }
    }

    RequestRecord cancelledBeforeSend(RequestTicket t) {
        RequestRecord.Builder b = base(t);
        b.outcome = Outcome.CANCELLED;
        b.errorMessage = "cancelled before send: the load step stopped";
        b.endNanos = System.nanoTime();
        return b.build();
    }

    RequestRecord failure(RequestTicket t, String message) {
        RequestRecord.Builder b = base(t);
        b.error(ErrorKind.PROTOCOL, message);
        b.endNanos = System.nanoTime();
        return b.build();
    }

    RequestRecord.Builder base(RequestTicket t) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = t.id();
        b.label = t.label();
        b.protocol = ctx.endpoint().protocol();
        b.contextTokens = t.contextTokens();
        b.stream = spec.stream();
        b.intendedStartNanos = t.intendedStartNanos();
        b.capWaitNanos = t.capWaitNanos();
        b.phase = t.phase();
        return b;
    }

}
