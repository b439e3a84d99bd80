package org.latencylab.engine.trust;

/**
 * Collects the heap right before a step's clock starts, so that the garbage collector has as little as possible to do
 * while requests are timed.
 *
 * <p>Why: a concurrent collector (the measuring JVM runs generational ZGC) pauses the request threads for well under
 * a millisecond, but its worker threads still take CPU from them, and on two cores that CPU comes out of the stamps.
 * The set-up before a step (the client's warm-up, the connections opened with small requests, the stacks of a closed
 * loop's threads) leaves the heap fuller than the step's own allocations would, and ZGC then collected during the
 * measurement: against {@code shared/bench}'s truth server, {@code probe -n 2048 -c 1024} on this 2-core machine, ZGC's
 * threads took 43 % of the client's CPU samples while the waves ran ({@code perf record}), and in four of five runs
 * 1–8 collections overlapped the measured window. With this collection (and the fixed thread-local allocation buffers of the measuring
 * JVM, see {@code MeasuringJvm.TLAB}) none fell inside it; the figures are in the README ("How accurate is
 * LatencyLab").
 *
 * <p>{@link System#gc()} asks the JVM for a full collection and returns when it is done: with ZGC a concurrent major
 * collection whose pauses are each below a millisecond, 0.1–0.5 s in all with 300–1,024 request threads on two cores.
 * It does nothing when the JVM was started with {@code -XX:+DisableExplicitGC}. Turned off with the system property
 * {@value #PROPERTY}{@code =false}.
 *
 * <p>Not instantiable; thread-safe.
 */
public final class QuietHeap {
    /** System property that turns the collection off ({@code false}). */
    public static final String PROPERTY = "latencylab.gcBeforeClock";

    private QuietHeap() {
    }

    /** @return false when the system property {@value #PROPERTY} is {@code false} */
    public static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, ""));
    }

    /**
     * @return true when the JVM runs ZGC, whose full collection is concurrent; with another collector (G1 in tests, or
     *         one the user chose) {@link System#gc()} stops every thread for tens of ms, which the step's hiccup meter
     *         would then count against the client
     */
    static boolean concurrentCollector() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .anyMatch(b -> b.getName().startsWith("ZGC"));
    }

    /**
     * Collects the heap now, under ZGC only and unless turned off. Blocks the caller until the collection is done.
     * Call it before a clock starts, never while requests are timed. Throws nothing.
     *
     * @return the time spent, ms (0 when turned off or under another collector)
     */
    public static double collectBeforeClock() {
        if (!enabled() || !concurrentCollector()) {
            return 0;
        }
        long t0 = System.nanoTime();
        System.gc();
        return (System.nanoTime() - t0) / 1e6;
    }
}
