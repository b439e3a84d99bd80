package org.latencylab.engine.experiment;

import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProcess;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.io.IOException;
import java.time.Duration;

/**
 * The built-in simulator started for one run on 127.0.0.1 (ephemeral port), and the OpenAI-compatible
 * endpoint that points at it. Closing it stops the server. Thread-safe.
 *
 * <p>It serves from a process of its own ({@link SimProcess}: lower scheduling priority, its CPU time not taken from
 * the client's request threads), as a real server would. It serves inside this JVM only when a step needs the
 * simulator's other listeners (HTTP/2, gRPC: the transports comparison reads them from the {@link SimServer}), or
 * when the process cannot be started; the latter is said in {@link #notice()}.
 */
final class SimulatorTarget implements AutoCloseable {
    /** Longest wait for the simulator process's ready line: a JVM start and its warm-up on a busy machine. */
    static final Duration PROCESS_START_TIMEOUT = Duration.ofSeconds(60);

    private final SimServer server;
    private final SimProcess process;
    private final SimProfile profile;
    private final String notice;

    private SimulatorTarget(SimServer server, SimProcess process, SimProfile profile, String notice) {
        this.server = server;
        this.process = process;
        this.profile = profile;
        this.notice = notice;
    }

    /**
     * @param target    a simulator target
     * @param seed      the run's seed (the simulator's jitter is reproducible)
     * @param inProcess whether a step needs the simulator's in-process listeners (see the class comment)
     * @return the started simulator
     * @throws IllegalArgumentException when the profile is unknown or malformed (the message names it)
     * @throws InterruptedException     when interrupted while the simulator process starts (it is stopped)
     */
    static SimulatorTarget start(TargetSpec target, long seed, boolean inProcess) throws InterruptedException {
        SimProfile profile = profile(target.simProfile());
        String notice = null;
        if (!inProcess) {
            try {
                SimProcess p = SimProcess.start(SimProcess.command(target.simProfile(), seed, target.simStamping()),
                        PROCESS_START_TIMEOUT);
                return new SimulatorTarget(null, p, profile, null);
            } catch (IOException e) {
                notice = "the simulator serves inside LatencyLab's own process, sharing its CPU time (its own "
                        + "process did not start: " + e.getMessage() + ")";
            }
        }
        SimServer server = SimServer.start(profile,
                SimOptions.builder().stamping(target.simStamping()).seed(seed).build());
        return new SimulatorTarget(server, null, profile, notice);
    }

    /** @return why the simulator serves inside this process although a process of its own was asked for, or null */
    String notice() {
        return notice;
    }

    /**
     * @param nameOrPath a built-in profile name or a profile file
     * @return the profile
     * @throws IllegalArgumentException when it is neither
     */
    static SimProfile profile(String nameOrPath) {
        return SimProfile.resolve(nameOrPath);
    }

    /** @return the in-process server, or null when the simulator serves from a process of its own */
    SimServer server() {
        return server;
    }

    private String baseUrl() {
        return server != null ? server.baseUrl() : process.baseUrl();
    }

    /** @return the endpoint to measure */
    Endpoint endpoint() {
        return Endpoint.of("simulator-" + profile.name(), Protocol.OPENAI_CHAT, baseUrl(), profile.model());
    }

    /** @return e.g. {@code simulator llama-8b-class at http://127.0.0.1:41234} */
    String describe() {
        return "simulator " + profile.name() + " at " + baseUrl();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        if (process != null) {
            process.close();
        }
    }
}
