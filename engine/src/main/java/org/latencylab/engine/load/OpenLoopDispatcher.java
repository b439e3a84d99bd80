package org.latencylab.engine.load;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The dispatcher of an open-loop {@link LoadRun}: walks the arrival schedule on its own thread, sleeps until each
 * arrival's intended start, applies the step's caps ({@code maxInFlight}, {@code maxRateRps}, {@code atCap}) and the
 * overload stop, and hands each request to a request thread. Also the waits until a time or the step's stop that the
 * shared schedule ({@link SharedSchedule}) parks in. One per step; its methods run on the dispatcher thread unless
 * said otherwise.
 */
final class OpenLoopDispatcher {
    private final LoadRun run;
    /** Threads parked until an arrival's intended start without a poll ({@link #sleepUntilDueOrStop}). */
    final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
    /**
     * Arrivals dropped at the {@code maxInFlight} and at the {@code maxRateRps} cap: written by the dispatcher, read
     * after it ended.
     */
    long droppedAtInFlightCap;
    long droppedAtRateCap;

    OpenLoopDispatcher(LoadRun run) {
        this.run = run;
    }

    /**
     * @return the notice of the arrivals dropped at the step's caps ({@code atCap: drop}), with the share of the
     *         schedule they were: {@code 6,048 of 20,150 arrivals (30.0 %) were dropped at the maxInFlight cap (atCap:
     *         drop)}
     */
    String capDropNotice() {
        long dropped = droppedAtInFlightCap + droppedAtRateCap;
        long arrivals = run.claimed.get() + dropped;
        String where = droppedAtInFlightCap > 0 && droppedAtRateCap > 0
                ? String.format(java.util.Locale.ROOT, "the maxInFlight cap (%,d) and the maxRateRps cap (%,d)",
                        droppedAtInFlightCap, droppedAtRateCap)
                : droppedAtInFlightCap > 0 ? "the maxInFlight cap" : "the maxRateRps cap";
        return String.format(java.util.Locale.ROOT, "%,d of %,d arrivals (%.1f %%) were dropped at %s (atCap: drop);"
                + " the step's statistics count only the requests sent", dropped, arrivals, 100.0 * dropped / arrivals,
                where);
    }

    /**
     * @param backlog arrivals due before the end of the duration that were never sent, >= 1
     * @return why they were not: waiting at the step's own caps, or, without caps, a dispatcher behind its schedule
     */
    String backlogNotice(long backlog) {
        String caps = run.inFlightCap != null && run.rateCapGapNanos > 0 ? "the maxInFlight and maxRateRps caps"
                : run.inFlightCap != null ? "the maxInFlight cap" : run.rateCapGapNanos > 0 ? "the maxRateRps cap" : null;
        String arrivals = backlog == 1 ? "1 arrival was" : backlog + " arrivals were";
        return caps != null
                ? arrivals + " still waiting at " + caps + " when the duration ended; counted as dropped"
                : arrivals + " not sent yet when the duration ended (the client fell behind its schedule);"
                + " counted as dropped";
    }

    void dispatchOpen() {
        ArrivalSchedule drawn = run.feed != null ? null : new ArrivalSchedule(run.profile, run.spec.arrival(),
                run.spec.shape() == null ? 1 : run.spec.shape(), run.spec.seed());
        java.util.function.LongSupplier schedule = drawn != null ? drawn::next : this::nextFed;
        long waitedOut = 0; // arrivals dropped because the duration ended while they waited at the in-flight cap
        // true from an arrival that had to wait at a cap until the dispatcher is early for one again: the arrivals
        // between were reached late because of the caps' queue, and their whole delay to the cap is the cap's
        boolean capBacklog = false;
        while (run.stopReason == null) {
            long offset = schedule.getAsLong();
            if (offset == Long.MAX_VALUE || offset >= run.endNanos - run.startNanos) {
                if (waitedOut > 0) {
                    run.ctx.notice("load step '" + run.label + "': " + backlogNotice(waitedOut));
                }
                run.stop("duration");
                return;
            }
            long intended = run.startNanos + offset;
            if (System.nanoTime() >= run.endNanos) {
                // the duration ended while this arrival (and maybe more) waited at a cap: they were never sent
                long backlog = 1;
                while (schedule.getAsLong() < run.endNanos - run.startNanos) {
                    backlog++;
                }
                for (long i = 0; i < backlog; i++) {
                    run.rollDue();
                    run.meter.dropped();
                }
                run.ctx.notice("load step '" + run.label + "': " + backlogNotice(backlog + waitedOut)); // as dropped counts
                run.stop("duration");
                return;
            }
            if (System.nanoTime() < intended) {
                capBacklog = false; // early for this one: no queue at the caps holds the schedule back
            }
            if (!sleepUntil(intended)) {
                return;
            }
            rateCapWaited = false;
            boolean capWaited = false;
            if (run.inFlightCap != null) {
                if (run.spec.atCap() == CapPolicy.DROP) {
                    if (!run.inFlightCap.tryAcquire()) {
                        run.rollDue();
                        run.meter.dropped();
                        droppedAtInFlightCap++;
                        continue;
                    }
                } else if (!run.inFlightCap.tryAcquire()) {
                    capWaited = true;
                    if (!acquireQueued()) {
                        if (run.stopReason != null) {
                            return;
                        }
                        run.rollDue();
                        run.meter.dropped(); // still waiting at the cap when the duration ended
                        waitedOut++;
                        continue;
                    }
                }
            }
            if (run.rateCapGapNanos > 0 && !passRateCap(run.spec.atCap() == CapPolicy.DROP)) {
                if (run.inFlightCap != null) {
                    run.inFlightCap.release();
                }
                if (run.stopReason != null) {
                    return;
                }
                run.rollDue();
                run.meter.dropped();
                droppedAtRateCap++;
                continue;
            }
            if (run.inFlightCap == null && overloaded()) {
                return;
            }
            long n = run.claimed.incrementAndGet();
            capBacklog |= capWaited || rateCapWaited;
            launch(run.newRequest(intended, capBacklog ? System.nanoTime() - intended : 0, fed));
            if (n >= run.maxRequests) {
                run.stop("requests");
                return;
            }
        }
    }

    /** The arrival {@link #nextFed} returned last; the dispatcher thread's only. */
    private ArrivalFeed.Arrival fed;

    /**
     * @return the feed's next offset ({@link #fed} holds its arrival), {@link Long#MAX_VALUE} when it has none left;
     *         a feed that fails stops the step with its message
     */
    private long nextFed() {
        try {
            fed = run.feed.next();
        } catch (RuntimeException e) {
            fed = null;
            String reason = "the arrivals could not be read further: " + e.getMessage();
            if (run.stop(reason)) {
                run.ctx.notice("load step '" + run.label + "': " + reason);
            }
        }
        return fed == null ? Long.MAX_VALUE : fed.offsetNanos();
    }

    /**
     * Stops the step when {@link LoadRun#overloadInFlight} of its requests are in flight (said once, as a notice).
     *
     * @return true when the step is overloaded: the caller sends nothing more
     */
    boolean overloaded() {
        int inFlight = run.active.get();
        if (inFlight < run.overloadInFlight) {
            return false;
        }
        String reason = String.format(java.util.Locale.ROOT, "overload: %,d requests in flight at %.1f s (the"
                + " server or this client did not keep up with the schedule; set maxInFlight to hold more)",
                inFlight, (System.nanoTime() - run.startNanos) / 1e9);
        if (run.stop(reason)) {
            run.ctx.notice("load step '" + run.label + "': " + reason);
        }
        return true;
    }

    /** Runs a dispatched request on {@link LoadRun#openLauncher}; a refusal still ends it, as a failure, exactly once. */
    void launch(InFlight f) {
        try {
            run.openLauncher.execute(() -> run.runRequest(f));
        } catch (RuntimeException e) {
            f.start();
            run.finish(f, run.failure(f.ticket, "request could not be started: " + e));
        }
    }

    boolean acquireQueued() {
        try {
            while (run.stopReason == null && System.nanoTime() < run.endNanos) {
                if (run.inFlightCap.tryAcquire(LoadRun.POLL_NANOS, TimeUnit.NANOSECONDS)) {
                    return true;
                }
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.stop("cancelled");
            return false;
        }
    }

    /** Whether the latest {@link #passRateCap} had to wait for its slot; the dispatcher thread's only. */
    boolean rateCapWaited;

    /** @return true when the request may go now (after waiting, for QUEUE); false when dropped or stopped */
    boolean passRateCap(boolean drop) {
        long now = System.nanoTime();
        if (drop) {
            long prev = run.nextSlotNanos.get();
            if (prev > now || !run.nextSlotNanos.compareAndSet(prev, now + run.rateCapGapNanos)) {
                return false;
            }
            return true;
        }
        long prev = run.nextSlotNanos.getAndUpdate(x -> Math.max(x, now) + run.rateCapGapNanos);
        rateCapWaited = prev > now;
        return sleepUntil(Math.max(prev, now));
    }

    boolean sleepUntil(long deadlineNanos) {
        return sleepUntil(deadlineNanos, LoadRun.POLL_NANOS);
    }

    /**
     * Like {@link #sleepUntil(long)}, but parks for the whole wait: {@link LoadRun#stop} unparks the thread. For the shared
     * schedule's threads, which park for tens of milliseconds per arrival; a poll would add wake-ups.
     */
    boolean sleepUntilDueOrStop(long deadlineNanos) {
        Thread me = Thread.currentThread();
        waiting.add(me);
        try {
            return sleepUntil(deadlineNanos, Long.MAX_VALUE);
        } finally {
            waiting.remove(me);
        }
    }

    boolean sleepUntil(long deadlineNanos, long pollNanos) {
        while (true) {
            if (run.stopReason != null) {
                return false;
            }
            long wait = deadlineNanos - System.nanoTime();
            if (wait <= 0) {
                return true;
            }
            LockSupport.parkNanos(Math.min(wait, pollNanos));
            if (Thread.interrupted()) {
                run.stop("cancelled");
                return false;
            }
        }
    }
}
