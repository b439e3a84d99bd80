package org.latencylab.engine.experiment;

import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;


/**
 * The built-in simulator started for one run on 127.0.0.1 (ephemeral port), and the OpenAI-compatible
 * endpoint that points at it. Closing it stops the server. Thread-safe.
 */
final class SimulatorTarget implements AutoCloseable {
    private final SimServer server;
    private final SimProfile profile;

    private SimulatorTarget(SimServer server, SimProfile profile) {
        this.server = server;
        this.profile = profile;
    }

    /**
     * @param target a simulator target
     * @param seed   the run's seed (the simulator's jitter is reproducible)
     * @return the started simulator
     * @throws IllegalArgumentException when the profile is unknown or malformed (the message names it)
     */
    static SimulatorTarget start(TargetSpec target, long seed) {
        SimProfile profile = profile(target.simProfile());
        SimServer server = SimServer.start(profile,
                SimOptions.builder().stamping(target.simStamping()).seed(seed).build());
        return new SimulatorTarget(server, profile);
    }

    /**
     * @param nameOrPath a built-in profile name or a profile file
     * @return the profile
     * @throws IllegalArgumentException when it is neither
     */
    static SimProfile profile(String nameOrPath) {
        return SimProfile.resolve(nameOrPath);
    }

    /** @return the running server */
    SimServer server() {
        return server;
    }

    /** @return the endpoint to measure */
    Endpoint endpoint() {
        return Endpoint.of("simulator-" + profile.name(), Protocol.OPENAI_CHAT, server.baseUrl(), profile.model());
    }

    /** @return e.g. {@code simulator llama-8b-class at http://127.0.0.1:41234} */
    String describe() {
        return "simulator " + profile.name() + " at " + server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
    }
}
