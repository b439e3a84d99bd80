package org.latencylab.engine.api;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An inference endpoint to measure: where it is, which protocol it speaks and which model to ask for.
 *
 * <p>The API key is never stored: {@code apiKeyEnv} names an environment variable whose value the client reads
 * at send time and puts into the protocol's auth header. Immutable and thread-safe.
 *
 * @param name       display name, unique within a scenario; not blank
 * @param protocol   wire protocol; not null
 * @param baseUrl    scheme, host, port and optional path prefix, e.g. {@code http://127.0.0.1:8000}; the
 *                   protocol's path ({@code /v1/chat/completions}, ...) is appended. {@code http} or {@code https}.
 * @param model      model name sent in the request body; may be empty when the server ignores it
 * @param apiKeyEnv  name of the environment variable holding the API key, or null for none
 * @param headers    extra request headers (copied; never null)
 * @param verifyTls  whether TLS certificates are verified (default true)
 * @throws IllegalArgumentException when a field is missing or the URL is not http(s); the message names it
 */
public record Endpoint(String name, Protocol protocol, String baseUrl, String model, String apiKeyEnv,
                       Map<String, String> headers, boolean verifyTls) {

    /** @return a suggestion for a URL given without its scheme ("127.0.0.1:8000"), else "" */
    private static String schemeHint(String baseUrl) {
        String u = baseUrl.strip();
        return u.contains("://") || u.isEmpty() ? "" : "; did you mean http://" + u + " ?";
    }

    public Endpoint {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("endpoint name must not be blank");
        }
        Objects.requireNonNull(protocol, "endpoint '" + name + "': protocol must be set");
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("endpoint '" + name + "': baseUrl must be set, e.g. http://127.0.0.1:8000");
        }
        URI uri;
        try {
            uri = URI.create(baseUrl.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("endpoint '" + name + "': baseUrl '" + baseUrl + "' is not a URL"
                    + schemeHint(baseUrl), e);
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("endpoint '" + name + "': baseUrl '" + baseUrl
                    + "' must be an http:// or https:// URL with a host" + schemeHint(baseUrl));
        }
        baseUrl = stripTrailingSlash(baseUrl.strip());
        model = model == null ? "" : model;
        if (apiKeyEnv != null && apiKeyEnv.isBlank()) {
            apiKeyEnv = null;
        }
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(headers));
    }

    /**
     * A plain endpoint without key, extra headers, TLS verification on.
     *
     * @param name     display name
     * @param protocol wire protocol
     * @param baseUrl  base URL (see the record docs)
     * @param model    model name
     * @return the endpoint
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static Endpoint of(String name, Protocol protocol, String baseUrl, String model) {
        return new Endpoint(name, protocol, baseUrl, model, null, Map.of(), true);
    }

    /** @return the host of {@link #baseUrl()}, e.g. {@code 127.0.0.1} */
    public String host() {
        return URI.create(baseUrl).getHost();
    }

    /** @return a copy with another base URL (e.g. once the simulator's port is known) */
    public Endpoint withBaseUrl(String newBaseUrl) {
        return new Endpoint(name, protocol, newBaseUrl, model, apiKeyEnv, headers, verifyTls);
    }

    private static String stripTrailingSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }
}
