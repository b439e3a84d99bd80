package org.latencylab.engine.load;

import org.latencylab.engine.client.RequestThreads;

/**
 * An open loop without caps (no maxInFlight, no maxRateRps) on LatencyLab's own request threads shares its
 * schedule: a pooled request thread that has ended a request claims the earliest arrival nobody has claimed yet,
 * parks until its intended start and sends it itself. The dispatcher only sends an arrival that is due while still
 * unclaimed (every request thread busy), handing it to a request thread. Why: a hand-off from the dispatcher
 * costs two thread wake-ups per request (the dispatcher's at the arrival, then the request thread's), a claim by a
 * thread that is awake anyway costs one (its own at the arrival), and on a small machine wake-ups are a large
 * share of the client's CPU. The intended starts, and so every time measured from them, are the same
 * schedule's; a claimed arrival is sent at its time by a thread parked for it, as the dispatcher's would be.
 *
 * <p>One per open-loop step; its methods run on the step thread, the dispatcher and the request threads, and are
 * safe for that.
 */
final class SharedSchedule {
    private final LoadRun run;

    SharedSchedule(LoadRun run) {
        this.run = run;
    }

    /** What {@link #claimArrival} returns when it claimed nothing. */
    static final long NO_ARRIVAL = Long.MIN_VALUE;
    /** Guards the shared schedule's fields below. */
    final Object scheduleLock = new Object();
    /** The shared schedule; guarded by scheduleLock. */
    ArrivalSchedule sharedSchedule;
    /** The earliest arrival nobody has claimed, ns from startNanos; guarded by scheduleLock. */
    long nextOffset;
    /** Why no arrival is left to claim ({@code duration} or {@code requests}), else null; guarded by scheduleLock. */
    String scheduleEnd;
    /** Arrivals claimed, arrivals sent or dropped of those, dropped as late; guarded by scheduleLock. */
    long claimedArrivals;
    long settledArrivals;
    long lateArrivals;
    /** Threads holding a claimed arrival they have neither sent nor given up; guarded by scheduleLock. */
    int holders;

    /** @return whether this step shares its schedule with its request threads (see above) */
    boolean sharesSchedule() {
        // a replay's arrivals carry their own lengths and come from a feed read by one thread: the dispatcher
        return run.feed == null && run.launcher == null && run.inFlightCap == null && run.rateCapGapNanos == 0;
    }

    /**
     * Draws the first arrival, then puts as many pooled request threads to claiming arrivals as the step expects
     * requests in flight ({@link LoadStepRunner#expectedInFlight}); they are idle after the step's connections were
     * opened, so none is created here in the usual case. Runs on the step thread before the clock starts.
     */
    void openSharedSchedule() {
        synchronized (scheduleLock) {
            sharedSchedule = new ArrivalSchedule(run.profile, run.spec.arrival(), run.spec.shape() == null ? 1 : run.spec.shape(),
                    run.spec.seed());
            advanceLocked();
            endIfSettledLocked();
        }
        int senders = LoadStepRunner.expectedInFlight(run.spec);
        for (int i = 0; i < senders; i++) {
            RequestThreads.startPooled(this::claimAndSend);
        }
    }

    /** Draws the next arrival into {@link #nextOffset}, or ends the schedule; scheduleLock held. */
    void advanceLocked() {
        if (claimedArrivals >= run.maxRequests) {
            scheduleEnd = "requests";
            return;
        }
        long offset = sharedSchedule.next();
        if (offset == Long.MAX_VALUE || offset >= run.endNanos - run.startNanos) {
            scheduleEnd = "duration";
            return;
        }
        nextOffset = offset;
    }

    /**
     * Claims the earliest unclaimed arrival. When the duration has ended with arrivals never sent (the client fell
     * behind its schedule), those are counted as dropped, and the schedule ends.
     *
     * @param onlyIf the intended start the dispatcher parked for: claim only if that arrival is still the earliest
     *               unclaimed one, and send it even if the duration ended while the dispatcher was being woken (it
     *               reached the arrival before, as the dispatcher-only loop does when it starts to wait for one);
     *               {@link #NO_ARRIVAL} to claim whichever it is
     * @return the claimed arrival's intended start ({@link System#nanoTime()}), or {@link #NO_ARRIVAL}
     */
    long claimArrival(long onlyIf) {
        synchronized (scheduleLock) {
            if (scheduleEnd != null || run.stopReason != null
                    || onlyIf != NO_ARRIVAL && run.startNanos + nextOffset != onlyIf) {
                return NO_ARRIVAL;
            }
            if (onlyIf == NO_ARRIVAL && System.nanoTime() >= run.endNanos) {
                long late = 0;
                do {
                    late++;
                    run.rollDue();
                    run.meter.dropped();
                    claimedArrivals++;
                    settledArrivals++;
                    advanceLocked();
                } while (scheduleEnd == null);
                scheduleEnd = "duration";
                lateArrivals += late;
                endIfSettledLocked();
                return NO_ARRIVAL;
            }
            claimedArrivals++;
            holders++;
            long intended = run.startNanos + nextOffset;
            advanceLocked();
            return intended;
        }
    }

    /** A holder has sent its arrival (or dropped it): the last one ends the step when the schedule has ended. */
    void settle() {
        synchronized (scheduleLock) {
            holders--;
            settledArrivals++;
            endIfSettledLocked();
        }
    }

    /** A holder gives its arrival up: the step stopped while it waited. */
    void giveUp() {
        synchronized (scheduleLock) {
            holders--;
        }
    }

    /** Stops the step when the schedule has ended and every claimed arrival was sent or dropped; lock held. */
    void endIfSettledLocked() {
        if (scheduleEnd != null && settledArrivals == claimedArrivals && run.stop(scheduleEnd) && lateArrivals > 0) {
            run.ctx.notice("load step '" + run.label + "': " + run.open.backlogNotice(lateArrivals));
        }
    }

    /**
     * Parks until a claimed arrival's intended start, then sends it: on this thread, or, for the dispatcher, on a
     * request thread of {@link LoadRun#openLauncher}.
     *
     * @param intended the arrival's intended start, {@link System#nanoTime()}
     * @param handOff  true on the dispatcher thread
     */
    void sendClaimed(long intended, boolean handOff) {
        if (!run.open.sleepUntilDueOrStop(intended) || run.open.overloaded()) {
            giveUp();
            return;
        }
        InFlight f = run.newRequest(intended, 0, null);
        settle();
        if (!handOff) {
            run.runRequest(f);
            return;
        }
        run.open.launch(f);
    }

    /** A pooled request thread's task for the step: claims arrivals and sends them until none is left. */
    void claimAndSend() {
        for (long intended; (intended = claimArrival(NO_ARRIVAL)) != NO_ARRIVAL; ) {
            sendClaimed(intended, false);
        }
    }

    /**
     * The dispatcher of a shared schedule: parks until the earliest unclaimed arrival is due and sends it if still
     * nobody has claimed it (every request thread busy). It wakes about once per claimed round of the request threads.
     */
    void dispatchShared() {
        while (true) {
            long due;
            synchronized (scheduleLock) {
                if (scheduleEnd != null || run.stopReason != null) {
                    return;
                }
                due = run.startNanos + nextOffset;
            }
            if (System.nanoTime() >= run.endNanos) {
                claimArrival(NO_ARRIVAL); // reached after the duration's end: counted as dropped, the step ends
                return;
            }
            if (!run.open.sleepUntilDueOrStop(due)) {
                return;
            }
            long intended = claimArrival(due);
            if (intended != NO_ARRIVAL) {
                sendClaimed(intended, true);
            }
        }
    }

    /** Waits (at most 1 s) until no thread holds a claimed arrival: {@link LoadRun#stop} unparks them. */
    void awaitHolders() throws InterruptedException {
        long until = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < until) {
            synchronized (scheduleLock) {
                if (holders == 0) {
                    return;
                }
            }
            Thread.sleep(1);
        }
    }
}
