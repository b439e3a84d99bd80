package org.latencylab.engine.sim;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Warms a simulator process's own request path before it says it is ready: streams small requests over loopback,
 * with the JDK's {@link HttpClient}, to a throw-away in-process simulator of the {@code zero-latency} profile (so that
 * the served simulator's metrics and random streams are untouched), until the just-in-time compiler has compiled
 * the handler, the dialects and the event writer.
 *
 * <p>Why: a freshly started {@code latencylab sim} answered an open loop of 300 requests/s with a TTFT P99 of 48 ms
 * in its first second (its handler code still interpreted), against 2–4 ms once warm; a benchmark started right after
 * the simulator measured the simulator's start, not the client. Turned off with the system property
 * {@code latencylab.jitWarmUp=false} (as the client's own warm-up; the test suites do).
 *
 * <p>Not thread-safe; called once, before serving.
 */
final class SimWarmUp {
    /** Requests sent at most. */
    static final int REQUESTS = 2_000;
    /** Wall-clock limit, ms: on a slow or busy machine the warm-up stops here, whatever was reached. */
    static final long LIMIT_MILLIS = 1_500;
    /** Requests in flight at once. */
    static final int CONCURRENCY = 4;
    private static final String BODY = "{\"model\":\"warm-up\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"Warm up the simulator\"}],\"max_tokens\":8,\"stream\":%s}";

    private SimWarmUp() {
    }

    /** @return whether to warm up (the system property {@code latencylab.jitWarmUp} is not {@code false}) */
    static boolean enabled() {
        return !"false".equals(System.getProperty("latencylab.jitWarmUp"));
    }

    /**
     * Runs the warm-up; failures are ignored (a failed warm-up only leaves the first requests slower).
     *
     * @return requests answered with status 200
     */
    static int run() {
        SimServer sim;
        try {
            sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.builder().build());
        } catch (RuntimeException e) {
            return 0;
        }
        try (sim; HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            URI uri = URI.create(sim.baseUrl() + "/v1/chat/completions");
            long deadline = System.nanoTime() + LIMIT_MILLIS * 1_000_000L;
            AtomicInteger next = new AtomicInteger();
            AtomicInteger ok = new AtomicInteger();
            // close() waits for every worker (and stops them if this thread is interrupted meanwhile)
            try (ExecutorService workers = Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("latencylab-sim-warm-up-", 0).factory())) {
                for (int w = 0; w < CONCURRENCY; w++) {
                    workers.execute(() -> {
                        int i;
                        while ((i = next.getAndIncrement()) < REQUESTS && System.nanoTime() < deadline) {
                            HttpRequest request = HttpRequest.newBuilder(uri)
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(String.format(BODY, i % 8 != 0)))
                                    .build();
                            try {
                                HttpResponse<InputStream> r = http.send(request,
                                        HttpResponse.BodyHandlers.ofInputStream());
                                try (InputStream body = r.body()) {
                                    body.transferTo(java.io.OutputStream.nullOutputStream());
                                }
                                if (r.statusCode() == 200) {
                                    ok.incrementAndGet();
                                }
                            } catch (IOException e) {
                                // ignored: the next request tries again
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                    });
                }
            }
            return ok.get();
        }
    }
}
