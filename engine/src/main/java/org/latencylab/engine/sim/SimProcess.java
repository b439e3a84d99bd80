package org.latencylab.engine.sim;

import org.latencylab.engine.tuning.TuningProperties;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A simulator serving from a process of its own, started from a command whose output says {@code ready on URL}
 * ({@link SimMain}, or the application's {@code latencylab sim}); closing it stops the process (SIGTERM, then a kill
 * after {@link #STOP_GRACE}) and reaps it.
 *
 * <p>Why a process of its own: a simulator inside the measuring JVM takes its CPU time from the client's request
 * threads, so on a small machine the client's trust check sees its own threads wait for a CPU and calls the run
 * saturated; a real server never shares the client's process. {@link #command} starts it at a lower scheduling
 * priority ({@code nice}), so that on a machine with few cores the client's threads run first when both want a CPU:
 * the simulator's delay shows as the server's latency, which is where a real server's delay would show too.
 *
 * <p>Its output is drained on a daemon thread for the process's life so that the simulator never blocks on a full
 * pipe; the lines before {@code ready on} are kept for the error message when it does not start. Thread-safe.
 */
public final class SimProcess implements AutoCloseable {
    /** The line prefix {@link SimMain#serve} prints before the base URL. */
    public static final String READY_PREFIX = "ready on ";
    /** Niceness of the simulator process ({@code nice -n}): 10 is nice(1)'s default adjustment. */
    public static final int NICENESS = 10;
    /** Wait for SIGTERM to end the process before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process process;
    private final String baseUrl;

    private SimProcess(Process process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    /**
     * The command that serves {@code profile} with {@link SimMain} on an ephemeral loopback port, run by this JVM's
     * {@code java} with this JVM's class path, at niceness {@link #NICENESS} where {@code nice} exists.
     * The child JVM compiles with C1 only (it starts and warms up in a fraction of the time C2 needs) and inherits
     * {@code latencylab.jitWarmUp} so that a test suite that turns warm-ups off turns off the simulator's too.
     *
     * @param profile  a built-in profile name or a profile file's path
     * @param seed     the simulator's seed (its jitter is reproducible)
     * @param stamping whether events carry the server's send time ({@code x_sent_ns})
     * @return the command line, never empty
     */
    public static List<String> command(String profile, long seed, boolean stamping) {
        List<String> cmd = new ArrayList<>();
        Path nice = Path.of("/usr/bin/nice");
        if (Files.isExecutable(nice)) {
            cmd.addAll(List.of(nice.toString(), "-n", Integer.toString(NICENESS)));
        }
        cmd.add(javaBinary());
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"));
        String warmUp = System.getProperty(TuningProperties.JIT_WARM_UP);
        if (warmUp != null) {
            cmd.add("-D" + TuningProperties.JIT_WARM_UP + "=" + warmUp);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SimMain.class.getName(),
                "--profile", profile, "--port", "0", "--seed", Long.toString(seed)));
        if (stamping) {
            cmd.addAll(List.of("--stamping", "true"));
        }
        return cmd;
    }

    /**
     * @return this JVM's {@code java}: the runtime's {@code bin/java} (an installer's own runtime has one), else the
     *         process's command; not the process's command first, which in an app-image is the native launcher
     */
    private static String javaBinary() {
        Path java = Path.of(System.getProperty("java.home"), "bin",
                System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java");
        return Files.isExecutable(java) ? java.toString()
                : ProcessHandle.current().info().command().orElse(java.toString());
    }

    /**
     * Starts the command and waits for its {@code ready on URL} line.
     *
     * @param command the command line, e.g. from {@link #command}
     * @param timeout longest wait for the ready line
     * @return the running simulator
     * @throws IOException          when the process cannot be started, ends, or says nothing ready within the
     *                              timeout; the message gives the command and what the process printed
     * @throws InterruptedException when interrupted while waiting (the process is stopped)
     */
    public static SimProcess start(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> url = new CompletableFuture<>();
        StringBuilder seen = new StringBuilder();
        Thread.ofPlatform().daemon(true).name("latencylab-sim-output-" + p.pid()).start(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (!url.isDone()) {
                        synchronized (seen) {
                            seen.append(line).append('\n');
                        }
                        int at = line.indexOf(READY_PREFIX);
                        if (at >= 0) {
                            url.complete(line.substring(at + READY_PREFIX.length()).split("\\s+")[0]);
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended: nothing more to drain
            }
            url.complete(null);
        });
        String base;
        try {
            base = url.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            base = null;
        } catch (InterruptedException e) {
            stop(p);
            throw e;
        }
        if (base == null) {
            stop(p);
            String output;
            synchronized (seen) {
                output = seen.toString().strip();
            }
            throw new IOException("the simulator process did not start (" + String.join(" ", command) + ")"
                    + (output.isEmpty() ? "" : ": " + output));
        }
        return new SimProcess(p, base);
    }

    /** @return the simulator's base URL, e.g. {@code http://127.0.0.1:41234} */
    public String baseUrl() {
        return baseUrl;
    }

    /** @return the process id */
    public long pid() {
        return process.pid();
    }

    /** @return whether the process still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    private static void stop(Process p) {
        p.destroy(); // SIGTERM: SimMain's shutdown hook closes its server
        try {
            if (!p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the process and waits for it to end (at most twice {@link #STOP_GRACE}). */
    @Override
    public void close() {
        stop(process);
    }
}
