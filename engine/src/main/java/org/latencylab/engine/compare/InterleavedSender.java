package org.latencylab.engine.compare;

import org.latencylab.engine.client.RequestThreads;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Sends the same workload to several endpoints interleaved round-robin: round r sends one request to every
 * endpoint, starting with endpoint {@code r mod N} (the order rotates so no endpoint is always first after a
 * pause), and {@code concurrency} workers take the jobs in that order. Slow drift of the network or the client
 * machine therefore touches every endpoint alike. Requests are labelled {@code <step>/<endpoint name>} and
 * recorded with {@link StepContext#finished} as they end. Not instantiable; thread-safe.
 */
public final class InterleavedSender {
    private static final long POLL_MILLIS = 50;

    private InterleavedSender() {
    }

    /**
     * @param endpoints    endpoints by name, in order
     * @param rounds       requests per endpoint, &gt;= 0
     * @param concurrency  requests in flight at once over all endpoints, &gt;= 1
     * @param warmup       unrecorded requests per endpoint sent first (connections, JIT), &gt;= 0
     * @param label        step label; each record gets {@code label + "/" + endpoint name}
     * @param contextTokens prompt tokens intended (for the records)
     * @param request      builds the next request (called on worker threads)
     * @param client       the client to send with
     * @param ctx          the run's services
     * @return each endpoint's records in the order they ended
     * @throws InterruptedException when the calling thread is interrupted
     */
    public static Map<String, List<RequestRecord>> send(Map<String, Endpoint> endpoints, int rounds, int concurrency,
                                                        int warmup, String label, int contextTokens,
                                                        Supplier<GenerationRequest> request, LlmClient client,
                                                        StepContext ctx) throws InterruptedException {
        List<String> names = List.copyOf(endpoints.keySet());
        int n = names.size();
        Map<String, List<RequestRecord>> out = new LinkedHashMap<>();
        names.forEach(name -> out.put(name, java.util.Collections.synchronizedList(new ArrayList<>())));
        for (int w = 0; w < warmup && !ctx.cancelled(); w++) {
            for (String name : names) {
                client.execute(endpoints.get(name), request.get(), new RequestTicket(0, label + "-warmup",
                        contextTokens, System.nanoTime()));
            }
        }
        int total = rounds * n;
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < Math.min(concurrency, Math.max(1, total)); w++) {
            workers.add(RequestThreads.startWorker("latencylab-" + label + "-" + w, () -> {
                while (!ctx.cancelled() && !Thread.currentThread().isInterrupted()) {
                    int job = next.getAndIncrement();
                    if (job >= total) {
                        return;
                    }
                    int round = job / n;
                    String name = names.get((round + job % n) % n);
                    long intended = System.nanoTime();
                    GenerationRequest req = request.get();
                    RequestTicket ticket = new RequestTicket(ctx.nextRequestId(), label + "/" + name, contextTokens,
                            intended);
                    ctx.inFlight(+1);
                    RequestRecord r;
                    try {
                        r = client.execute(endpoints.get(name), req, ticket);
                    } finally {
                        ctx.inFlight(-1);
                    }
                    ctx.finished(r);
                    out.get(name).add(r);
                }
            }));
        }
        try {
            for (Thread t : workers) {
                while (!t.join(Duration.ofMillis(POLL_MILLIS))) {
                    if (ctx.cancelled()) {
                        workers.forEach(Thread::interrupt);
                    }
                }
            }
        } catch (InterruptedException e) {
            workers.forEach(Thread::interrupt);
            throw e;
        }
        Map<String, List<RequestRecord>> copy = new LinkedHashMap<>();
        out.forEach((k, v) -> {
            synchronized (v) {
                copy.put(k, List.copyOf(v));
            }
        });
        return copy;
    }
}
