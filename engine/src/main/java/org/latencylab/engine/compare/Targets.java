package org.latencylab.engine.compare;

import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.proxy.DelayProxy;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The endpoints of a multi-endpoint step, started: a simulator per simulator entry, a {@link DelayProxy} per
 * proxy entry, nothing for real endpoints. {@link #close()} stops what was started. Thread-safe after
 * {@link #start}.
 */
public final class Targets implements AutoCloseable {
    private final Map<String, Endpoint> endpoints;
    private final Map<String, String> descriptions;
    private final List<AutoCloseable> started;

    private Targets(Map<String, Endpoint> endpoints, Map<String, String> descriptions, List<AutoCloseable> started) {
        this.endpoints = endpoints;
        this.descriptions = descriptions;
        this.started = started;
    }

    /**
     * Checks a list of entries without starting anything.
     *
     * @param entries entries in order
     * @param field   scenario field name for messages, e.g. {@code "endpoints"}
     * @param min     smallest number of entries
     * @throws IllegalArgumentException on too few entries, duplicate names or a proxy of an unknown or later entry
     */
    public static void validate(List<TargetEntry> entries, String field, int min) {
        if (entries == null || entries.size() < min) {
            throw new IllegalArgumentException(field + " needs at least " + min + " entries, has "
                    + (entries == null ? 0 : entries.size()));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            TargetEntry e = entries.get(i);
            if (e == null) {
                throw new IllegalArgumentException(field + "[" + i + "] is empty");
            }
            if (e.isProxy() && !seen.contains(e.proxyOf())) {
                throw new IllegalArgumentException(field + "[" + i + "] (" + e.name() + "): proxyOf '" + e.proxyOf()
                        + "' must name an earlier entry, known: " + seen);
            }
            if (!seen.add(e.name())) {
                throw new IllegalArgumentException(field + "[" + i + "]: the name '" + e.name() + "' is used twice");
            }
        }
    }

    /**
     * Starts the simulators and proxies of the entries.
     *
     * @param entries entries (validated with {@link #validate})
     * @param seed    seed for the simulators' jitter
     * @return the started targets
     * @throws IllegalArgumentException when a simulator profile is unknown
     */
    public static Targets start(List<TargetEntry> entries, long seed) {
        Map<String, Endpoint> eps = new LinkedHashMap<>();
        Map<String, String> desc = new LinkedHashMap<>();
        List<AutoCloseable> started = new ArrayList<>();
        try {
            int k = 0;
            for (TargetEntry e : entries) {
                if (e.isSimulator()) {
                    SimProfile profile = SimProfile.resolve(e.profile());
                    SimServer sim = SimServer.start(profile, SimOptions.builder().seed(seed + k++).build());
                    started.add(sim);
                    Endpoint ep = new Endpoint(e.name(), org.latencylab.engine.api.Protocol.OPENAI_CHAT,
                            sim.baseUrl(), profile.model(), null, null, true);
                    eps.put(e.name(), ep);
                    desc.put(e.name(), "simulator " + profile.name() + " at " + sim.baseUrl());
                } else if (e.isProxy()) {
                    Endpoint behind = eps.get(e.proxyOf());
                    URI u = URI.create(behind.baseUrl());
                    int port = u.getPort() > 0 ? u.getPort() : "https".equals(u.getScheme()) ? 443 : 80;
                    DelayProxy proxy = DelayProxy.start(u.getHost(), port, e.proxyDelay());
                    started.add(proxy);
                    String url = u.getScheme() + "://127.0.0.1:" + proxy.port() + (u.getRawPath() == null ? "" : u.getRawPath());
                    eps.put(e.name(), new Endpoint(e.name(), behind.protocol(), url, behind.model(), behind.apiKeyEnv(),
                            behind.headers(), behind.verifyTls()));
                    desc.put(e.name(), e.describe() + " at " + url);
                } else {
                    eps.put(e.name(), e.endpoint(e.baseUrl()));
                    desc.put(e.name(), e.baseUrl());
                }
            }
        } catch (RuntimeException ex) {
            new Targets(eps, desc, started).close();
            throw ex;
        }
        return new Targets(eps, desc, started);
    }

    /** @return the endpoints by name, in entry order */
    public Map<String, Endpoint> endpoints() {
        return endpoints;
    }

    /** @return what each endpoint is, by name (e.g. {@code simulator small-fast at http://127.0.0.1:40123}) */
    public Map<String, String> descriptions() {
        return descriptions;
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception ignored) {
                // best effort: a server that does not stop cleanly must not hide the run's result
            }
        }
    }
}
