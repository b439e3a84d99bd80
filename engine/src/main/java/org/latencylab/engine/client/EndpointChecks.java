package org.latencylab.engine.client;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Checks of what a user typed for an endpoint, made before anything is sent, with the words the command line and the
 * window both show (one source for both): a base URL pasted with the API path still on it, and an API key variable
 * that is not set. Stateless; thread-safe.
 */
public final class EndpointChecks {
    /**
     * API paths a pasted URL often ends in: the request paths of the protocols LatencyLab speaks (OpenAI chat and
     * completions, Anthropic messages, Ollama chat and generate, TGI generate and generate_stream) and the OpenAI
     * model list. Longer paths come first, so {@code /v1/chat/completions} is taken whole rather than as
     * {@code /chat/completions}.
     */
    public static final List<String> API_PATHS = List.of("/v1/chat/completions", "/v1/completions",
            "/chat/completions", "/v1/messages", "/api/chat", "/api/generate", "/generate_stream", "/generate",
            "/v1/models");

    private EndpointChecks() {
    }

    /**
     * A base URL, with the API path it was given with (if any) taken off.
     *
     * @param url          the base URL to use: what was given, less a trailing {@code /} and a known API path
     * @param given        the URL as given (stripped of surrounding blanks)
     * @param strippedPath the API path taken off the end, e.g. {@code /v1/chat/completions}; "" when none was
     */
    public record BaseUrl(String url, String given, String strippedPath) {
        /** @throws NullPointerException when a component is null */
        public BaseUrl {
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(given, "given");
            Objects.requireNonNull(strippedPath, "strippedPath");
        }

        /** @return true when an API path was taken off */
        public boolean stripped() {
            return !strippedPath.isEmpty();
        }

        /**
         * @return one sentence for the user when a path was taken off, e.g. {@code the URL ends in the API path
         * /v1/chat/completions; using its base URL http://127.0.0.1:8000 (the protocol adds its own path)}; "" when
         * none was
         */
        public String notice() {
            return stripped() ? "the URL ends in the API path " + strippedPath + "; using its base URL " + url
                    + " (the protocol adds its own path)" : "";
        }
    }

    /**
     * Takes a known API path ({@link #API_PATHS}, compared without regard to case) and trailing slashes off the end
     * of a URL. A URL with a query or fragment is left as it is (apart from the blanks around it): a path before a
     * {@code ?} is not the URL's end.
     *
     * @param url a URL as the user typed it; null reads as ""
     * @return the base URL and what was taken off; never null
     */
    public static BaseUrl baseUrl(String url) {
        String given = url == null ? "" : url.strip();
        if (given.contains("?") || given.contains("#")) {
            return new BaseUrl(given, given, "");
        }
        String u = trimSlashes(given);
        String lower = u.toLowerCase(Locale.ROOT);
        for (String path : API_PATHS) {
            if (lower.endsWith(path) && u.length() > path.length()
                    && !u.substring(0, u.length() - path.length()).endsWith(":/")) {
                String base = trimSlashes(u.substring(0, u.length() - path.length()));
                if (base.contains("://") && base.indexOf("://") + 3 < base.length()) {
                    return new BaseUrl(base, given, u.substring(u.length() - path.length()));
                }
            }
        }
        return new BaseUrl(u, given, "");
    }

    /**
     * What is wrong with an API key variable, before anything is sent: the variable is not set, or set to an empty
     * value. A key's value is never part of the words.
     *
     * @param apiKeyEnv the variable's name, or null/blank for an endpoint without a key (nothing to check)
     * @param env       environment lookup (null = unset), e.g. {@code System::getenv}; not null
     * @return the problem in words, e.g. {@code the environment variable OPENAI_API_KEY is not set: set it to the
     * API key (export OPENAI_API_KEY=...) or leave the key out for an endpoint that needs none}; "" when there is none
     * @throws NullPointerException when {@code env} is null
     */
    public static String keyProblem(String apiKeyEnv, Function<String, String> env) {
        Objects.requireNonNull(env, "env");
        if (apiKeyEnv == null || apiKeyEnv.isBlank()) {
            return "";
        }
        String name = apiKeyEnv.strip();
        String value = env.apply(name);
        if (value != null && !value.isBlank()) {
            return "";
        }
        return "the environment variable " + name + (value == null ? " is not set" : " is set but empty")
                + ": set it to the API key (export " + name + "=...) before starting LatencyLab, or leave the key"
                + " out for an endpoint that needs none";
    }

    /**
     * Words for a server that refused a request for want of a (valid) key.
     *
     * @param status    the HTTP status, 401 or 403
     * @param apiKeyEnv the variable the key came from, or null when no key was sent
     * @return e.g. {@code the server refused the request with HTTP 401 (it wants an API key: none was sent; name
     * the variable that holds it)}
     */
    public static String keyRefused(int status, String apiKeyEnv) {
        return "the server refused the request with HTTP " + status + (apiKeyEnv == null || apiKeyEnv.isBlank()
                ? " (it wants an API key: none was sent; name the environment variable that holds it)"
                : " (the key in " + apiKeyEnv.strip() + " was not accepted: check its value, and that it belongs to"
                + " this server)");
    }

    private static String trimSlashes(String s) {
        String u = s;
        while (u.endsWith("/") && !u.endsWith("://")) {
            u = u.substring(0, u.length() - 1);
        }
        return u;
    }
}
