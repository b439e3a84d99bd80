package org.latencylab.app.cli;

import org.latencylab.engine.sim.SimMain;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code latencylab sim}: serves the built-in simulator until Ctrl-C. */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = {"Serve the built-in simulated LLM server on loopback until Ctrl-C (or SIGTERM).",
                "Exit status 3 with a 'CUDA out of memory' line when the profile's engine model does not fit in "
                        + "its simulated GPU.",
                "%nRoutes: OpenAI-compatible /v1/chat/completions, /v1/completions, /v1/models; /health; /metrics"
                        + " (the profile's engine metric names; vLLM by default); /sim/gpu (simulated nvidia-smi CSV); Anthropic /v1/messages; Ollama /api/chat, /api/generate; TGI /generate_stream."})
final class SimCommand implements Callable<Integer> {
    /** The built-in profiles named in the help (a test checks them against {@code SimProfile.builtinNames()}). */
    static final String BUILTINS = "llama-8b-class, small-fast, small-fast-narrow, zero-latency, vllm-like, tgi-like, "
            + "ollama-like";

    @Spec
    CommandSpec spec;

    @Option(names = {"-p", "--profile"}, defaultValue = "llama-8b-class",
            description = "built-in profile name or profile file (default: ${DEFAULT-VALUE}); built-ins: "
                    + SimCommand.BUILTINS)
    String profile;

    @Option(names = "--port", defaultValue = "0", description = "TCP port on 127.0.0.1 (default: 0 = any free port)")
    int port;

    @Option(names = "--stamping", description = "add the server's send time (x_sent_ns, System.nanoTime) to every event")
    boolean stamping;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the latency jitter (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--max-num-seqs", description = "override the profile's most running sequences (batch size)")
    Integer maxNumSeqs;

    @Option(names = "--max-batched-tokens", description = "override the engine's prefill tokens per step "
            + "(chunked prefill budget; profiles with an engine section)")
    Integer maxBatchedTokens;

    @Option(names = "--gpu-memory-gib", description = "override the simulated GPU's memory, GiB")
    Double gpuMemoryGib;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be in 0..65535, was " + port);
        }
        SimProfile prof;
        try {
            prof = SimProfile.resolve(profile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--profile: " + e.getMessage(), e);
        }
        prof = SimMain.withOverrides(prof, maxNumSeqs, maxBatchedTokens, gpuMemoryGib);
        if (port != 0) { // before the warm-up (seconds): a port in use is reported at once
            try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
                probe.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            } catch (java.io.IOException e) {
                String why = e instanceof java.net.BindException && e.getMessage() != null
                        ? e.getMessage().toLowerCase(java.util.Locale.ROOT) : String.valueOf(e.getMessage());
                throw new IllegalArgumentException("cannot serve on 127.0.0.1:" + port + " (" + why
                        + "); choose another --port, or 0 for any free port", e);
            }
        }
        int status = SimMain.serve(prof, SimOptions.builder().port(port).stamping(stamping).seed(seed).build(),
                System.out, System.err, new CountDownLatch(1));
        if (status == 1) {
            throw new IllegalArgumentException("cannot serve on 127.0.0.1:" + port
                    + "; choose another --port, or 0 for any free port");
        }
        return status;
    }
}
