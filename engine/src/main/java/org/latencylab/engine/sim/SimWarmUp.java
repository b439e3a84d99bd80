package org.latencylab.engine.sim;

import org.latencylab.engine.tuning.TuningProperties;
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
 * with the JDK's {@link HttpClient}, to throw-away in-process simulators of the {@code zero-latency} profile (so that
 * the served simulator's metrics and random streams are untouched), until the just-in-time compiler has compiled
 * the handler, the dialects and the event writer.
 *
 * <p>Why: a freshly started {@code latencylab sim} answers its first second slowly (its handler code still
 * interpreted); a benchmark started right after the simulator would measure the simulator's start, not the client.
 * Turned off with {@code latencylab.jitWarmUp=false} ({@code TuningProperties.JIT_WARM_UP}, as the client's own
 * warm-up; the test suites do).
 *
 * <p>Requests alternate between a simulator that stamps its events and one that does not (non-streaming ones, 2 in 8,
 * go to both), so both kinds of served simulator meet compiled code.
 *
 * <p>A simulator process whose JVM runs the optimising compiler (C2: a standalone {@code latencylab sim}, see the app's
 * {@code MeasuringJvm}) gets a longer warm-up ({@link #C2_REQUESTS} requests, at most {@link #C2_LIMIT_MILLIS} ms) and
 * then waits until the JIT has settled ({@link #awaitJitSettled}): C2 compiles a method only after thousands of calls
 * and takes seconds of CPU to do it, and a simulator that said "ready" while C2 was still compiling would answer its first
 * open loop far slower than the runs after it.
 *
 * <p>Not thread-safe; called once, before serving.
 */
final class SimWarmUp {
    /** Requests sent at most when the JVM compiles with C1 only. */
    static final int REQUESTS = 2_000;
    /** Wall-clock limit with C1 only, ms: on a slow or busy machine the warm-up stops here, whatever was reached. */
    static final long LIMIT_MILLIS = 1_500;
    /** Requests sent at most when the JVM runs C2 ({@link #c2Enabled}). */
    static final int C2_REQUESTS = 8_000;
    /** Wall-clock limit of the requests when the JVM runs C2, ms. */
    static final long C2_LIMIT_MILLIS = 4_000;
    /** The JIT counts as settled once no compilation time was added for this long, ms. */
    static final long SETTLED_MILLIS = 300;
    /** Longest wait for the JIT to settle after the requests, ms. */
    static final long SETTLE_LIMIT_MILLIS = 4_000;
    /** Requests in flight at once. */
    static final int CONCURRENCY = 4;
    private static final String BODY = "{\"model\":\"warm-up\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"Warm up the simulator\"}],\"max_tokens\":8,\"stream\":%s}";

    private SimWarmUp() {
    }

    /** @return whether to warm up (the system property {@code latencylab.jitWarmUp} is not {@code false}) */
    static boolean enabled() {
        return TuningProperties.jitWarmUp();
    }

    /**
     * Runs the warm-up; failures are ignored (a failed warm-up only leaves the first requests slower).
     *
     * @return requests answered with status 200
     */
    static int run() {
        boolean c2 = c2Enabled();
        int answered = run(c2 ? C2_REQUESTS : REQUESTS, c2 ? C2_LIMIT_MILLIS : LIMIT_MILLIS);
        if (c2) {
            awaitJitSettled(SETTLED_MILLIS, SETTLE_LIMIT_MILLIS);
        }
        return answered;
    }

    /**
     * @return whether this JVM compiles with C2: HotSpot's {@code TieredStopAtLevel} is 4 (its default) and the
     *         option can be read; false under {@code -XX:TieredStopAtLevel=1} (C1 only) or on another JVM
     */
    static boolean c2Enabled() {
        try {
            var hotspot = java.lang.management.ManagementFactory.getPlatformMXBean(
                    com.sun.management.HotSpotDiagnosticMXBean.class);
            return hotspot != null && "4".equals(hotspot.getVMOption("TieredStopAtLevel").getValue());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Waits until the JVM's total compilation time ({@link java.lang.management.CompilationMXBean}) has not grown for
     * {@code quietMillis}, or {@code limitMillis} have passed. Returns at once when the JVM does not report
     * compilation time. Restores the interrupt flag and returns when interrupted.
     *
     * @param quietMillis how long compilation must stay idle, ms
     * @param limitMillis the longest wait, ms
     * @return whether the JIT settled within the limit
     */
    static boolean awaitJitSettled(long quietMillis, long limitMillis) {
        var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return false;
        }
        long deadline = System.nanoTime() + limitMillis * 1_000_000L;
        long last = jit.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            long now = jit.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= quietMillis * 1_000_000L) {
                return true;
            }
        }
        return false;
    }

    /**
     * Streams up to {@code requests} small requests, {@value #CONCURRENCY} at a time, for at most {@code limitMillis}.
     *
     * @return requests answered with status 200
     */
    static int run(int requests, long limitMillis) {
        // two throw-away simulators, one stamping its events and one not, with requests alternating between them:
        // both sides of the writer's stamping branch get compiled (a branch never taken while C2 profiled it becomes
        // a trap, and the first stamping event of `calibrate`'s simulator would deoptimise and recompile the writer)
        SimServer plain;
        SimServer stamping;
        try {
            plain = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.builder().build());
        } catch (RuntimeException e) {
            return 0;
        }
        try {
            stamping = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.builder().stamping(true).build());
        } catch (RuntimeException e) {
            plain.close();
            return 0;
        }
        try (plain; stamping; HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            URI[] uris = {URI.create(plain.baseUrl() + "/v1/chat/completions"),
                URI.create(stamping.baseUrl() + "/v1/chat/completions")};
            long deadline = System.nanoTime() + limitMillis * 1_000_000L;
            AtomicInteger next = new AtomicInteger();
            AtomicInteger ok = new AtomicInteger();
            // close() waits for every worker (and stops them if this thread is interrupted meanwhile)
            try (ExecutorService workers = Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("latencylab-sim-warm-up-", 0).factory())) {
                for (int w = 0; w < CONCURRENCY; w++) {
                    workers.execute(() -> {
                        int i;
                        while ((i = next.getAndIncrement()) < requests && System.nanoTime() < deadline) {
                            HttpRequest request = HttpRequest.newBuilder(uris[i % 2])
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(String.format(BODY, i % 8 >= 2)))
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
