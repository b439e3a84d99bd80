package org.latencylab.engine.server;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Command templates for inference servers and their expansion. A template is a command line with placeholders in
 * braces, e.g. {@code vllm serve {model} --port {port} --max-num-seqs {max_num_seqs}}; every placeholder must have a
 * value: the reserved ones below, or a variant's {@code params} / {@code grid} entry of that name.
 *
 * <p>Reserved placeholders: {@code {port}} (the port LatencyLab chose or the variant's {@code port}), {@code {host}}
 * ({@code 127.0.0.1}), {@code {model}} (the variant's model), and {@code {latencylab}}, which stands for LatencyLab's
 * own launcher as a separate JVM — the Java executable running now (with {@code -XX:TieredStopAtLevel=1}: a
 * server process needs quick start-up more than peak compiled speed), {@code -cp} with the running class path (made
 * absolute) and the launcher class ({@code org.latencylab.app.Launcher} when present, else the engine's
 * {@link org.latencylab.engine.sim.SimMain}) — so that {@code {latencylab} sim --profile vllm-like --port {port}}
 * starts a simulator process from any installation.
 *
 * <p>Built-in templates ({@code template: vllm} etc.) use each server's real flag names, from their documentation:
 * vLLM {@code vllm serve --max-num-seqs --max-num-batched-tokens}; SGLang {@code python3 -m sglang.launch_server
 * --max-running-requests --chunked-prefill-size --enable-metrics}; TGI {@code text-generation-launcher
 * --max-concurrent-requests --max-batch-prefill-tokens}; llama.cpp {@code llama-server --parallel --batch-size
 * --metrics}; Ollama {@code ollama serve} with {@code OLLAMA_HOST} and {@code OLLAMA_NUM_PARALLEL} in its
 * environment. Stateless; thread-safe.
 */
public final class LaunchTemplates {
    /** Placeholders with a value supplied by LatencyLab. */
    public static final Set<String> RESERVED = Set.of("port", "host", "model", "latencylab");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");
    private static final String APP_LAUNCHER = "org.latencylab.app.Launcher";

    /**
     * A built-in template.
     *
     * @param command     the command line with placeholders
     * @param env         environment entries with placeholders
     * @param defaults    default values of its parameters
     * @param readiness   paths polled until one answers 200
     * @param protocol    protocol id to send with
     * @param metricsPath path of its Prometheus metrics, or empty for none
     */
    public record Template(String command, Map<String, String> env, Map<String, String> defaults,
                           List<String> readiness, String protocol, String metricsPath) {
    }

    /** The built-in templates by name. */
    public static final Map<String, Template> BUILTIN = builtins();

    private LaunchTemplates() {
    }

    private static Map<String, Template> builtins() {
        Map<String, Template> m = new LinkedHashMap<>();
        Map<String, String> batch = Map.of("max_num_seqs", "256", "max_batched_tokens", "8192");
        m.put("vllm", new Template("vllm serve {model} --host {host} --port {port} --max-num-seqs {max_num_seqs} "
                + "--max-num-batched-tokens {max_batched_tokens}", Map.of(), batch, List.of("/health"),
                "openai-chat", "/metrics"));
        m.put("sglang", new Template("python3 -m sglang.launch_server --model-path {model} --host {host} --port {port} "
                + "--max-running-requests {max_num_seqs} --chunked-prefill-size {max_batched_tokens} --enable-metrics",
                Map.of(), batch, List.of("/health"), "openai-chat", "/metrics"));
        m.put("tgi", new Template("text-generation-launcher --model-id {model} --hostname {host} --port {port} "
                + "--max-concurrent-requests {max_num_seqs} --max-batch-prefill-tokens {max_batched_tokens}",
                Map.of(), Map.of("max_num_seqs", "128", "max_batched_tokens", "4096"), List.of("/health"),
                "openai-chat", "/metrics"));
        m.put("llama.cpp", new Template("llama-server -m {model} --host {host} --port {port} --parallel {max_num_seqs} "
                + "--batch-size {max_batched_tokens} --metrics", Map.of(),
                Map.of("max_num_seqs", "4", "max_batched_tokens", "2048"), List.of("/health"), "openai-chat",
                "/metrics"));
        m.put("ollama", new Template("ollama serve", Map.of("OLLAMA_HOST", "{host}:{port}", "OLLAMA_NUM_PARALLEL",
                "{max_num_seqs}"), Map.of("max_num_seqs", "4"), List.of("/api/tags"), "ollama-chat", ""));
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Splits a command line at blanks; single or double quotes keep blanks inside one argument (no other shell
     * syntax: no variables, globs or pipes — the command is started directly, not by a shell).
     *
     * @param line a command line
     * @return its arguments
     * @throws IllegalArgumentException on an unclosed quote
     */
    public static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || !cur.isEmpty()) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unclosed " + quote + " quote in command: " + line);
        }
        if (any || !cur.isEmpty()) {
            out.add(cur.toString());
        }
        return out;
    }

    /**
     * @param texts command arguments and environment values
     * @return the placeholder names used, in order of first use
     */
    public static Set<String> placeholders(List<String> texts) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : texts) {
            Matcher m = PLACEHOLDER.matcher(t);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /**
     * Fills a template's placeholders.
     *
     * @param command arguments with placeholders; {@code {latencylab}} must stand alone as an argument
     * @param values  a value for every placeholder except {@code latencylab}
     * @return the command to start
     * @throws IllegalArgumentException when a placeholder has no value (the message names it) or
     *                                  {@code {latencylab}} is part of a longer argument
     */
    public static List<String> expand(List<String> command, Map<String, String> values) {
        List<String> out = new ArrayList<>();
        for (String a : command) {
            if (a.equals("{latencylab}")) {
                out.addAll(selfCommand());
                continue;
            }
            if (a.contains("{latencylab}")) {
                throw new IllegalArgumentException("{latencylab} must be an argument of its own, was in '" + a + "'");
            }
            out.add(fill(a, values));
        }
        return out;
    }

    /**
     * @param text   a text with placeholders
     * @param values their values
     * @return the text filled in
     * @throws IllegalArgumentException when a placeholder has no value
     */
    public static String fill(String text, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("placeholder {" + m.group(1) + "} has no value");
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /**
     * How to start LatencyLab's own launcher in a new JVM. Normally the Java executable of the running JVM
     * ({@code java.home/bin/java}, else {@link ProcessHandle.Info#command()}), {@code -XX:TieredStopAtLevel=1},
     * {@code -cp} and the running class path with every entry made absolute, and the launcher class. In an installed
     * application image, whose runtime has no {@code bin/java} (jpackage strips it) and whose process is a native
     * launcher that runs LatencyLab's main class with the arguments it is given, that launcher alone.
     *
     * @return the arguments
     */
    public static List<String> selfCommand() {
        Path home = Path.of(System.getProperty("java.home"));
        Path javaExe = home.resolve("bin").resolve(System.getProperty("os.name", "").startsWith("Windows")
                ? "java.exe" : "java");
        Optional<String> self = ProcessHandle.current().info().command();
        boolean hasJava = Files.isExecutable(javaExe);
        if (!hasJava && self.isPresent()) {
            String exe = Path.of(self.get()).getFileName().toString().toLowerCase(Locale.ROOT);
            if (!exe.equals("java") && !exe.equals("java.exe")) {
                return List.of(self.get());
            }
        }
        String javaCommand = hasJava ? javaExe.toString() : self.orElse("java");
        List<String> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                cp.add(Path.of(e).toAbsolutePath().toString());
            }
        }
        String main;
        try {
            Class.forName(APP_LAUNCHER, false, LaunchTemplates.class.getClassLoader());
            main = APP_LAUNCHER;
        } catch (ClassNotFoundException e) {
            main = org.latencylab.engine.sim.SimMain.class.getName();
        }
        return List.of(javaCommand, "-XX:TieredStopAtLevel=1", "-cp", String.join(File.pathSeparator, cp), main);
    }
}
