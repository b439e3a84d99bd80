package org.latencylab.app.cli;

import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/** {@code latencylab sim}: serves the built-in simulator until Ctrl-C. */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = {"Serve the built-in simulated LLM server on loopback until Ctrl-C.",
                "%nRoutes: OpenAI-compatible /v1/chat/completions, /v1/completions, /v1/models; /health; /metrics"
                        + " (vLLM metric names); Anthropic /v1/messages; Ollama /api/chat, /api/generate; TGI /generate_stream."})
final class SimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-p", "--profile"}, defaultValue = "llama-8b-class",
            description = "built-in profile name or profile file (default: ${DEFAULT-VALUE}); built-ins: "
                    + "llama-8b-class, small-fast, small-fast-narrow, zero-latency")
    String profile;

    @Option(names = "--port", defaultValue = "0", description = "TCP port on 127.0.0.1 (default: 0 = any free port)")
    int port;

    @Option(names = "--stamping", description = "add the server's send time (x_sent_ns, System.nanoTime) to every event")
    boolean stamping;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the latency jitter (default: ${DEFAULT-VALUE})")
    long seed;

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
        SimServer server;
        try {
            server = SimServer.start(prof, SimOptions.builder().port(port).stamping(stamping).seed(seed).build());
        } catch (java.io.UncheckedIOException e) {
            throw new IllegalArgumentException("cannot serve on 127.0.0.1:" + port + " (" + e.getCause().getMessage()
                    + "); choose another --port, or 0 for any free port", e);
        }
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stop.countDown();
        }, "latencylab-sim-stop"));
        var out = spec.commandLine().getOut();
        out.println(server.describe());
        out.println("base URL: " + server.baseUrl() + "  (Ctrl-C stops)");
        out.flush();
        stop.await();
        return ExitCodes.OK;
    }
}
