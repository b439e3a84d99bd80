package org.latencylab.app;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes sure a measuring command runs in a JVM whose own pauses stay out of the numbers: generational ZGC (pauses
 * well below 1 ms, against 5–130 ms young-generation pauses of the default G1 seen on a 2-core machine), a bounded
 * heap, more carrier threads for virtual threads ({@link #carriers}), the JDK 24+ flags that silence JavaFX's and Maven libraries' {@code sun.misc.Unsafe} warnings, and the
 * ahead-of-time class cache next to the jar when one was built ({@code -XX:AOTCache}, JDK 25+).
 *
 * <p>A JVM's collector cannot be changed once it runs, and {@code java -jar latencylab.jar} gives no way to set JVM
 * options, so {@link #relaunchIfNeeded} starts the same command once more in a child JVM with those options (same
 * {@code java}, class path and system properties), passes the terminal through, forwards SIGTERM/SIGHUP and returns
 * the child's exit status. It does nothing when the JVM already runs ZGC (the installed launcher and the
 * {@code latencylab} script set the options themselves) with a heap large enough for the command's closed-loop
 * concurrency ({@link #heapMegabytes}; only the script's default heap is replaced, never one the user chose), for
 * commands that measure nothing ({@code --help}, {@code --version}, {@code detect}, ...), or when the environment
 * variable {@value #OPT_OUT} is set to {@code 1}. The cost is one more JVM start (about 0.2–0.4 s here), paid before
 * any clock starts.
 *
 * <p>Not instantiable; thread-safe.
 */
final class MeasuringJvm {
    /** Environment variable that switches the relaunch off ({@code 1}). */
    static final String OPT_OUT = "LATENCYLAB_NO_RELAUNCH";
    /** System property set in the child, so it never relaunches again. */
    static final String MARK = "latencylab.relaunched";
    /**
     * Maximum heap of a measuring JVM. Generational ZGC commits heap up to this limit whenever its collections fall
     * behind the allocation rate (on a busy 2-core machine, every few seconds), and committed heap is resident, so
     * this limit, not {@link #SOFT_MAX_HEAP}, bounds the footprint: with a 2 GB limit the 10-minute 200 requests/s
     * soak (client and built-in simulator in one JVM) peaked at 715 MB RSS; with 288 MB it peaked at 467–493 MB in
     * four runs (the rest, about 180–200 MB, is outside the heap: the AOT class cache, the JVM's code, code cache,
     * GC structures, thread stacks, native allocations, and the chart renderer at the end). That soak holds about
     * 85–104 MB live at its end; a run that keeps more (30 minutes or more at hundreds of requests/s: every exact sample
     * is kept until its step ends) takes {@code -Xmx} from the user, which wins over this one:
     * {@code java -Xmx1g -jar latencylab.jar ...} or {@code LATENCYLAB_JAVA_OPTS=-Xmx1g latencylab ...}.
     */
    static final String MAX_HEAP = "-Xmx" + MeasuringJvm.BASE_HEAP_MEGABYTES + "m";
    /** {@link #MAX_HEAP} in MB: the heap up to {@link #HEAP_BASE_CONCURRENCY} closed-loop streams. */
    static final int BASE_HEAP_MEGABYTES = 288;
    /**
     * The heap ZGC tries to stay within: it starts collecting early enough to stay below it, which leaves
     * {@link #MAX_HEAP} minus this as room for the allocations made while a collection runs (at about 100 MB/s in
     * the soak), so that no thread has to wait for memory (a ZGC "allocation stall").
     */
    static final String SOFT_MAX_HEAP = "-XX:SoftMaxHeapSize=192m";
    /**
     * Closed-loop concurrency up to which {@link #MAX_HEAP} is the heap; above it {@link #heapMegabytes} grows the heap
     * by 1 MB per stream. Why: a platform request thread per stream (see {@code RequestThreads}) makes every young
     * collection walk every thread's stack, and at 1,024 streams the 288 MB heap was collected back to back while the
     * waves ran (ZGC's allocation-rate rule; live set about 40 MB). Against {@code shared/bench}'s truth server,
     * {@code probe -n 2048 -c 1024}, four runs each on this 2-core machine: in-stream error P99 17–68 ms with 288 MB
     * against 2.5–6.1 ms with 1 GB, TTFT error P99 74–243 ms against 44–79 ms, process CPU 8.1–10.6 s against
     * 5.9–7.4 s; no collection ran during the measured waves with 1 GB.
     */
    static final int HEAP_BASE_CONCURRENCY = 256;
    /** Largest heap {@link #heapMegabytes} chooses, MB. */
    static final int HEAP_CAP_MEGABYTES = 2048;
    /** Heap above {@link #SOFT_MAX_HEAP} kept free for allocation while a collection runs, MB (288 − 192). */
    static final int HEAP_HEADROOM_MEGABYTES = 96;
    /**
     * System property the launcher script ({@code latencylab}) and the installed app's launcher (jpackage's
     * {@code --java-options}) set next to the {@code -Xmx} they pass as their default (not the user's), so a
     * high-concurrency command may still get a larger heap ({@link #relaunchIfNeeded}, {@link #defaultHeap}).
     */
    static final String DEFAULT_HEAP_MARK = "latencylab.defaultHeap";
    /**
     * Concurrent GC threads. ZGC's default on two cores is one; on a busy machine that one thread got too little CPU
     * to finish a collection before {@link #MAX_HEAP} was used up, and request threads waited for memory: in a soak
     * started while the machine's load average was 12, 2,694 ZGC allocation stalls of up to 1.5 s in its first
     * minute and 254 requests timed out. Two threads take twice the share of a contended CPU; on many cores two are
     * still ample for a heap this small (its live set is about 100 MB).
     */
    static final String GC_THREADS = "-XX:ConcGCThreads=2";
    /**
     * Thread-local allocation buffers of a fixed 16 KiB. ZGC counts a buffer as used heap when it hands it out, and
     * the JVM sizes buffers for a few threads: with 1,024 request threads each holding one, the used heap jumped by
     * hundreds of MB at the start of a closed loop (an allocation stall at 774 MB of a 1,056 MB heap in one run)
     * and ZGC's allocation-rate rule measured GB/s where the threads allocated tens of MB/s, so it collected back to
     * back while the streams ran. With 16 KiB buffers the used heap follows what is really allocated; together with
     * the collection before each step's clock ({@code org.latencylab.engine.trust.QuietHeap}) no collection fell
     * inside the measured window of {@code probe -n 2048 -c 1024} against {@code shared/bench}'s truth server (figures
     * in the README, "How accurate is LatencyLab"). Only for closed loops above {@value #HEAP_BASE_CONCURRENCY}
     * streams (they relaunch with a larger heap anyway, {@link #heapMegabytes}): at 64 streams the fixed buffers made
     * the client slower (truth server, {@code probe -n 128 -c 64}, four alternating runs: in-stream error P99
     * 1.9–3.7 ms against 1.2–2.4 ms with the JVM's own sizing, TTFT error P99 4.6–8.9 against 3.4–18.6 ms).
     */
    static final List<String> TLAB = List.of("-XX:-ResizeTLAB", "-XX:TLABSize=16k");
    /**
     * Just-in-time compilation with C1 only (no C2). On two cores the optimising compiler's threads took 6–8 s of CPU
     * in a 15 s open-loop run, in the middle of the measurement, while the request threads' CPU per request was the
     * same with C1 code (JFR and per-thread CPU from {@code /proc}). Measured on the same build, one run each, quiet
     * machine: truth-server TTFT error P99 at C = 1 / 64 / 256 / 1,024 3.8 / 10.8 / 12.7 / 274 ms with C1 only against
     * 7.8 / 16.6 / 22.0 / 481 ms tiered; open loop against the zero-latency simulator, TTFT P99 at 300 / 1,000 /
     * 2,000 requests/s 1.8 / 3.3 / 14.0 ms against 568 / 45.9 / 54.9 ms, dispatch-lag P99 0.5 / 0.8 / 1.5 ms against
     * 2.7 / 2.6 / 2.9 ms. {@code -XX:TieredStopAtLevel=4} given by the user brings C2 back.
     */
    static final String JIT = "-XX:TieredStopAtLevel=1";
    /**
     * Java thread priorities that reach Linux: priority 1 ({@link Thread#MIN_PRIORITY}) becomes nice 10, the others
     * stay as the JDK maps them (5, the normal one, is nice 0). Request threads whose responses the reader threads read
     * and stamp, and the threads that only keep books (results, the requests log, snapshots), run at priority 1
     * ({@code RequestThreads.PARSING_PRIORITY}); the reader threads, the hiccup meter, an open loop's dispatcher and a
     * server in another process keep nice 0. On two cores, against {@code shared/bench}'s truth server,
     * {@code probe -n 2048 -c 1024}, three alternating runs: TTFT error P99 76 / 57 / 113 ms with these options
     * against 313 / 316 / 154 ms without (the floor client: 94 / 80 / 64 ms), in-stream error P99 9.7 / 7.2 / 21 ms
     * against 54 / 80 / 35 ms.
     *
     * <p>Only for root ({@link #prioritiesReachTheSystem}): for other users the JVM prints a warning at every start
     * ("-XX:ThreadPriorityPolicy=1 may require system level permission"), although lowering a thread's priority needs
     * no permission; such a user may give both options themselves and accept the warning.
     */
    static final List<String> PRIORITIES = List.of("-XX:ThreadPriorityPolicy=1", "-XX:JavaPriority1_To_OSPriority=10");
    /**
     * A command (not the window) ends at its first {@link OutOfMemoryError}, with exit status 3 and the JVM's line
     * {@code Terminating due to java.lang.OutOfMemoryError: Java heap space} on stderr. One that ran out of heap in
     * some threads kept running without them, never ended and ignored SIGTERM (an open loop that fell behind its
     * schedule, before {@code LoadRun.OVERLOAD_IN_FLIGHT} stopped such loops). What a run wrote until then stays in
     * its files; its {@code run.json} has no summary.
     */
    static final String EXIT_ON_OUT_OF_MEMORY = "-XX:+ExitOnOutOfMemoryError";
    /** Commands that send no measured traffic: no relaunch. */
    private static final Set<String> NOT_MEASURING = Set.of("help", "detect", "summarize", "report", "slo",
            "import");

    private MeasuringJvm() {
    }

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
     * @param concurrency the largest closed-loop concurrency of the command ({@link #concurrency}), >= 1
     * @return JVM options in order; never null
     */
    static List<String> options(int feature, Path aotCache, int concurrency) {
        return options(feature, aotCache, concurrency, false);
    }

    /**
     * The options of a measuring JVM, or of a simulator process.
     *
     * <p>A standalone simulator ({@code sim}, also the one {@code calibrate} starts) runs without {@link #JIT}: it
     * measures nothing itself, it serves other processes, and C2's code halves its CPU per request. Against the
     * {@code zero-latency} profile, driven by an open loop of 2,000 streaming requests/s (8 output tokens) from
     * another process on a 2-core machine, the simulator used 15.0–16.1 s of CPU per 15 s run with C1 only (four runs
     * without a profiler: 0.50–0.54 ms per request, more than the client's 0.36–0.40 ms) and 7.8–9.2 s with C2; the
     * client's TTFT P99 went from 12–505 ms to 3.5–5.2 ms and its dispatch-lag P99 from 6.7–64 ms to 4.4–5.9 ms. Its
     * warm-up waits for C2 before it says it is ready ({@code SimWarmUp}).
     *
     * @param feature     {@link Runtime.Version#feature()}, e.g. 21 or 25
     * @param aotCache    an AOT cache file to use (JDK 25+ only), or null
     * @param concurrency the largest closed-loop concurrency of the command ({@link #concurrency}), >= 1
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
     * The maximum heap for closed loops of up to {@code concurrency} streams: 288 MB up to
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
     * @param concurrency  the largest closed-loop concurrency of the command ({@link #concurrency})
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
     * The largest closed-loop concurrency a command line asks for, read from its arguments without running it:
     * {@code -c N}, {@code -cN}, {@code --concurrency N} or {@code --concurrency=N} ({@code probe}, {@code sweep},
     * {@code calibrate}), and for a scenario file given to {@code run}, the integers on its lines whose key contains
     * {@code concurrency} ({@code concurrency: 1024}, {@code load: {concurrency: 64, ...}}) and, when an axis is
     * {@code concurrency}, on its {@code ...Values} lines; {@code calibrate} without a load of its own climbs
     * {@code Calibration.DEFAULT_LADDER}, so its top counts; a standalone {@code sim} counts as
     * {@value #SIM_CONCURRENCY}. It only sizes the heap: a value it misses leaves the
     * default heap, and the command itself still reads its options properly.
     *
     * @param args the command line given to the launcher; not null
     * @return the largest value found, or 1 when there is none (or the scenario cannot be read)
     */
    /** The concurrency a standalone {@code sim} is sized for ({@link #heapMegabytes}: 1,056 MB). */
    static final int SIM_CONCURRENCY = 1024;

    static int concurrency(String[] args) {
        int max = 1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            if ((a.equals("-c") || a.equals("--concurrency")) && i + 1 < args.length) {
                value = args[i + 1];
            } else if (a.startsWith("--concurrency=")) {
                value = a.substring("--concurrency=".length());
            } else if (a.startsWith("-c") && a.length() > 2 && a.substring(2).chars().allMatch(Character::isDigit)) {
                value = a.substring(2);
            }
            if (value != null && value.matches("\\d{1,9}")) {
                max = Math.max(max, Integer.parseInt(value));
            }
        }
        if (args.length >= 2 && args[0].equals("run")) {
            max = Math.max(max, scenarioConcurrency(args));
        }
        if (args.length >= 1 && args[0].equals("calibrate") && java.util.Arrays.stream(args)
                .noneMatch(a -> a.startsWith("-c") || a.startsWith("--concurrency") || a.startsWith("-r")
                        || a.startsWith("--rate"))) {
            // without a load of its own, calibrate climbs its default ladder of closed loops
            max = java.util.Collections.max(org.latencylab.engine.calibration.Calibration.DEFAULT_LADDER);
        }
        if (simulator(args)) {
            // a standalone simulator serves whatever other processes send it: with 288 MB, an open loop of 5,000
            // requests/s against a streaming profile ran it out of heap (thousands of requests in flight)
            max = Math.max(max, SIM_CONCURRENCY);
        }
        return max;
    }

    /** @return whether the command line runs the standalone simulator ({@code sim}) */
    private static boolean simulator(String[] args) {
        return args.length >= 1 && args[0].equals("sim");
    }

    private static int scenarioConcurrency(String[] args) {
        int max = 1;
        for (int i = 1; i < args.length; i++) {
            try {
                Path file = Path.of(args[i]);
                if (args[i].startsWith("-") || !Files.isRegularFile(file) || Files.size(file) > 4_000_000) {
                    continue;
                }
                String text = Files.readString(file);
                List<String> keys = new ArrayList<>(List.of("\\w*concurrency\\w*"));
                Matcher axis = Pattern.compile("(?i)\\b(\\w*)axis\"?\\s*:\\s*\"?concurrency\\b").matcher(text);
                while (axis.find()) {
                    keys.add(Pattern.quote(axis.group(1)) + "values"); // rowAxis: concurrency -> rowValues: [...]
                }
                // a key, then what follows it up to the next key or the end of the line
                Matcher m = Pattern.compile("(?i)\\b(?:" + String.join("|", keys) + ")\"?\\s*:([^:\\n]*)").matcher(text);
                while (m.find()) {
                    String value = m.group(1).replaceAll("[,{]\\s*\"?\\w+\"?\\s*$", ""); // "64, duration" -> "64"
                    Matcher n = Pattern.compile("\\b\\d{1,9}\\b").matcher(value);
                    while (n.find()) {
                        max = Math.max(max, Integer.parseInt(n.group()));
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // not a readable scenario: the default heap
            }
        }
        return max;
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

    /**
     * Runs {@code args} in a child JVM with the measuring options when this JVM lacks them. When the user chose a
     * heap smaller than the command's closed-loop concurrency needs, prints {@link #heapNotice} on stderr first (once:
     * not again in the child).
     *
     * @param args the command line given to the launcher
     * @return the child's exit status, or empty when this JVM should run the command itself
     */
    static Optional<Integer> relaunchIfNeeded(String[] args) {
        if (System.getProperty(MARK) != null) {
            endWithTheLauncher();
            return Optional.empty();
        }
        if (!measuring(args)) {
            return Optional.empty();
        }
        List<String> given = ManagementFactory.getRuntimeMXBean().getInputArguments();
        int concurrency = concurrency(args);
        // the heap was chosen by nobody, or by our launcher as its default: it may grow with the concurrency
        boolean ourHeap = defaultHeap(given);
        if (!ourHeap) { // the user's heap stays (also in a relaunch), but a heap too small for the run is said once
            heapNotice(concurrency, Runtime.getRuntime().maxMemory()).ifPresent(n -> {
                System.err.println(n);
                System.err.flush();
            });
        }
        if ("1".equals(System.getenv(OPT_OUT))) {
            return Optional.empty();
        }
        boolean heapTooSmall = ourHeap
                && heapMegabytes(concurrency) > Runtime.getRuntime().maxMemory() / (1024 * 1024) + 16;
        if (usesZgc() && !heapTooSmall) {
            return Optional.empty();
        }
        if (given.stream().anyMatch(a -> a.matches("-XX:\\+Use\\w+GC") && !a.equals("-XX:+UseZGC"))) {
            return Optional.empty(); // the user chose another collector: measure with it
        }
        Optional<String> java = javaCommand();
        String classPath = System.getProperty("java.class.path");
        if (java.isEmpty() || classPath == null || classPath.isEmpty()) {
            return Optional.empty();
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(java.get());
        for (String a : given) {
            boolean defaultHeap = ourHeap && (key(a).equals("-Xmx") || a.equals(SOFT_MAX_HEAP));
            if (!a.startsWith("-agentlib:jdwp") // a debugger attaches to this JVM, not the child
                    && !defaultHeap) { // replaced by the heap for this concurrency
                cmd.add(a);
            }
        }
        cmd.addAll(missing(cmd, options(Runtime.version().feature(), aotCache(classPath), concurrency,
                simulator(args))));
        if (args.length > 0) { // a command, not the window
            cmd.addAll(missing(cmd, List.of(EXIT_ON_OUT_OF_MEMORY)));
        }
        cmd.add("-D" + MARK + "=true");
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(Launcher.class.getName());
        cmd.addAll(List.of(args));
        Process child;
        try {
            child = new ProcessBuilder(cmd).inheritIO().start();
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty(); // measure in this JVM rather than not at all
        }
        forwardTermination(child);
        while (true) {
            try {
                return Optional.of(child.waitFor());
            } catch (InterruptedException e) {
                child.destroy();
            }
        }
    }

    /**
     * In a relaunched JVM: ends this JVM (exit status 143, shutdown hooks run, so a run keeps what it wrote) when the
     * launcher that started it is gone. A launcher killed with SIGKILL cannot pass anything on, and its child, a
     * standalone simulator above all, kept running and holding its port. The JDK watches the parent
     * ({@link ProcessHandle#onExit}); nothing happens when there is no parent to watch.
     */
    static void endWithTheLauncher() {
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            System.err.println("latencylab: the launching process " + parent.pid() + " ended; stopping");
            System.err.flush();
            System.exit(143);
        }));
    }

    /**
     * Whether the heap limit in effect is LatencyLab's own, which may grow with a run's concurrency: no heap limit
     * was given, or every one given is the default {@link #MAX_HEAP} and a launcher marked it as its default
     * ({@code -D}{@link #DEFAULT_HEAP_MARK}{@code =true}). Any other limit is the user's (also one written into the
     * installed app's launcher configuration next to the mark), and stays.
     *
     * @param given the JVM's options, in order (as {@link java.lang.management.RuntimeMXBean#getInputArguments})
     * @return true when the heap may be replaced by {@link #heapOptions} for the run's concurrency
     */
    static boolean defaultHeap(List<String> given) {
        List<String> heaps = given.stream().filter(a -> key(a).equals("-Xmx")).toList();
        return heaps.isEmpty() || given.contains("-D" + DEFAULT_HEAP_MARK + "=true")
                && heaps.stream().allMatch(MAX_HEAP::equals);
    }

    /**
     * @return the {@code java} executable of this JVM's runtime ({@code java.home}), which the installed app's
     *         runtime also holds; else the command this process was started with; empty when neither is known.
     *         Not the installed app's own launcher: that one passes its arguments to the application, not the JVM
     */
    private static Optional<String> javaCommand() {
        String home = System.getProperty("java.home");
        if (home != null) {
            boolean windows = System.getProperty("os.name", "").startsWith("Windows");
            Path java = Path.of(home, "bin", windows ? "java.exe" : "java");
            if (java.toFile().canExecute()) {
                return Optional.of(java.toString());
            }
        }
        return ProcessHandle.current().info().command();
    }

    /**
     * The measuring options the given JVM options do not already set: the user's own setting of an option wins over
     * ours ({@code -Xmx1g} or {@code -XX:MaxHeapSize=1g} over {@code -Xmx2g}, {@code -XX:SoftMaxHeapSize=1g} over
     * ours, {@code -XX:-UseZGC} over {@code -XX:+UseZGC}, {@code -Dname=x} over {@code -Dname=y}). When a heap limit
     * is given, our soft heap limit is left out too: it could exceed that heap, and the JVM would not start.
     *
     * @param given    JVM options already on the command line, in order
     * @param defaults the measuring options
     * @return the defaults to add, in their order
     */
    static List<String> missing(List<String> given, List<String> defaults) {
        List<String> out = new ArrayList<>();
        boolean heapGiven = given.stream().anyMatch(g -> key(g).equals("-Xmx"));
        for (String d : defaults) {
            String key = key(d);
            if (heapGiven && key.equals("-XX:SoftMaxHeapSize")) {
                continue; // ours could exceed the heap given (the JVM then refuses to start); ZGC aims at that heap
            }
            if (given.stream().noneMatch(g -> key(g).equals(key))) {
                out.add(d);
            }
        }
        return out;
    }

    /** @return what names a JVM option regardless of its value: {@code -Xmx}, {@code -XX:Name}, {@code -Dname} */
    private static String key(String option) {
        if (option.startsWith("-XX:MaxHeapSize=")) {
            return "-Xmx"; // the same setting under its long name
        }
        for (String sized : List.of("-Xmx", "-Xms", "-Xss", "-Xmn")) {
            if (option.startsWith(sized)) {
                return sized;
            }
        }
        if (option.startsWith("-XX:+") || option.startsWith("-XX:-")) {
            return "-XX:" + option.substring(5);
        }
        int eq = option.indexOf('=');
        return eq < 0 ? option : option.substring(0, eq);
    }

    /** @return true when the command measures (or serves) traffic, so its JVM's pauses matter */
    static boolean measuring(String[] args) {
        if (args.length == 0) {
            return true; // the window
        }
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help") || a.equals("-V") || a.equals("--version")) {
                return false;
            }
        }
        return !NOT_MEASURING.contains(args[0]);
    }

    private static boolean usesZgc() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().startsWith("ZGC")) {
                return true;
            }
        }
        return false;
    }

    /** @return {@code latencylab.aot} next to the jar when it exists and the class path is that one jar */
    private static Path aotCache(String classPath) {
        if (classPath.contains(java.io.File.pathSeparator) || !classPath.endsWith(".jar")) {
            return null;
        }
        Path cache = Path.of(classPath).toAbsolutePath().resolveSibling("latencylab.aot");
        return Files.isRegularFile(cache) ? cache : null;
    }

    /**
     * SIGTERM and SIGHUP sent to this process are passed to the child, which ends its run cleanly; SIGINT is passed on
     * as SIGINT (Ctrl-C in a terminal reaches both processes already; the child takes a copy that follows within a
     * second as the same press, see {@code cli.StopSignals}), so the child ends as after Ctrl-C: summary printed, exit
     * status 130.
     */
    @SuppressWarnings("removal")
    private static void forwardTermination(Process child) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal("INT"), s -> Thread.ofVirtual().start(() -> interrupt(child)));
            sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> child.destroy());
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), s -> child.destroy());
        } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError e) {
            // a platform without these signals: the child still ends with this process's console
        }
    }

    /** Sends SIGINT to the child with {@code kill -INT} (POSIX), else ends it with SIGTERM. */
    private static void interrupt(Process child) {
        try {
            Process k = new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).start();
            if (k.waitFor() == 0) {
                return;
            }
        } catch (java.io.IOException e) {
            // no kill command (Windows): fall through
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        child.destroy();
    }
}
