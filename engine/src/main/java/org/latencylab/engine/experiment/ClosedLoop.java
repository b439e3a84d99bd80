package org.latencylab.engine.experiment;

import org.latencylab.engine.client.RequestThreads;
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
    /** Prompts of a step are built in advance up to this many tokens in all (a few seconds of tokenizer work at most). */
    private static final long PREBUILT_PROMPT_TOKENS = 1_000_000L;

    private ClosedLoop() {
    }

    /**
     * @param total         requests to send, >= 0
     * @param concurrency   workers, >= 1
     * @param label         request label
     * @param contextTokens prompt tokens intended, or -1
     * @param requestFor    builds the i-th request (i from 0): all of them before the first is sent when their prompts
     *                      total at most 1 M tokens, else each on its worker thread before its intended start
     * @param record        whether results go to {@link StepContext#finished} (false for warmup)
     * @param ctx           run services
     * @return the records in the order they finished
     * @throws InterruptedException when the calling thread is interrupted
     */
    static List<RequestRecord> run(int total, int concurrency, String label, int contextTokens,
                                   IntFunction<GenerationRequest> requestFor, boolean record, StepContext ctx)
            throws InterruptedException {
        GenerationRequest first = total > 0 ? requestFor.apply(0) : null;
        // prompts are built before the measurement when they fit in memory: building one (a unique prefix, exact
        // token counts) costs tokenizer work that would otherwise compete with the requests being timed
        GenerationRequest[] prepared = null;
        if (first != null && (long) total * Math.max(1, first.promptTokens()) <= PREBUILT_PROMPT_TOKENS) {
            prepared = new GenerationRequest[total];
            prepared[0] = first;
            for (int i = 1; i < total && !ctx.cancelled(); i++) {
                prepared[i] = requestFor.apply(i);
            }
        }
        GenerationRequest[] ready0 = prepared;
        List<RequestRecord> done = Collections.synchronizedList(new ArrayList<>(total));
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        int n = Math.min(concurrency, Math.max(total, 1));
        // every worker first opens its own connection (and warms the client), then all start together
        java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(n);
        for (int w = 0; w < n; w++) {
            workers.add(RequestThreads.startWorker("latencylab-" + label + "-" + w, () -> {
                if (first != null && !ctx.cancelled()) {
                    ctx.warmConnection(first.stream());
                }
                ready.countDown();
                try {
                    ready.await();
                } catch (InterruptedException e) {
                    return;
                }
                while (!ctx.cancelled() && !Thread.currentThread().isInterrupted()) {
                    int i = next.getAndIncrement();
                    if (i >= total) {
                        return;
                    }
                    GenerationRequest req = ready0 != null && ready0[i] != null ? ready0[i]
                            : i == 0 ? first : requestFor.apply(i);
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
