package org.latencylab.engine.tuning;

/**
 * Every {@code latencylab.*} system property, in one place: its name, what it does, its default, its unit and why it
 * exists. Set one with {@code -Dname=value} on the JVM ({@code java -Dlatencylab.readers=2 -jar latencylab.jar ...},
 * or through {@code JAVA_TOOL_OPTIONS} / {@code LATENCYLAB_JAVA_OPTS}). None of them changes what a reported figure
 * means; they choose how the client measures or how the launcher starts. The engine reads its properties through
 * the methods below; the launcher's and the window's properties are listed here and read where they are owned.
 *
 * <table>
 * <caption>Properties read by the engine</caption>
 * <tr><th>Property</th><th>Default</th><th>Unit</th><th>Why</th></tr>
 * <tr><td>{@value #HTTP}</td><td>unset: the own HTTP/1.1 path serves {@code http://} endpoints</td><td>{@code okhttp}
 *     or unset</td><td>{@code okhttp} sends every request through OkHttp, for a server or proxy the own path does not
 *     suit (see {@code docs/connections.md})</td></tr>
 * <tr><td>{@value #READERS}</td><td>the processor count, at most 4</td><td>threads, &gt;= 1</td><td>reader threads
 *     that read and stamp the own path's sockets; fewer leave more cores to a server on the same machine</td></tr>
 * <tr><td>{@value #WORK_PERMITS}</td><td>the processor count minus one, at least 1</td><td>threads, &gt;= 1</td>
 *     <td>request threads that may parse at once after their reader woke them, so that a wave of responses ending
 *     together does not crowd the reader threads off the cores</td></tr>
 * <tr><td>{@value #OVERLOAD_IN_FLIGHT}</td><td>{@code LoadRun.OVERLOAD_IN_FLIGHT}, fewer with a small heap</td>
 *     <td>requests, &gt;= 1</td><td>requests in flight at which an open loop without {@code maxInFlight} stops
 *     instead of piling up requests until the heap runs out</td></tr>
 * <tr><td>{@value #JIT_WARM_UP}</td><td>{@code true}</td><td>{@code true}/{@code false}</td><td>{@code false} skips
 *     the client's and the simulator's warm-up of their code paths before the first step (passed on to a simulator
 *     process); the test suites set it,
 *     as their runs are short and measure behaviour, not latency</td></tr>
 * </table>
 *
 * <table>
 * <caption>Properties read by the launcher and the window ({@code app})</caption>
 * <tr><th>Property</th><th>Default</th><th>Unit</th><th>Why</th></tr>
 * <tr><td>{@value #RELAUNCHED}</td><td>unset</td><td>any value</td><td>set by the launcher in the measuring JVM it
 *     starts, so that JVM never relaunches again</td></tr>
 * <tr><td>{@value #DEFAULT_HEAP}</td><td>unset</td><td>any value</td><td>set by the launcher script and the
 *     installed app next to the {@code -Xmx} they pass as their default, so a high-concurrency command may still get
 *     a larger heap (a heap the user chose is never replaced)</td></tr>
 * <tr><td>{@value #CONFIG_DIR}, {@value #DATA_DIR}</td><td>the operating system's per-user directories</td>
 *     <td>directory path</td><td>where the window keeps its settings and its runs, for a portable install or a
 *     test</td></tr>
 * <tr><td>{@value #LOG_FILE}</td><td>{@code latencylab.log} in the data directory</td><td>file path</td><td>where
 *     the libraries' log records go (never the console)</td></tr>
 * <tr><td>{@value #STARTUP_TIMING}</td><td>{@code false}</td><td>{@code true}/{@code false}</td><td>prints how long
 *     the window took to show, for checking start-up time</td></tr>
 * </table>
 *
 * <p>Not instantiable; thread-safe (each method reads the property when called).
 */
public final class TuningProperties {
    /** {@code okhttp}: every request through OkHttp; otherwise {@code http://} endpoints use the own path. */
    public static final String HTTP = "latencylab.http";
    /** Reader threads of the own HTTP/1.1 path, >= 1. */
    public static final String READERS = "latencylab.readers";
    /** Request threads that may work on taken bytes at once, >= 1. */
    public static final String WORK_PERMITS = "latencylab.workPermits";
    /** Requests in flight at which an open loop without {@code maxInFlight} stops, >= 1. */
    public static final String OVERLOAD_IN_FLIGHT = "latencylab.overloadInFlight";
    /** {@code false}: no warm-up of the client's and the simulator's code paths before the first step. */
    public static final String JIT_WARM_UP = "latencylab.jitWarmUp";
    /** Set in a relaunched measuring JVM (launcher). */
    public static final String RELAUNCHED = "latencylab.relaunched";
    /** Set next to a launcher's default {@code -Xmx} (launcher). */
    public static final String DEFAULT_HEAP = "latencylab.defaultHeap";
    /** The window's settings directory (app). */
    public static final String CONFIG_DIR = "latencylab.config.dir";
    /** The window's data directory (app). */
    public static final String DATA_DIR = "latencylab.data.dir";
    /** The libraries' log file (app). */
    public static final String LOG_FILE = "latencylab.log.file";
    /** {@code true}: the window prints its start-up time (app). */
    public static final String STARTUP_TIMING = "latencylab.startup.timing";

    private TuningProperties() {
    }

    /** @return true unless {@value #HTTP} is {@code okhttp} (case ignored) */
    public static boolean ownHttpPath() {
        return !"okhttp".equalsIgnoreCase(System.getProperty(HTTP, ""));
    }

    /**
     * @param processors available processors
     * @return {@value #READERS}, else {@code min(4, processors)}; at least 1
     */
    public static int readers(int processors) {
        return Math.max(1, Integer.getInteger(READERS, Math.min(4, processors)));
    }

    /**
     * @param processors available processors
     * @return {@value #WORK_PERMITS}, else {@code max(1, processors - 1)}
     */
    public static int workPermits(int processors) {
        return Integer.getInteger(WORK_PERMITS, Math.max(1, processors - 1));
    }

    /**
     * @param fallback the in-flight limit when the property is unset, requests
     * @return {@value #OVERLOAD_IN_FLIGHT}, else {@code fallback}; at least 1
     */
    public static int overloadInFlight(int fallback) {
        return Math.max(1, Integer.getInteger(OVERLOAD_IN_FLIGHT, fallback));
    }

    /** @return true unless {@value #JIT_WARM_UP} is {@code false} */
    public static boolean jitWarmUp() {
        return !"false".equals(System.getProperty(JIT_WARM_UP));
    }
}
