package org.latencylab.engine.trust;

/**
 * Collects the heap right before a step's clock starts, so that the garbage collector has as little as possible to do
 * while requests are timed.
 *
 * <p>Why: a concurrent collector (the measuring JVM runs generational ZGC) pauses the request threads for well under
 * a millisecond, but its worker threads still take CPU from them, and on two cores that CPU comes out of the stamps.
 * The set-up before a step (the client's warm-up, the connections opened with small requests, the stacks of a closed
 * loop's threads) leaves the heap fuller than the step's own allocations would, and ZGC then collects during the
 * measurement, its threads taking CPU from the waves ({@code perf record} shows it). With this collection (and the
 * fixed thread-local allocation buffers of the measuring JVM, see {@code JvmOptions.TLAB}) no collection needs to
 * fall inside the measured window.
 *
 * <p>{@link System#gc()} asks the JVM for a full collection and returns when it is done: with ZGC a concurrent major
 * collection whose pauses are each below a millisecond, and which takes longer the more thread stacks it walks.
 * It does nothing when the JVM was started with {@code -XX:+DisableExplicitGC}.
 *
 * <p>Not instantiable; thread-safe.
 */
public final class QuietHeap {
    private QuietHeap() {
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
     * Collects the heap now, under ZGC only. Blocks the caller until the collection is done.
     * Call it before a clock starts, never while requests are timed. Throws nothing.
     *
     * @return the time spent, ms (0 under another collector)
     */
    public static double collectBeforeClock() {
        if (!concurrentCollector()) {
            return 0;
        }
        long t0 = System.nanoTime();
        System.gc();
        return (System.nanoTime() - t0) / 1e6;
    }
}
