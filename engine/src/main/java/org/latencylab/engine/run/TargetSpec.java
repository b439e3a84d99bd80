package org.latencylab.engine.run;

import org.latencylab.engine.api.Endpoint;

/**
 * What a run measures: a configured endpoint, or the built-in simulator started for the run on loopback.
 * Immutable and thread-safe.
 *
 * @param endpoint   the endpoint to measure, or null when {@code simProfile} is set
 * @param simProfile built-in simulator profile name (e.g. {@code "llama-8b-class"}) or path of a profile file;
 *                   null for a real endpoint
 * @param simStamping whether the simulator stamps every event with its send time ({@code x_sent_ns}), so the
 *                   client's own timing error can be measured
 * @throws IllegalArgumentException when neither or both of endpoint and simProfile are given
 */
public record TargetSpec(Endpoint endpoint, String simProfile, boolean simStamping) {
    public TargetSpec {
        if ((endpoint == null) == (simProfile == null || simProfile.isBlank())) {
            throw new IllegalArgumentException("give either an endpoint or a simulator profile, not "
                    + (endpoint == null ? "neither" : "both"));
        }
    }

    /** @param profile simulator profile name or file @return a target on the built-in simulator */
    public static TargetSpec simulator(String profile) {
        return new TargetSpec(null, profile, false);
    }

    /** @param endpoint the endpoint @return a target on that endpoint */
    public static TargetSpec of(Endpoint endpoint) {
        return new TargetSpec(endpoint, null, false);
    }

    /** @return true when the run starts the built-in simulator */
    public boolean isSimulator() {
        return endpoint == null;
    }

    /** @return a short description for tables, e.g. {@code "simulator (llama-8b-class)"} */
    public String describe() {
        return isSimulator() ? "simulator (" + simProfile + ")" : endpoint.name() + " " + endpoint.baseUrl();
    }
}
