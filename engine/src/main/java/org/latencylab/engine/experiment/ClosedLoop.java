package org.latencylab.engine.experiment;

import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Closed-loop driver used by probes and sweeps: {@code concurrency} virtual threads, each sending its next
 * request as soon as its previous one ended, until {@code total} requests have been sent. In a closed loop the
 * intended start is the moment a worker is ready to send, so it equals the send time up to the client's own
 * dispatch cost. Cancellation interrupts the workers; their in-flight requests end as CANCELLED records.
 *
 * <p>Not instantiable; thread-safe.
 */
final class ClosedLoop {
    private static final long POLL_MILLIS = 50;

    private ClosedLoop() {
    }

    /**
     * @param total         requests to send, >= 0
     * @param concurrency   workers, >= 1
     * @param label         request label
     * @param contextTokens prompt tokens intended, or -1
     * @param requestFor    builds the i-th request (i from 0), called on the worker thread before its intended start
     * @param record        whether results go to {@link StepContext#finished} (false for warmup)
     * @param ctx           run services
     * @return the records in the order they finished
     * @throws InterruptedException when the calling thread is interrupted
     */
    static List<RequestRecord> run(int total, int concurrency, String label, int contextTokens,
                                   IntFunction<GenerationRequest> requestFor, boolean record, StepContext ctx)
            throws InterruptedException {
        GenerationRequest first = total > 0 ? requestFor.apply(0) : null;
        if (first != null && !ctx.cancelled()) {
            ctx.openConnections(Math.min(concurrency, total), first.stream());
        }
        List<RequestRecord> done = Collections.synchronizedList(new ArrayList<>(total));
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        int n = Math.min(concurrency, Math.max(total, 1));
        for (int w = 0; w < n; w++) {
            workers.add(Thread.ofVirtual().name("latencylab-" + label + "-" + w).start(() -> {
                while (!ctx.cancelled() && !Thread.currentThread().isInterrupted()) {
                    int i = next.getAndIncrement();
                    if (i >= total) {
                        return;
                    }
                    GenerationRequest req = i == 0 ? first : requestFor.apply(i);
                    long id = record ? ctx.nextRequestId() : 0;
                    RequestTicket ticket = new RequestTicket(id, label, contextTokens, System.nanoTime());
                    RequestRecord r;
                    ctx.inFlight(+1);
                    try {
                        r = ctx.send(req, ticket);
                    } catch (InterruptedException e) {
                        return;
                    } finally {
                        ctx.inFlight(-1);
                    }
                    if (record) {
                        ctx.finished(r);
                    }
                    done.add(r);
                }
            }));
        }
        try {
            for (Thread t : workers) {
                while (!t.join(java.time.Duration.ofMillis(POLL_MILLIS))) {
                    if (ctx.cancelled()) {
                        workers.forEach(Thread::interrupt);
                    }
                }
            }
        } catch (InterruptedException e) {
            workers.forEach(Thread::interrupt);
            throw e;
        }
        synchronized (done) {
            return new ArrayList<>(done);
        }
    }
}
