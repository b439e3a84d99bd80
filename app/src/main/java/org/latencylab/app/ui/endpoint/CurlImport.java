package org.latencylab.app.ui.endpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.app.ui.settings.EndpointConfig;
import org.latencylab.engine.api.Protocol;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a pasted {@code curl} command into an endpoint: the URL (its path selects the protocol and is cut off to
 * give the base URL), {@code -H} headers, {@code -d}/{@code --data*}/{@code --json} JSON (its {@code model}) and
 * {@code -k}/{@code --insecure}. A credential header ({@code Authorization: Bearer …}, {@code x-api-key}) is never
 * kept: it becomes a suggested environment variable name ({@code $OPENAI_API_KEY} in the command is taken as is,
 * otherwise a name derived from the host), and the result says so. Stateless and thread-safe.
 *
 * <p>Shell quoting is split by a small POSIX-style tokenizer of our own ({@link #tokenize(String)}): no maintained
 * Java library parses shell words without pulling a whole shell or CLI framework in, and curl commands copied from
 * API docs use only the simple cases (single quotes, double quotes with backslash escapes, backslash-newline
 * continuations, {@code $'…'} is not supported and reported).
 */
public final class CurlImport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ENV_REF = Pattern.compile("^\\$\\{?([A-Za-z_][A-Za-z0-9_]*)}?$");

    private CurlImport() {
    }

    /**
     * Splits a command line into words the way a POSIX shell does for the simple cases: blanks separate words;
     * {@code '…'} is literal; {@code "…"} is literal except that a backslash escapes {@code " \ $ `} and newline;
     * outside quotes a backslash escapes the next character and backslash-newline is a line continuation.
     * Variables are not expanded.
     *
     * @param command the command text
     * @return the words, quotes removed
     * @throws IllegalArgumentException when a quote is not closed, or {@code $'…'} quoting is used
     */
    public static List<String> tokenize(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        int n = command.length();
        while (i < n) {
            char c = command.charAt(i);
            if (c == '\'') {
                int end = command.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unclosed single quote starting at character " + (i + 1));
                }
                cur.append(command, i + 1, end);
                inWord = true;
                i = end + 1;
            } else if (c == '"') {
                i++;
                boolean closed = false;
                while (i < n) {
                    char d = command.charAt(i);
                    if (d == '"') {
                        closed = true;
                        i++;
                        break;
                    }
                    if (d == '\\' && i + 1 < n && "\"\\$`\n".indexOf(command.charAt(i + 1)) >= 0) {
                        if (command.charAt(i + 1) != '\n') {
                            cur.append(command.charAt(i + 1));
                        }
                        i += 2;
                        continue;
                    }
                    cur.append(d);
                    i++;
                }
                if (!closed) {
                    throw new IllegalArgumentException("unclosed double quote");
                }
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 < n) {
                    char d = command.charAt(i + 1);
                    if (d == '\n' || d == '\r') {
                        i += d == '\r' && i + 2 < n && command.charAt(i + 2) == '\n' ? 3 : 2;
                        continue;
                    }
                    cur.append(d);
                    inWord = true;
                }
                i += 2;
            } else if (c == '$' && i + 1 < n && command.charAt(i + 1) == '\'') {
                throw new IllegalArgumentException("$'...' quoting is not supported; use plain single quotes");
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(cur.toString());
                    cur.setLength(0);
                    inWord = false;
                }
                i++;
            } else {
                cur.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(cur.toString());
        }
        return words;
    }

    /**
     * Parses a curl command.
     *
     * @param command e.g. {@code curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer $OPENAI_API_KEY" -d '{"model":"gpt-4o-mini",…}'}
     * @return the endpoint and notes for the user
     * @throws IllegalArgumentException when the text is not a curl command with an http(s) URL, or its quoting
     *                                  is broken; the message says what is wrong
     */
    public static Result parse(String command) {
        List<String> words = tokenize(command == null ? "" : command.strip());
        if (words.isEmpty() || !words.get(0).equals("curl") && !words.get(0).endsWith("/curl")) {
            throw new IllegalArgumentException("paste a command that starts with 'curl'");
        }
        String url = null;
        Map<String, String> headers = new LinkedHashMap<>();
        String data = null;
        boolean insecure = false;
        List<String> notes = new ArrayList<>();
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            String value = null;
            String opt = w;
            if (w.startsWith("--") && w.contains("=")) {
                opt = w.substring(0, w.indexOf('='));
                value = w.substring(w.indexOf('=') + 1);
            }
            switch (opt) {
                case "-H", "--header" -> {
                    String h = value != null ? value : next(words, ++i, opt);
                    int colon = h.indexOf(':');
                    if (colon > 0) {
                        headers.put(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
                    }
                }
                case "-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json" ->
                        data = value != null ? value : next(words, ++i, opt);
                case "--url" -> url = value != null ? value : next(words, ++i, opt);
                case "-k", "--insecure" -> insecure = true;
                case "-X", "--request", "-o", "--output", "-m", "--max-time", "--connect-timeout", "-A",
                     "--user-agent", "-e", "--referer" -> {
                    if (value == null) {
                        i++;
                    }
                }
                case "-u", "--user" -> {
                    if (value == null) {
                        i++;
                    }
                    notes.add("-u credentials were ignored; set an API key environment variable instead");
                }
                default -> {
                    if (!w.startsWith("-") && url == null) {
                        url = w;
                    }
                }
            }
        }
        if (url == null) {
            throw new IllegalArgumentException("the curl command has no URL");
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL", e);
        }
        if (uri.getScheme() == null || !uri.getScheme().startsWith("http") || uri.getHost() == null) {
            throw new IllegalArgumentException("the URL must start with http:// or https://, was '" + url + "'");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        Protocol protocol = Protocol.OPENAI_CHAT;
        String prefix = path;
        for (Map.Entry<String, Protocol> e : PATHS.entrySet()) {
            if (path.endsWith(e.getKey())) {
                protocol = e.getValue();
                prefix = path.substring(0, path.length() - e.getKey().length());
                break;
            }
        }
        if (prefix.equals(path) && !path.isEmpty() && !path.equals("/")) {
            notes.add("the path " + path + " is not a known API path; assumed OpenAI chat with that prefix");
        }
        String base = uri.getScheme() + "://" + uri.getRawAuthority() + prefix;
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }

        String apiKeyEnv = null;
        Map<String, String> kept = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : headers.entrySet()) {
            String name = h.getKey();
            if (name.equalsIgnoreCase("content-type") || name.equalsIgnoreCase("accept")) {
                continue;
            }
            if (EndpointConfig.isSecretHeader(name)) {
                String v = h.getValue();
                if (v.regionMatches(true, 0, "Bearer ", 0, 7)) {
                    v = v.substring(7).strip();
                }
                Matcher m = ENV_REF.matcher(v);
                apiKeyEnv = m.matches() ? m.group(1) : suggestEnvName(uri.getHost());
                notes.add(m.matches()
                        ? "the " + name + " header uses $" + apiKeyEnv + "; the key is read from it at send time"
                        : "the " + name + " header held a literal key; it was NOT saved. Put the key into the"
                        + " environment variable " + apiKeyEnv + " (suggested name)");
                continue;
            }
            kept.put(name, h.getValue());
        }
        String model = "";
        if (data != null && !data.startsWith("@")) {
            try {
                JsonNode body = JSON.readTree(data);
                if (body != null && body.hasNonNull("model")) {
                    model = body.get("model").asText();
                }
            } catch (java.io.IOException e) {
                notes.add("the request body is not JSON; no model was taken from it");
            }
        }
        if (insecure) {
            notes.add("-k turns TLS certificate verification off for this endpoint");
        }
        EndpointConfig cfg = new EndpointConfig(nameFor(uri.getHost(), model), protocol.id(), base, model, apiKeyEnv,
                kept, !insecure);
        return new Result(cfg, List.copyOf(notes));
    }

    /**
     * @param host the endpoint's host
     * @return a conventional key variable: {@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY}, … for well-known
     *         hosts, else the host's first label upper-cased plus {@code _API_KEY}
     */
    public static String suggestEnvName(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        for (String known : List.of("openai", "anthropic", "groq", "together", "mistral", "fireworks", "deepseek",
                "openrouter")) {
            if (h.contains(known)) {
                return known.toUpperCase(Locale.ROOT) + "_API_KEY";
            }
        }
        String[] labels = h.split("\\.");
        String first = labels.length > 2 && (labels[0].equals("api") || labels[0].equals("www")) ? labels[1] : labels[0];
        String cleaned = first.replaceAll("[^a-z0-9]+", "_").toUpperCase(Locale.ROOT);
        if (cleaned.isEmpty() || Character.isDigit(cleaned.charAt(0))) {
            cleaned = "LLM";
        }
        return cleaned + "_API_KEY";
    }

    private static String nameFor(String host, String model) {
        return model.isBlank() ? host : host + " " + model;
    }

    private static String next(List<String> words, int i, String opt) {
        if (i >= words.size()) {
            throw new IllegalArgumentException(opt + " needs a value");
        }
        return words.get(i);
    }

    /** API paths, longest first, and the protocol each selects. */
    private static final Map<String, Protocol> PATHS = new LinkedHashMap<>();

    static {
        PATHS.put("/v1/chat/completions", Protocol.OPENAI_CHAT);
        PATHS.put("/v1/completions", Protocol.OPENAI_COMPLETIONS);
        PATHS.put("/v1/messages", Protocol.ANTHROPIC_MESSAGES);
        PATHS.put("/api/chat", Protocol.OLLAMA_CHAT);
        PATHS.put("/api/generate", Protocol.OLLAMA_GENERATE);
        PATHS.put("/generate_stream", Protocol.TGI_GENERATE);
    }

    /**
     * A parsed curl command.
     *
     * @param endpoint the endpoint (never holding a key value)
     * @param notes    what the user should know (a key that was dropped, a guessed protocol, …)
     */
    public record Result(EndpointConfig endpoint, List<String> notes) {
    }
}
