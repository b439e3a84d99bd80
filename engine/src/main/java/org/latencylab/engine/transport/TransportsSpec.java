package org.latencylab.engine.transport;

import org.latencylab.engine.api.InvalidFieldException;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.latencylab.engine.api.ScreenSize;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.link.LinkProfile;
import org.latencylab.engine.link.LinkProfiles;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code transports} experiment: the same request over several transports (SSE over HTTP/1.1, HTTP/2, h2c,
 * gRPC streaming, plain JSON) × network profiles (emulated links) × warm/cold connections, {@code requests} per
 * cell, at concurrency 1. Immutable and thread-safe.
 *
 * @param transports        transport ids ({@link Transport}); default {@code [sse-h1, grpc]}
 * @param networks          network profiles: built-in names ({@link LinkProfiles#BUILT_IN}) or YAML files;
 *                          default {@code [wired]}
 * @param connections       {@code warm} (a pooled connection, opened by an unrecorded warm-up request) and/or
 *                          {@code cold} (a new connection per request: DNS, TCP and TLS inside the measured time);
 *                          default {@code [warm]}
 * @param requests          measured requests per cell (transport × network × connection), &gt;= 1; default 20
 * @param promptTokens      prompt length in tokens (the same prompt for every request), &gt;= 1; default 128
 * @param maxOutputTokens   output tokens asked for, &gt;= 1; default 64
 * @param firstScreenChars  first screen in characters of answer text; default 200 (unless firstScreenTokens is set)
 * @param firstScreenTokens first screen in tokens instead of characters; default unset
 * @param seed              seed of the emulated jitter and loss; default 42
 * @throws IllegalArgumentException when a field is out of range, a transport is unknown or a network profile is
 *                                  missing or malformed; the message names the field (and the profile's file)
 */
@JsonIgnoreProperties(value = "type", allowGetters = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TransportsSpec(List<String> transports, List<String> networks, List<String> connections,
                             Integer requests, Integer promptTokens, Integer maxOutputTokens, Integer firstScreenChars,
                             Integer firstScreenTokens, Long seed) implements ExperimentSpec {

    /** Scenario type name. */
    public static final String TYPE = "transports";

    public TransportsSpec {
        transports = transports == null || transports.isEmpty() ? List.of("sse-h1", "grpc") : List.copyOf(transports);
        for (int i = 0; i < transports.size(); i++) {
            try {
                Transport.fromId(transports.get(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("transports[" + i + "]: " + e.getMessage(), e);
            }
        }
        networks = networks == null || networks.isEmpty() ? List.of("wired") : List.copyOf(networks);
        for (int i = 0; i < networks.size(); i++) {
            try {
                LinkProfiles.resolve(networks.get(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("networks[" + i + "]: " + e.getMessage(), e);
            }
        }
        connections = connections == null || connections.isEmpty() ? List.of("warm")
                : connections.stream().map(c -> c == null ? "" : c.strip().toLowerCase(Locale.ROOT)).toList();
        for (int i = 0; i < connections.size(); i++) {
            if (!connections.get(i).equals("warm") && !connections.get(i).equals("cold")) {
                throw new IllegalArgumentException("connections[" + i + "] must be warm or cold, was '"
                        + connections.get(i) + "'");
            }
        }
        requests = atLeast("requests", requests, 20);
        promptTokens = atLeast("promptTokens", promptTokens, 128);
        maxOutputTokens = atLeast("maxOutputTokens", maxOutputTokens, 64);
        if (firstScreenChars != null && firstScreenTokens != null) {
            throw new IllegalArgumentException("firstScreenChars and firstScreenTokens: give one of them, not both");
        }
        if (firstScreenTokens == null) {
            firstScreenChars = atLeast("firstScreenChars", firstScreenChars, ScreenSize.DEFAULT.amount());
        } else {
            firstScreenTokens = atLeast("firstScreenTokens", firstScreenTokens, 1);
        }
        seed = seed == null ? 42L : seed;
    }

    private static Integer atLeast(String field, Integer v, int dflt) {
        int x = v == null ? dflt : v;
        if (x < 1) {
            throw new InvalidFieldException(field, field + " must be >= 1, was " + x);
        }
        return x;
    }

    /** @return the transports, in order */
    @JsonIgnore
    public List<Transport> transportList() {
        return transports.stream().map(Transport::fromId).toList();
    }

    /**
     * @return the network profiles, in order
     * @throws IllegalArgumentException when a profile file changed since the scenario was read and is now malformed
     */
    @JsonIgnore
    public List<LinkProfile> networkProfiles() {
        List<LinkProfile> out = new ArrayList<>();
        for (String n : networks) {
            out.add(LinkProfiles.resolve(n));
        }
        return out;
    }

    /** @return the first-screen size */
    @JsonIgnore
    public ScreenSize screen() {
        return firstScreenTokens != null ? new ScreenSize(firstScreenTokens, ScreenSize.Unit.TOKENS)
                : new ScreenSize(firstScreenChars, ScreenSize.Unit.CHARACTERS);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public long plannedRequests() {
        return (long) requests * transports.size() * networks.size() * connections.size();
    }

    /** @return true: the comparison reaches the simulator's HTTP/2 and gRPC listeners through the in-process server */
    @Override
    public boolean needsInProcessSimulator() {
        return true;
    }
}
