package org.latencylab.app.ui.experiment;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.latencylab.engine.server.LaunchTemplates;
import org.latencylab.engine.server.VariantSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One server variant of the Server benchmark form, as JavaFX properties (no nodes): where the server comes from (a
 * simulator profile launched as its own process, a built-in template of vLLM, SGLang, TGI, llama.cpp or Ollama, a
 * command of one's own, or the URL of a running server), its model, parameters (a value each, or several for a
 * grid), price and instance type. {@link #spec()} builds the engine's {@link VariantSpec}, whose constructor
 * validates it; {@link #errorProperty()} holds that message after {@link ServerBenchForm#validate()}. Not
 * thread-safe: use it on the UI thread.
 */
public final class ServerVariantRow {
    /** Where a variant's server comes from: ids offered by the source choice, in order. */
    public static final List<String> SOURCES = List.of("sim:vllm-like", "sim:tgi-like", "sim:ollama-like", "vllm",
            "sglang", "tgi", "llama.cpp", "ollama", "command", "attach");
    /** Simulator flags set from parameters of the same name as the built-in templates' parameters. */
    static final Map<String, String> SIM_FLAGS = simFlags();

    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty source = new SimpleStringProperty("sim:vllm-like");
    private final StringProperty command = new SimpleStringProperty("");
    private final StringProperty model = new SimpleStringProperty("");
    private final StringProperty parameters = new SimpleStringProperty("");
    private final StringProperty protocol = new SimpleStringProperty("");
    private final StringProperty pricePerGpuHour = new SimpleStringProperty("");
    private final StringProperty instanceType = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

    private static Map<String, String> simFlags() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("max_num_seqs", "--max-num-seqs");
        m.put("max_batched_tokens", "--max-batched-tokens");
        m.put("gpu_memory_gib", "--gpu-memory-gib");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * @param name   display name
     * @param source one of {@link #SOURCES}
     * @return a row with those values and the rest empty
     */
    public static ServerVariantRow of(String name, String source) {
        ServerVariantRow r = new ServerVariantRow();
        r.name.set(name);
        r.source.set(source);
        return r;
    }

    /**
     * @param id a source id
     * @return it for people: {@code simulator (vllm-like)}, {@code vLLM}, {@code custom command}, …
     */
    public static String sourceText(String id) {
        if (id == null) {
            return "";
        }
        if (id.startsWith("sim:")) {
            return "simulator (" + id.substring(4) + ")";
        }
        return switch (id) {
            case "vllm" -> "vLLM";
            case "sglang" -> "SGLang";
            case "tgi" -> "TGI";
            case "ollama" -> "Ollama";
            case "command" -> "custom command";
            case "attach" -> "attach (URL)";
            default -> id;
        };
    }

    /** @return the variant's name, unique in the form, e.g. {@code vllm-like} */
    public StringProperty nameProperty() {
        return name;
    }

    /** @return one of {@link #SOURCES} */
    public StringProperty sourceProperty() {
        return source;
    }

    /** @return with source {@code command}: the command template; with {@code attach}: the server's base URL */
    public StringProperty commandProperty() {
        return command;
    }

    /** @return model name sent in requests and {@code {model}}; empty = the server's first listed model */
    public StringProperty modelProperty() {
        return model;
    }

    /**
     * @return parameters as {@code name=value; name=v1,v2,v3}: one value sets a placeholder, several make a grid
     *         (one variant per combination)
     */
    public StringProperty parametersProperty() {
        return parameters;
    }

    /** @return protocol id (e.g. {@code openai-chat}); empty = the source's default */
    public StringProperty protocolProperty() {
        return protocol;
    }

    /** @return price of one GPU-hour of this variant; empty = the benchmark's price */
    public StringProperty pricePerGpuHourProperty() {
        return pricePerGpuHour;
    }

    /** @return instance type shown in the cost table, e.g. {@code g5.xlarge}; optional */
    public StringProperty instanceTypeProperty() {
        return instanceType;
    }

    /** @return the engine's message about this variant after the last validation, or empty when it is valid */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    void setError(String message) {
        error.set(message == null ? "" : message);
    }

    /** @return whether the command field is used (own command or attach URL); else the source fixes the command */
    public boolean editableCommand() {
        return "command".equals(source.get()) || "attach".equals(source.get());
    }

    /**
     * @return the command template the variant launches, with placeholders (a simulator's with the flags its
     *         parameters set), the attach URL, or the custom command as typed
     */
    public String commandPreview() {
        String s = source.get() == null ? "" : source.get();
        if (s.startsWith("sim:")) {
            Map<String, List<String>> values = new LinkedHashMap<>();
            try {
                values = parseParameters(parameters.get());
            } catch (IllegalArgumentException ignored) {
                // shown without the flags until the parameters parse
            }
            return simCommand(s.substring(4), values.keySet());
        }
        LaunchTemplates.Template t = LaunchTemplates.BUILTIN.get(s);
        if (t != null) {
            StringBuilder b = new StringBuilder();
            t.env().forEach((k, v) -> b.append(k).append('=').append(v).append(' '));
            return b.append(t.command()).toString();
        }
        return command.get() == null ? "" : command.get().strip();
    }

    private static String simCommand(String profile, java.util.Collection<String> params) {
        StringBuilder b = new StringBuilder("{latencylab} sim --profile " + profile + " --port {port}");
        SIM_FLAGS.forEach((p, flag) -> {
            if (params.contains(p)) {
                b.append(' ').append(flag).append(" {").append(p).append('}');
            }
        });
        return b.toString();
    }

    /**
     * Parses {@code name=value; name=v1,v2}.
     *
     * @param text the parameters field
     * @return name → values in the order written
     * @throws IllegalArgumentException when an entry has no {@code =}, no name or no value; the message quotes it
     */
    static Map<String, List<String>> parseParameters(String text) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return out;
        }
        for (String entry : t.split("[;\\n]+")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            String key = eq < 0 ? "" : entry.substring(0, eq).strip();
            List<String> values = new ArrayList<>();
            if (eq >= 0) {
                for (String v : entry.substring(eq + 1).split(",")) {
                    if (!v.isBlank()) {
                        values.add(v.strip());
                    }
                }
            }
            if (key.isEmpty() || values.isEmpty() || !key.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("parameters: '" + entry.strip() + "' is not name=value or "
                        + "name=v1,v2 (names are letters, digits and _)");
            }
            out.put(key, values);
        }
        return out;
    }

    /**
     * @return the engine's variant
     * @throws IllegalArgumentException when a field is invalid: the engine's message, naming the variant
     */
    public VariantSpec spec() {
        String n = name.get() == null ? "" : name.get().strip();
        String v = "variant '" + n + "': ";
        Map<String, List<String>> all;
        try {
            all = parseParameters(parameters.get());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(v + e.getMessage(), e);
        }
        Map<String, String> params = new LinkedHashMap<>();
        Map<String, List<String>> grid = new LinkedHashMap<>();
        all.forEach((k, values) -> {
            if (values.size() == 1) {
                params.put(k, values.get(0));
            } else {
                grid.put(k, values);
            }
        });
        Double price = null;
        String p = pricePerGpuHour.get() == null ? "" : pricePerGpuHour.get().strip();
        if (!p.isEmpty()) {
            try {
                price = Double.parseDouble(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(v + "price per GPU-hour '" + p + "' is not a number");
            }
        }
        String s = source.get() == null ? "" : source.get();
        List<String> launch = null;
        String template = null;
        String attach = null;
        String proto = blankToNull(protocol.get());
        List<String> readiness = null;
        String cmd = command.get() == null ? "" : command.get().strip();
        if (s.startsWith("sim:")) {
            String profile = s.substring(4);
            launch = List.of(simCommand(profile, all.keySet()));
            if (profile.startsWith("ollama")) {
                proto = proto == null ? "ollama-chat" : proto;
                readiness = List.of("/api/tags");
            }
        } else if (LaunchTemplates.BUILTIN.containsKey(s)) {
            template = s;
        } else if (s.equals("command")) {
            if (cmd.isEmpty()) {
                throw new IllegalArgumentException(v + "the command is empty; e.g. vllm serve {model} --port {port}");
            }
            launch = List.of(cmd);
        } else if (s.equals("attach")) {
            if (cmd.isEmpty()) {
                throw new IllegalArgumentException(v + "the URL is empty; e.g. http://gpu-box:8000");
            }
            attach = cmd;
        } else {
            throw new IllegalArgumentException(v + "source must be one of " + SOURCES + ", was '" + s + "'");
        }
        return new VariantSpec(n, launch, template, attach, params.isEmpty() ? null : params,
                grid.isEmpty() ? null : grid, null, proto, blankToNull(model.get()), readiness, null, null, price, null,
                blankToNull(instanceType.get()));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (%s)", name.get(), sourceText(source.get()));
    }
}
