package org.latencylab.app;

import org.latencylab.engine.tuning.TuningProperties;
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
 * Makes sure a measuring command runs in a JVM whose own pauses stay out of the numbers: generational ZGC (its pauses
 * stay well below a millisecond, where the default G1's young-generation pauses reach many milliseconds), a bounded
 * heap, more carrier threads for virtual threads ({@link JvmOptions#carriers}), the JDK 24+ flags that silence JavaFX's and Maven libraries' {@code sun.misc.Unsafe} warnings, and the
 * ahead-of-time class cache next to the jar when one was built ({@code -XX:AOTCache}, JDK 25+).
 *
 * <p>A JVM's collector cannot be changed once it runs, and {@code java -jar latencylab.jar} gives no way to set JVM
 * options, so {@link #relaunchIfNeeded} starts the same command once more in a child JVM with those options (same
 * {@code java}, class path and system properties), passes the terminal through, forwards SIGTERM/SIGHUP and returns
 * the child's exit status. It does nothing when the JVM already runs ZGC (the installed launcher and the
 * {@code latencylab} script set the options themselves) with a heap large enough for the command's closed-loop
 * concurrency ({@link JvmOptions#heapMegabytes}; only the script's default heap is replaced, never one the user chose), for
 * commands that measure nothing ({@code --help}, {@code --version}, {@code detect}, ...), or when the environment
 * variable {@value #OPT_OUT} is set to {@code 1}. The cost is one more JVM start, paid before
 * any clock starts.
 *
 * <p>Not instantiable; thread-safe.
 */
final class MeasuringJvm {
    /** Environment variable that switches the relaunch off ({@code 1}). */
    static final String OPT_OUT = "LATENCYLAB_NO_RELAUNCH";
    /** System property set in the child, so it never relaunches again. */
    static final String MARK = TuningProperties.RELAUNCHED;
    /**
     * System property the launcher script ({@code latencylab}) and the installed app's launcher (jpackage's
     * {@code --java-options}) set next to the {@code -Xmx} they pass as their default (not the user's), so a
     * high-concurrency command may still get a larger heap ({@link #relaunchIfNeeded}, {@link #defaultHeap}).
     */
    static final String DEFAULT_HEAP_MARK = TuningProperties.DEFAULT_HEAP;
    /** Commands that send no measured traffic: no relaunch. */
    private static final Set<String> NOT_MEASURING = Set.of("help", "detect", "summarize", "report", "slo",
            "import");

    private MeasuringJvm() {
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
    /** The concurrency a standalone {@code sim} is sized for ({@link JvmOptions#heapMegabytes}). */
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
            // a standalone simulator serves whatever other processes send it: a fast open loop against a streaming
            // profile holds thousands of requests in flight, more than the base heap holds
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
     * Runs {@code args} in a child JVM with the measuring options when this JVM lacks them. When the user chose a
     * heap smaller than the command's closed-loop concurrency needs, prints {@link JvmOptions#heapNotice} on stderr first (once:
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
            JvmOptions.heapNotice(concurrency, Runtime.getRuntime().maxMemory()).ifPresent(n -> {
                System.err.println(n);
                System.err.flush();
            });
        }
        if ("1".equals(System.getenv(OPT_OUT))) {
            return Optional.empty();
        }
        boolean heapTooSmall = ourHeap
                && JvmOptions.heapMegabytes(concurrency) > Runtime.getRuntime().maxMemory() / (1024 * 1024) + 16;
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
            boolean defaultHeap = ourHeap && (key(a).equals("-Xmx") || a.equals(JvmOptions.SOFT_MAX_HEAP));
            if (!a.startsWith("-agentlib:jdwp") // a debugger attaches to this JVM, not the child
                    && !defaultHeap) { // replaced by the heap for this concurrency
                cmd.add(a);
            }
        }
        cmd.addAll(missing(cmd, JvmOptions.options(Runtime.version().feature(), aotCache(classPath), concurrency,
                simulator(args))));
        if (args.length > 0) { // a command, not the window
            cmd.addAll(missing(cmd, List.of(JvmOptions.EXIT_ON_OUT_OF_MEMORY)));
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
     * was given, or every one given is the default {@link JvmOptions#MAX_HEAP} and a launcher marked it as its default
     * ({@code -D}{@link #DEFAULT_HEAP_MARK}{@code =true}). Any other limit is the user's (also one written into the
     * installed app's launcher configuration next to the mark), and stays.
     *
     * @param given the JVM's options, in order (as {@link java.lang.management.RuntimeMXBean#getInputArguments})
     * @return true when the heap may be replaced by {@link JvmOptions#heapOptions} for the run's concurrency
     */
    static boolean defaultHeap(List<String> given) {
        List<String> heaps = given.stream().filter(a -> key(a).equals("-Xmx")).toList();
        return heaps.isEmpty() || given.contains("-D" + DEFAULT_HEAP_MARK + "=true")
                && heaps.stream().allMatch(JvmOptions.MAX_HEAP::equals);
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
