package org.latencylab.app.ui.settings;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A saved endpoint as it is stored in {@code settings.json}. Unlike {@link Endpoint} it may be incomplete (a draft
 * being edited); {@link #toEndpoint()} validates it. Never holds an API key value: {@code apiKeyEnv} names the
 * environment variable. Immutable and thread-safe.
 *
 * @param name      display name
 * @param protocol  protocol id, e.g. {@code openai-chat} (see {@link Protocol#id()})
 * @param baseUrl   base URL without the protocol's path, e.g. {@code https://api.openai.com}
 * @param model     model name sent in requests
 * @param apiKeyEnv name of the environment variable that holds the key, or null/blank for none
 * @param headers   extra request headers; never null (credential headers are removed, see {@link #withoutSecrets()})
 * @param verifyTls whether TLS certificates are verified (default true)
 */
public record EndpointConfig(@JsonProperty("name") String name, @JsonProperty("protocol") String protocol,
                             @JsonProperty("baseUrl") String baseUrl, @JsonProperty("model") String model,
                             @JsonProperty("apiKeyEnv") String apiKeyEnv,
                             @JsonProperty("headers") Map<String, String> headers,
                             @JsonProperty("verifyTls") Boolean verifyTls) {

    /** Header names (lower case) whose values are credentials and are never written to disk. */
    public static final Set<String> SECRET_HEADERS = Set.of("authorization", "proxy-authorization", "x-api-key",
            "api-key", "cookie", "x-goog-api-key");

    /** Fills defaults: empty strings for missing text, no headers, TLS verification on. */
    public EndpointConfig {
        name = name == null ? "" : name;
        protocol = protocol == null || protocol.isBlank() ? Protocol.OPENAI_CHAT.id() : protocol;
        baseUrl = baseUrl == null ? "" : baseUrl;
        model = model == null ? "" : model;
        apiKeyEnv = apiKeyEnv == null || apiKeyEnv.isBlank() ? null : apiKeyEnv.strip();
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(headers));
        verifyTls = verifyTls == null || verifyTls;
    }

    /**
     * @param e an endpoint
     * @return its stored form
     */
    public static EndpointConfig of(Endpoint e) {
        return new EndpointConfig(e.name(), e.protocol().id(), e.baseUrl(), e.model(), e.apiKeyEnv(), e.headers(),
                e.verifyTls());
    }

    /**
     * @return the validated engine endpoint
     * @throws IllegalArgumentException when the name, protocol or URL is invalid; the message names the field
     */
    public Endpoint toEndpoint() {
        return new Endpoint(name, Protocol.fromId(protocol), baseUrl, model, apiKeyEnv, headers, verifyTls);
    }

    /**
     * @param header a header name
     * @return true when its value is a credential ({@link #SECRET_HEADERS}, case-insensitive)
     */
    public static boolean isSecretHeader(String header) {
        return header != null && SECRET_HEADERS.contains(header.strip().toLowerCase(Locale.ROOT));
    }

    /** @return a copy without credential headers (what is written to disk) */
    public EndpointConfig withoutSecrets() {
        Map<String, String> kept = new TreeMap<>();
        headers.forEach((k, v) -> {
            if (!isSecretHeader(k)) {
                kept.put(k, v);
            }
        });
        return new EndpointConfig(name, protocol, baseUrl, model, apiKeyEnv, kept, verifyTls);
    }
}
