package org.latencylab.engine.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A server process LatencyLab started: its standard output and error go to a log file in the run directory; it is
 * stopped with {@link #stop(Duration)} — SIGTERM to the process and all its descendants (the process tree as it is
 * at that moment: a {@code docker run} client, a Python launcher and its workers), then SIGKILL to whatever is still
 * alive after the grace period. Every live process is registered with one JVM shutdown hook, so none outlives
 * LatencyLab, also on Ctrl-C or when the app window closes. Thread-safe.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Set<ServerProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (ServerProcess p : List.copyOf(LIVE)) {
                p.stop(Duration.ofSeconds(2));
            }
        }, "latencylab-server-processes"));
    }

    private final String variant;
    private final Process process;
    private final Path log;

    private ServerProcess(String variant, Process process, Path log) {
        this.variant = variant;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a server. The masked command line is written as the log's first line.
     *
     * @param variant variant name (for messages)
     * @param command the command, one argument per element (started directly, not through a shell)
     * @param env     extra environment entries
     * @param log     file for the process's standard output and error (created or replaced)
     * @return the running process
     * @throws IllegalArgumentException when the command cannot be started (e.g. not installed); the message names
     *                                  the variant and the program
     * @throws UncheckedIOException     when the log file cannot be written
     */
    public static ServerProcess start(String variant, List<String> command, Map<String, String> env, Path log) {
        Objects.requireNonNull(command, "command");
        try {
            Files.writeString(log, "# " + SecretMask.display(command) + (env.isEmpty() ? ""
                    : "  (environment: " + SecretMask.environment(env) + ")") + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write server log " + log + ": " + e.getMessage(), e);
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(nullFile()));
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalArgumentException("variant '" + variant + "': cannot start '" + command.get(0) + "': "
                    + e.getMessage(), e);
        }
        ServerProcess sp = new ServerProcess(variant, p, log);
        LIVE.add(sp);
        return sp;
    }

    private static java.io.File nullFile() {
        return new java.io.File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    /** @return the operating system's process id */
    public long pid() {
        return process.pid();
    }

    /** @return whether the process is still running */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the exit status, or null while it runs */
    public Integer exitCode() {
        return process.isAlive() ? null : process.exitValue();
    }

    /** @return the log file */
    public Path log() {
        return log;
    }

    /** @return the process and all its descendants alive now (for tests and diagnostics) */
    public List<ProcessHandle> tree() {
        List<ProcessHandle> out = new ArrayList<>();
        out.add(process.toHandle());
        process.toHandle().descendants().forEach(out::add);
        return out;
    }

    /**
     * Stops the process tree: SIGTERM (a normal termination request) to the process and every descendant, wait up to
     * {@code grace} for all to exit, then SIGKILL to those still alive. Idempotent.
     *
     * @param grace how long to wait after SIGTERM
     * @return the exit status of the main process (-1 when it could not be learnt)
     */
    public int stop(Duration grace) {
        List<ProcessHandle> tree = tree();
        for (ProcessHandle h : tree) {
            h.destroy();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : tree) {
            long left = deadline - System.nanoTime();
            try {
                if (left > 0) {
                    h.onExit().get(left, TimeUnit.NANOSECONDS);
                }
            } catch (Exception e) {
                // timed out or interrupted: killed below
            }
        }
        for (ProcessHandle h : tree) {
            if (h.isAlive()) {
                h.destroyForcibly();
            }
        }
        int code = -1;
        try {
            if (process.waitFor(5, TimeUnit.SECONDS)) {
                code = process.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(this);
        return code;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }

    /**
     * @param lines how many
     * @return the last lines of the server's log (for error messages), or a note when it cannot be read
     */
    public String lastLogLines(int lines) {
        return tail(log, lines);
    }

    /**
     * @param file  a text file
     * @param lines how many
     * @return its last lines joined with newlines, or a note when it cannot be read
     */
    public static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log " + file.getFileName() + " unreadable: " + e.getMessage() + ")";
        }
    }

    /**
     * @param file a server log
     * @return whether it reports running out of GPU memory ("out of memory", "OutOfMemoryError", "OOM")
     */
    public static boolean logSaysOutOfMemory(Path file) {
        return outOfMemoryLine(file) != null;
    }

    /**
     * @param file a server log
     * @return the first of its last 200 lines that reports running out of GPU memory, stripped, or null (the
     *         command line LatencyLab wrote first, starting with {@code # }, is not read)
     */
    public static String outOfMemoryLine(Path file) {
        for (String line : tail(file, 200).split("\n")) {
            if (line.startsWith("# ")) {
                continue;
            }
            String t = line.toLowerCase(java.util.Locale.ROOT);
            if (t.contains("out of memory") || t.contains("outofmemoryerror") || t.matches(".*\\boom\\b.*")) {
                return line.strip();
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ServerProcess[" + variant + ", pid " + process.pid() + "]";
    }
}
