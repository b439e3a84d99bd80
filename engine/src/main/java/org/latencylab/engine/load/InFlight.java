package org.latencylab.engine.load;

import org.latencylab.engine.api.RequestTicket;

import java.util.concurrent.ScheduledFuture;

/** One request between dispatch and its record; guards interrupts so none lands after it ended. */
final class InFlight {
    final RequestTicket ticket;
    final boolean measured;
    volatile ScheduledFuture<?> deadline;
    /** The replayed arrival it sends, or null; set before it is handed to its request thread. */
    ArrivalFeed.Arrival arrival;
    private Thread thread;
    private boolean ended;
    private boolean cancelRequested;
    private boolean firstTokenSeen;
    private boolean deadlineFired;

    InFlight(RequestTicket ticket, boolean measured) {
        this.ticket = ticket;
        this.measured = measured;
    }

    synchronized void start() {
        thread = Thread.currentThread();
    }

    synchronized boolean isCancelRequested() {
        return cancelRequested;
    }

    synchronized void firstToken() {
        firstTokenSeen = true;
    }

    synchronized boolean deadlineFired() {
        return deadlineFired;
    }

    /** @param forDeadline true when the first-token deadline fired, false for a cancel */
    synchronized void interrupt(boolean forDeadline) {
        if (ended) {
            return;
        }
        if (forDeadline) {
            if (firstTokenSeen || deadlineFired) {
                return;
            }
            deadlineFired = true;
        } else {
            cancelRequested = true;
        }
        if (thread != null) {
            thread.interrupt();
        }
    }

    void end() {
        ScheduledFuture<?> d = deadline;
        if (d != null) {
            d.cancel(false);
        }
        synchronized (this) {
            ended = true;
        }
        // no interrupt can arrive after `ended`; clear one that arrived before, so a closed-loop worker
        // thread can go on
        Thread.interrupted();
    }
}
