package org.latencylab.engine.compare;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;

import java.time.Duration;
import java.util.Map;

/**
 * One endpoint of a multi-endpoint experiment, as written in a scenario: either the built-in simulator with a
 * profile ({@code {name: fast, profile: small-fast}}), a real endpoint ({@code {name, protocol, baseUrl, model,
 * apiKeyEnv, headers}}), or a delaying proxy in front of another entry of the same list
 * ({@code {name: via-gateway, proxyOf: direct, proxyDelay: 2ms}}). Immutable and thread-safe.
 *
 * @param name       display name, unique in the list; not blank
 * @param profile    built-in simulator profile name or profile file, or null
 * @param protocol   protocol id of a real endpoint (default {@code openai-chat})
 * @param baseUrl    base URL of a real endpoint, or null
 * @param model      model name of a real endpoint
 * @param apiKeyEnv  environment variable holding the API key, or null
 * @param headers    extra request headers, or null
 * @param proxyOf    name of an earlier entry to put a delaying proxy in front of, or null
 * @param proxyDelay one-way delay the proxy adds per direction (default 0: a plain extra hop)
 * @throws IllegalArgumentException when not exactly one of profile, baseUrl and proxyOf is given; the message
 *                                  names the entry
 */
// run.json carries the derived isSimulator()/isProxy() as "simulator"/"proxy"; reading a run back ignores them
@JsonIgnoreProperties(value = {"simulator", "proxy"}, allowGetters = true)
public record TargetEntry(@JsonProperty("name") String name,
                          @JsonProperty("profile") String profile,
                          @JsonProperty("protocol") String protocol,
                          @JsonProperty("baseUrl") String baseUrl,
                          @JsonProperty("model") String model,
                          @JsonProperty("apiKeyEnv") String apiKeyEnv,
                          @JsonProperty("headers") Map<String, String> headers,
                          @JsonProperty("proxyOf") String proxyOf,
                          @JsonProperty("proxyDelay") Duration proxyDelay) {
    public TargetEntry {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must be set (a short display name)");
        }
        name = name.strip();
        int kinds = (blank(profile) ? 0 : 1) + (blank(baseUrl) ? 0 : 1) + (blank(proxyOf) ? 0 : 1);
        if (kinds != 1) {
            throw new IllegalArgumentException("endpoint '" + name + "': give exactly one of profile (built-in"
                    + " simulator), baseUrl (a real endpoint) or proxyOf (a proxy in front of another entry)");
        }
        if (proxyDelay != null && proxyDelay.isNegative()) {
            throw new IllegalArgumentException("endpoint '" + name + "': proxyDelay must be >= 0, was " + proxyDelay);
        }
        // a zero delay without proxyOf is what run.json holds for every entry (written after defaults): read it back
        if (proxyDelay != null && !proxyDelay.isZero() && blank(proxyOf)) {
            throw new IllegalArgumentException("endpoint '" + name + "': proxyDelay needs proxyOf");
        }
        proxyDelay = proxyDelay == null ? Duration.ZERO : proxyDelay;
        if (!blank(baseUrl)) {
            // validates protocol and URL now, so a scenario error names the entry before anything runs
            endpoint(baseUrl);
        }
    }

    /** @param name display name @param profile simulator profile @return a simulator entry */
    public static TargetEntry simulator(String name, String profile) {
        return new TargetEntry(name, profile, null, null, null, null, null, null, null);
    }

    /** @param name display name @param of entry to proxy @param delay one-way delay @return a proxy entry */
    public static TargetEntry proxy(String name, String of, Duration delay) {
        return new TargetEntry(name, null, null, null, null, null, null, of, delay);
    }

    /** @return true for a built-in simulator entry */
    public boolean isSimulator() {
        return !blank(profile);
    }

    /** @return true for a proxy entry */
    public boolean isProxy() {
        return !blank(proxyOf);
    }

    /**
     * @param url the base URL to use
     * @return the endpoint this entry describes at that URL
     * @throws IllegalArgumentException when the protocol or URL is invalid
     */
    Endpoint endpoint(String url) {
        Protocol p = Protocol.fromId(blank(protocol) ? Protocol.OPENAI_CHAT.id() : protocol);
        return new Endpoint(name, p, url, model, apiKeyEnv, headers, true);
    }

    /** @return a short description, e.g. {@code simulator small-fast} or the URL */
    public String describe() {
        if (isSimulator()) {
            return "simulator " + profile;
        }
        if (isProxy()) {
            return "proxy in front of " + proxyOf + " (+" + proxyDelay.toMillis() + " ms each way)";
        }
        return baseUrl;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
