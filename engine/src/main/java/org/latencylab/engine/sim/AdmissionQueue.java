package org.latencylab.engine.sim;

import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * At most {@code maxRunningSeqs} sequences run; the rest wait first-in first-out (a fair {@link Semaphore}).
 * Thread-safe.
 */
final class AdmissionQueue {
    private final Semaphore slots;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();

    /** @param maxRunningSeqs slots, >= 1 */
    AdmissionQueue(int maxRunningSeqs) {
        slots = new Semaphore(maxRunningSeqs, true);
    }

    /**
     * Takes a slot, waiting in arrival order when none is free.
     *
     * @return whether the caller had to wait
     * @throws InterruptedException when the server is closing
     */
    boolean admit() throws InterruptedException {
        boolean waited = false;
        // a fair semaphore's tryAcquire() barges; only take a free slot when nobody is queued
        if (slots.hasQueuedThreads() || !slots.tryAcquire()) {
            waited = true;
            waiting.incrementAndGet();
            try {
                slots.acquire();
            } finally {
                waiting.decrementAndGet();
            }
        }
        running.incrementAndGet();
        return waited;
    }

    /** Frees the slot taken by {@link #admit()}; call exactly once per admission. */
    void release() {
        running.decrementAndGet();
        slots.release();
    }

    /** @return sequences running now, >= 0 */
    int running() {
        return running.get();
    }

    /** @return requests waiting for a slot now, >= 0 */
    int waiting() {
        return waiting.get();
    }
}
