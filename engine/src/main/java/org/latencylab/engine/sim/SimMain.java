package org.latencylab.engine.sim;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Serves one simulator as a process of its own, the way a GPU-server benchmark launches an inference engine:
 * {@code java -cp CLASSPATH org.latencylab.engine.sim.SimMain [sim] --profile vllm-like --port 8123
 * [--max-num-seqs 8] [--max-batched-tokens 2048] [--gpu-memory-gib 24] [--seed 42] [--stamping true]}. The application's
 * {@code latencylab sim} command offers the same options (with help); this entry point exists so that the engine
 * alone (and its tests) can launch a simulator process. Options are {@code --name value} pairs only, so they are
 * read from a map rather than with a command-line library, which the engine does not depend on.
 *
 * <p>Behaves like a real engine where a benchmark cares: warms its own code first ({@link SimWarmUp}, up to 1.5 s),
 * then prints a startup line and {@code ready on URL};
 * exits with status {@value #EXIT_OUT_OF_MEMORY} and a "CUDA out of memory" line on standard error when the
 * configuration does not fit in the simulated GPU at start, or later when a request overflows it; stops on SIGTERM
 * (shutdown hook closes the server).
 */
public final class SimMain {
    /** Exit status when the simulated GPU runs out of memory. */
    public static final int EXIT_OUT_OF_MEMORY = 3;
    /** Exit status on bad options. */
    public static final int EXIT_BAD_INPUT = 2;

    private static final List<String> KNOWN = List.of("--profile", "--port", "--seed", "--stamping",
            "--max-num-seqs", "--max-batched-tokens", "--gpu-memory-gib");

    private SimMain() {
    }

    /**
     * @param args options as described above
     * @throws InterruptedException when interrupted while serving
     */
    public static void main(String[] args) throws InterruptedException {
        Map<String, String> o = new HashMap<>();
        int i = args.length > 0 && args[0].equals("sim") ? 1 : 0;
        for (; i < args.length; i++) {
            String k = args[i];
            if (!KNOWN.contains(k) || i + 1 >= args.length) {
                System.err.println("SimMain: unknown option or missing value: '" + k + "'; options: " + KNOWN);
                System.exit(EXIT_BAD_INPUT);
            }
            o.put(k, args[++i]);
        }
        SimProfile profile;
        SimOptions options;
        try {
            profile = withOverrides(SimProfile.resolve(o.getOrDefault("--profile", "llama-8b-class")),
                    integer(o, "--max-num-seqs"), integer(o, "--max-batched-tokens"),
                    o.containsKey("--gpu-memory-gib") ? Double.valueOf(o.get("--gpu-memory-gib")) : null);
            options = SimOptions.builder().port(Integer.parseInt(o.getOrDefault("--port", "0")))
                    .seed(Long.parseLong(o.getOrDefault("--seed", "42")))
                    .stamping(Boolean.parseBoolean(o.getOrDefault("--stamping", "false"))).build();
        } catch (IllegalArgumentException e) {
            System.err.println("SimMain: " + e.getMessage());
            System.exit(EXIT_BAD_INPUT);
            return;
        }
        System.exit(serve(profile, options, System.out, System.err, new CountDownLatch(1)));
    }

    private static Integer integer(Map<String, String> o, String key) {
        return o.containsKey(key) ? Integer.valueOf(o.get(key)) : null;
    }

    /**
     * A profile with the knobs a server benchmark's grid turns.
     *
     * @param profile          the base profile
     * @param maxNumSeqs       most running sequences (vLLM {@code --max-num-seqs}), or null to keep
     * @param maxBatchedTokens prefill tokens per step (vLLM {@code --max-num-batched-tokens}), or null to keep
     * @param gpuMemoryGiB     simulated GPU memory, GiB, or null to keep
     * @return the adjusted profile
     * @throws IllegalArgumentException when a value is out of range or the profile has no GPU to resize
     */
    public static SimProfile withOverrides(SimProfile profile, Integer maxNumSeqs, Integer maxBatchedTokens,
                                           Double gpuMemoryGiB) {
        SimProfile p = profile;
        if (maxNumSeqs != null) {
            p = p.withMaxRunningSeqs(maxNumSeqs);
        }
        if (maxBatchedTokens != null) {
            p = p.withEngine(p.engine().withMaxBatchedTokens(maxBatchedTokens));
        }
        if (gpuMemoryGiB != null) {
            p = p.withEngine(p.engine().withGpuMemoryGiB(gpuMemoryGiB));
        }
        return p;
    }

    /**
     * Serves until {@code stop} is counted down or the JVM shuts down (SIGTERM, Ctrl-C).
     *
     * @param profile the profile
     * @param options address, port, seed
     * @param out     receives the description and the {@code ready on URL} line
     * @param err     receives out-of-memory and bind errors
     * @param stop    counted down to stop serving
     * @return exit status: 0 after a stop, {@value #EXIT_OUT_OF_MEMORY} when out of memory at start, 1 when the port
     *         cannot be bound
     * @throws InterruptedException when interrupted while serving
     */
    public static int serve(SimProfile profile, SimOptions options, PrintStream out, PrintStream err,
                            CountDownLatch stop) throws InterruptedException {
        if (SimWarmUp.enabled()) {
            if (SimWarmUp.c2Enabled()) { // the long warm-up: say why nothing is served yet
                err.printf(java.util.Locale.ROOT, "warming up the simulator's own code before serving (at most %d s)%n",
                        (SimWarmUp.C2_LIMIT_MILLIS + SimWarmUp.SETTLE_LIMIT_MILLIS) / 1000);
                err.flush();
            }
            SimWarmUp.run(); // before the port is bound: a client waiting for "ready on" meets compiled code
        }
        SimServer server;
        try {
            server = SimServer.start(profile, options);
        } catch (SimOutOfMemoryException e) {
            err.println("torch.OutOfMemoryError: " + e.getMessage());
            err.flush();
            return EXIT_OUT_OF_MEMORY;
        } catch (java.io.UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            err.flush();
            return 1;
        }
        server.onOutOfMemory(message -> {
            err.println("torch.OutOfMemoryError: " + message);
            err.flush();
            Runtime.getRuntime().halt(EXIT_OUT_OF_MEMORY);
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stop.countDown();
        }, "latencylab-sim-stop"));
        out.println(server.describe());
        out.println("ready on " + server.baseUrl());
        out.flush();
        stop.await();
        server.close();
        return 0;
    }
}
