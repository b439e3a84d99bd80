package org.latencylab.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The policy of a measuring JVM: which options it runs with on a given JDK, for a given closed-loop concurrency and
 * target (collector, heap size, GC threads, TLABs, JIT level, thread priorities, carriers, the JDK 24+ access flags and
 * the AOT class cache). Pure apart from {@link #prioritiesReachTheSystem} (reads the process's user id) and the
 * processor count that {@link #options} reads; {@link MeasuringJvm} applies it. Not instantiable; thread-safe.
 */
final class JvmOptions {
    /**
     * Maximum heap of a measuring JVM. Generational ZGC commits heap up to this limit whenever its collections fall
     * behind the allocation rate, and committed heap is resident, so this limit, not {@link #SOFT_MAX_HEAP}, bounds
     * the footprint; the rest of the process (AOT class cache, code cache, GC structures, thread stacks, the chart
     * renderer) lies outside it. A long soak holds far less than this live; a run that keeps more (long runs at
     * hundreds of requests/s: every exact sample is kept until its step ends) takes {@code -Xmx} from the user, which
     * wins over this one: {@code java -Xmx1g -jar latencylab.jar ...} or {@code LATENCYLAB_JAVA_OPTS=-Xmx1g latencylab ...}.
     */
    static final String MAX_HEAP = "-Xmx" + JvmOptions.BASE_HEAP_MEGABYTES + "m";
    /** {@link #MAX_HEAP} in MB: the heap up to {@link #HEAP_BASE_CONCURRENCY} closed-loop streams. */
    static final int BASE_HEAP_MEGABYTES = 288;
    /**
     * The heap ZGC tries to stay within: it starts collecting early enough to stay below it, which leaves
     * {@link #MAX_HEAP} minus this as room for the allocations made while a collection runs, so that no thread has to
     * wait for memory (a ZGC "allocation stall").
     */
    static final String SOFT_MAX_HEAP = "-XX:SoftMaxHeapSize=192m";
    /**
     * Closed-loop concurrency up to which {@link #MAX_HEAP} is the heap; above it {@link #heapMegabytes} grows the heap
     * by 1 MB per stream. Why: a platform request thread per stream (see {@code RequestThreads}) makes every young
     * collection walk every thread's stack, and with many streams the base heap is collected back to back while the
     * waves run (ZGC's allocation-rate rule), which takes CPU from the threads that stamp; a larger heap lets the
     * measured waves run without a collection.
     */
    static final int HEAP_BASE_CONCURRENCY = 256;
    /** Largest heap {@link #heapMegabytes} chooses, MB. */
    static final int HEAP_CAP_MEGABYTES = 2048;
    /** Heap above {@link #SOFT_MAX_HEAP} kept free for allocation while a collection runs, MB. */
    static final int HEAP_HEADROOM_MEGABYTES = 96;
    /**
     * Concurrent GC threads. ZGC's default on two cores is one; on a busy machine that one thread gets too little CPU
     * to finish a collection before {@link #MAX_HEAP} is used up, and request threads then wait for memory (allocation
     * stalls, and requests timing out). Two threads take twice the share of a contended CPU; on many cores two are
     * still ample for a heap this small.
     */
    static final String GC_THREADS = "-XX:ConcGCThreads=2";
    /**
     * Thread-local allocation buffers of a fixed 16 KiB. ZGC counts a buffer as used heap when it hands it out, and
     * the JVM sizes buffers for a few threads: with a thousand request threads each holding one, the used heap jumps
     * at the start of a closed loop and ZGC's allocation-rate rule sees far more than the threads allocate, so it
     * collects back to back while the streams run. With fixed buffers the used heap follows what is really allocated;
     * together with the collection before each step's clock ({@code org.latencylab.engine.trust.QuietHeap}) no
     * collection needs to fall inside the measured window. Only for closed loops above {@value #HEAP_BASE_CONCURRENCY}
     * streams (they relaunch with a larger heap anyway, {@link #heapMegabytes}): with few streams the JVM's own sizing
     * serves the client better.
     */
    static final List<String> TLAB = List.of("-XX:-ResizeTLAB", "-XX:TLABSize=16k");
    /**
     * Just-in-time compilation with C1 only (no C2). On two cores the optimising compiler's threads take seconds of
     * CPU in the middle of a measurement, while the request threads' CPU per request is the same with C1 code; without
     * C2 the client's own share of TTFT error and dispatch lag is smaller. {@code -XX:TieredStopAtLevel=4} given by
     * the user brings C2 back.
     */
    static final String JIT = "-XX:TieredStopAtLevel=1";
    /**
     * Java thread priorities that reach Linux: priority 1 ({@link Thread#MIN_PRIORITY}) becomes nice 10, the others
     * stay as the JDK maps them (5, the normal one, is nice 0). Request threads whose responses the reader threads read
     * and stamp, and the threads that only keep books (results, the requests log, snapshots), run at priority 1
     * ({@code RequestThreads.PARSING_PRIORITY}); the reader threads, the hiccup meter, an open loop's dispatcher and a
     * server in another process keep nice 0, so that on a contended machine the threads that stamp run first.
     *
     * <p>Only for root ({@link #prioritiesReachTheSystem}): for other users the JVM prints a warning at every start
     * ("-XX:ThreadPriorityPolicy=1 may require system level permission"), although lowering a thread's priority needs
     * no permission; such a user may give both options themselves and accept the warning.
     */
    static final List<String> PRIORITIES = List.of("-XX:ThreadPriorityPolicy=1", "-XX:JavaPriority1_To_OSPriority=10");
    /**
     * A command (not the window) ends at its first {@link OutOfMemoryError}, with exit status 3 and the JVM's line
     * {@code Terminating due to java.lang.OutOfMemoryError: Java heap space} on stderr: a JVM that ran out of heap in
     * some threads would keep running without them, never end and ignore SIGTERM. What a run wrote until then stays
     * in its files; its {@code run.json} has no summary.
     */
    static final String EXIT_ON_OUT_OF_MEMORY = "-XX:+ExitOnOutOfMemoryError";

    /**
     * The options a measuring JVM should run with on a JDK of the given feature version.
     *
     * @param feature {@link Runtime.Version#feature()}, e.g. 21 or 25
     * @param aotCache an AOT cache file to use (JDK 25+ only), or null
     * @return JVM options in order; never null
     */
    static List<String> options(int feature, Path aotCache) {
        return options(feature, aotCache, 1);
    }

    /**
     * The options of a measuring JVM whose command runs closed loops of up to {@code concurrency} streams.
     *
     * @param feature     {@link Runtime.Version#feature()}, e.g. 21 or 25
     * @param aotCache    an AOT cache file to use (JDK 25+ only), or null
     * @param concurrency the largest closed-loop concurrency of the command ({@link MeasuringJvm#concurrency}), >= 1
     * @return JVM options in order; never null
     */
    static List<String> options(int feature, Path aotCache, int concurrency) {
        return options(feature, aotCache, concurrency, false);
    }

    /**
     * The options of a measuring JVM, or of a simulator process.
     *
     * <p>A standalone simulator ({@code sim}, also the one {@code calibrate} starts) runs without {@link #JIT}: it
     * measures nothing itself, it serves other processes, and C2's code roughly halves its CPU per request, which on
     * a shared machine is CPU the measuring client gets back. Its
     * warm-up waits for C2 before it says it is ready ({@code SimWarmUp}).
     *
     * @param feature     {@link Runtime.Version#feature()}, e.g. 21 or 25
     * @param aotCache    an AOT cache file to use (JDK 25+ only), or null
     * @param concurrency the largest closed-loop concurrency of the command ({@link MeasuringJvm#concurrency}), >= 1
     * @param simulator   true for a standalone {@code sim}: the JVM's own tiered compilation instead of {@link #JIT}
     *                    (see above)
     * @return JVM options in order; never null
     */
    static List<String> options(int feature, Path aotCache, int concurrency, boolean simulator) {
        return options(feature, aotCache, concurrency, simulator, prioritiesReachTheSystem());
    }

    /**
     * As {@link #options(int, Path, int, boolean)}, with {@link #PRIORITIES} or without.
     *
     * @param priorities whether to add {@link #PRIORITIES} (not for a standalone simulator, whose threads all serve)
     * @return JVM options in order; never null
     */
    static List<String> options(int feature, Path aotCache, int concurrency, boolean simulator, boolean priorities) {
        List<String> o = new ArrayList<>();
        if (priorities && !simulator) {
            o.addAll(PRIORITIES);
        }
        o.add("-XX:+UseZGC");
        if (feature < 23) {
            o.add("-XX:+ZGenerational"); // the default from JDK 23 on, deprecated there
        }
        o.addAll(heapOptions(concurrency));
        o.add(GC_THREADS);
        if (concurrency > HEAP_BASE_CONCURRENCY) {
            o.addAll(TLAB); // with the heap that grows above this concurrency (see TLAB)
        }
        if (!simulator) {
            o.add(JIT);
        }
        o.add("-Djdk.virtualThreadScheduler.parallelism=" + carriers(Runtime.getRuntime().availableProcessors()));
        if (feature >= 24) {
            o.add("--enable-native-access=ALL-UNNAMED");
            o.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (aotCache != null && feature >= 25) {
            o.add("-XX:AOTCache=" + aotCache);
            o.add("-Xlog:aot=off"); // a stale cache (other JDK build) is skipped silently instead of warned about
            o.add("-Xlog:cds=off");
        }
        return o;
    }

    /**
     * Whether {@link #PRIORITIES} can be given without a warning: Linux (other systems map Java priorities their own
     * way) and an effective user id of 0, read from {@code /proc/self/status}.
     *
     * @return false when not on Linux, not root, or the file cannot be read
     */
    static boolean prioritiesReachTheSystem() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return false;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+"); // real, effective, saved, file system
                    return ids.length > 1 && ids[1].equals("0");
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /**
     * The maximum heap for closed loops of up to {@code concurrency} streams: {@value #BASE_HEAP_MEGABYTES} MB up to
     * {@value #HEAP_BASE_CONCURRENCY} streams, then 1 MB more per stream, at most {@value #HEAP_CAP_MEGABYTES} MB
     * (the reasons and figures are at {@link #HEAP_BASE_CONCURRENCY}). ZGC commits heap as it is used, so a larger limit
     * costs memory only when the run allocates it.
     *
     * @param concurrency closed-loop streams in flight at once; values below 1 count as 1
     * @return megabytes, 288 to {@value #HEAP_CAP_MEGABYTES}
     */
    static int heapMegabytes(int concurrency) {
        return concurrency <= HEAP_BASE_CONCURRENCY ? BASE_HEAP_MEGABYTES
                : (int) Math.min(HEAP_CAP_MEGABYTES, (long) BASE_HEAP_MEGABYTES + concurrency - HEAP_BASE_CONCURRENCY);
    }

    /**
     * The notice for a heap the user chose (with {@code -Xmx} or {@code -XX:MaxHeapSize}, on the command line or in
     * {@code LATENCYLAB_JAVA_OPTS}) that is smaller than {@link #heapMegabytes} for the command's closed-loop
     * concurrency. The user's heap is kept; the notice says what may follow. Up to {@value #HEAP_BASE_CONCURRENCY}
     * streams nothing is said: the heap does not depend on the concurrency there.
     *
     * @param concurrency  the largest closed-loop concurrency of the command ({@link MeasuringJvm#concurrency})
     * @param maxHeapBytes the heap limit in effect ({@link Runtime#maxMemory()}), bytes
     * @return one line for stderr, e.g. {@code latencylab: note: heap 400 MB given; a 1,024-stream run needs about
     *         1,056 MB: garbage collection may show in the latencies ...}, or empty when the heap is large enough
     *         (within 16 MB, as the JVM rounds the limit) or the concurrency does not size the heap
     */
    static Optional<String> heapNotice(int concurrency, long maxHeapBytes) {
        long givenMb = maxHeapBytes / (1024 * 1024);
        int needMb = heapMegabytes(concurrency);
        if (concurrency <= HEAP_BASE_CONCURRENCY || needMb <= givenMb + 16) {
            return Optional.empty();
        }
        return Optional.of(String.format(java.util.Locale.ROOT, "latencylab: note: heap %,d MB given; a %,d-stream run"
                + " needs about %,d MB: garbage collection may show in the latencies (give -Xmx%dm, or leave -Xmx out"
                + " and LatencyLab sizes the heap itself)", givenMb, concurrency, needMb, needMb));
    }

    /**
     * @param concurrency closed-loop streams in flight at once
     * @return {@code -Xmx} and {@code -XX:SoftMaxHeapSize} for it: {@link #MAX_HEAP} and {@link #SOFT_MAX_HEAP} up to
     *         {@value #HEAP_BASE_CONCURRENCY} streams, else {@link #heapMegabytes} and that less
     *         {@value #HEAP_HEADROOM_MEGABYTES} MB
     */
    static List<String> heapOptions(int concurrency) {
        int mb = heapMegabytes(concurrency);
        if (mb == BASE_HEAP_MEGABYTES) {
            return List.of(MAX_HEAP, SOFT_MAX_HEAP);
        }
        return List.of("-Xmx" + mb + "m", "-XX:SoftMaxHeapSize=" + (mb - HEAP_HEADROOM_MEGABYTES) + "m");
    }

    /**
     * Carrier threads for virtual threads: four per core, at least 8. With one carrier per core (the JDK default) a
     * virtual thread whose socket read has completed waits until a carrier is free, and a carrier busy with a long
     * piece of work (a prompt, a summary, a burst of parsing) is never preempted; with more carriers than cores the
     * operating system time-slices them, so the thread that stamps a read runs within a scheduler slice.
     *
     * @param cores available processors
     * @return the carrier count
     */
    static int carriers(int cores) {
        return Math.max(8, 4 * cores);
    }

    private JvmOptions() {
    }
}
