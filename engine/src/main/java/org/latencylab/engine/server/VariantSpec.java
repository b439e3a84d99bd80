package org.latencylab.engine.server;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.latencylab.engine.api.Protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One server variant of a {@code server-bench} step: either launched by LatencyLab from a command template
 * ({@code launch}, or a built-in {@code template}) or attached to at a URL ({@code attach}), optionally expanded
 * by a parameter {@code grid} into one variant per combination. Immutable and thread-safe.
 *
 * @param name            display name, e.g. {@code vllm-like}; not blank
 * @param launch          command template (a string split at blanks, or a list of arguments) with placeholders
 *                        (see {@link LaunchTemplates}); or null
 * @param template        a built-in template name ({@link LaunchTemplates#BUILTIN}: vllm, sglang, tgi, llama.cpp,
 *                        ollama); or null
 * @param attach          base URL of a server already running, e.g. {@code http://10.0.0.5:8000}; or null
 * @param params          values of the template's placeholders (e.g. {@code max_num_seqs: 256}); may be null
 * @param grid            placeholder name → values; the variant runs once per combination (first name outermost);
 *                        may be null
 * @param env             environment entries for the launched process (values may hold placeholders; logged with
 *                        values masked); may be null
 * @param protocol        protocol id to load the server with (default: the template's, else {@code openai-chat})
 * @param model           model name sent in requests (and {@code {model}}); default: the first id of
 *                        {@code GET /v1/models}, else {@code default}
 * @param readiness       paths polled until one answers HTTP 200 (default: the template's, else {@code /health},
 *                        {@code /v1/models}, {@code /api/tags})
 * @param metricsPath     Prometheus metrics path (default {@code /metrics}; empty string for none)
 * @param port            fixed port for {@code {port}} (default: a free port chosen by the OS); checked free before
 *                        launching
 * @param pricePerGpuHour price of one GPU-hour for the cost table (default: the step's)
 * @param gpus            GPUs the server uses (default: the step's, else 1)
 * @param instanceType    instance type shown in the cost table, e.g. {@code g5.xlarge}; optional
 * @throws IllegalArgumentException when not exactly one of launch, template and attach is given, or a placeholder has
 *                                  no value; the message names the variant
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VariantSpec(String name,
                          @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> launch,
                          String template, String attach, Map<String, String> params, Map<String, List<String>> grid,
                          Map<String, String> env, String protocol, String model, List<String> readiness,
                          String metricsPath, Integer port, Double pricePerGpuHour, Integer gpus,
                          String instanceType) {

    public VariantSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a variant needs a name");
        }
        String v = "variant '" + name + "': ";
        int kinds = (launch != null ? 1 : 0) + (template != null ? 1 : 0) + (attach != null ? 1 : 0);
        if (kinds != 1) {
            throw new IllegalArgumentException(v + "give exactly one of launch (a command template), template (one of "
                    + LaunchTemplates.BUILTIN.keySet() + ") or attach (a URL)");
        }
        if (template != null && !LaunchTemplates.BUILTIN.containsKey(template)) {
            throw new IllegalArgumentException(v + "template must be one of " + LaunchTemplates.BUILTIN.keySet()
                    + ", was '" + template + "'");
        }
        if (attach != null && !attach.matches("https?://.+")) {
            throw new IllegalArgumentException(v + "attach must be an http(s) URL, was '" + attach + "'");
        }
        if (launch != null) {
            launch = launch.size() == 1 ? LaunchTemplates.split(launch.get(0)) : List.copyOf(launch);
            if (launch.isEmpty()) {
                throw new IllegalArgumentException(v + "launch is empty");
            }
        }
        params = params == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
        Map<String, List<String>> g = new LinkedHashMap<>();
        if (grid != null) {
            for (Map.Entry<String, List<String>> e : grid.entrySet()) {
                if (e.getValue() == null || e.getValue().isEmpty()) {
                    throw new IllegalArgumentException(v + "grid." + e.getKey() + " needs at least one value");
                }
                g.put(e.getKey(), List.copyOf(e.getValue()));
            }
        }
        grid = java.util.Collections.unmodifiableMap(g);
        env = env == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
        LaunchTemplates.Template t = template == null ? null : LaunchTemplates.BUILTIN.get(template);
        if (protocol != null || t != null) {
            try {
                Protocol.fromId(protocol != null ? protocol : t.protocol());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(v + "protocol: " + e.getMessage(), e);
            }
        }
        readiness = readiness == null ? null : List.copyOf(readiness);
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException(v + "port must be in 1..65535, was " + port);
        }
        if (pricePerGpuHour != null && !(pricePerGpuHour >= 0)) {
            throw new IllegalArgumentException(v + "pricePerGpuHour must be >= 0, was " + pricePerGpuHour);
        }
        if (gpus != null && gpus < 1) {
            throw new IllegalArgumentException(v + "gpus must be >= 1, was " + gpus);
        }
        if (attach == null) {
            Set<String> known = new LinkedHashSet<>(LaunchTemplates.RESERVED);
            known.addAll(params.keySet());
            known.addAll(grid.keySet());
            if (t != null) {
                known.addAll(t.defaults().keySet());
            }
            for (String p : LaunchTemplates.placeholders(templateTexts(launch, template, env))) {
                if (!known.contains(p)) {
                    throw new IllegalArgumentException(v + "template placeholder {" + p + "} is unknown: set params."
                            + p + " or grid." + p + ", or use one of {port}, {host}, {model}, {latencylab}");
                }
            }
        } else if (!grid.isEmpty()) {
            throw new IllegalArgumentException(v + "a grid needs a launched server (launch or template), not attach");
        }
    }

    /** The command template and environment values (with placeholders), from the constructor's arguments. */
    private static List<String> templateTexts(List<String> launch, String template, Map<String, String> env) {
        List<String> texts = new ArrayList<>(commandTemplate(launch, template));
        texts.addAll(envTemplate(template, env).values());
        return texts;
    }

    private static List<String> commandTemplate(List<String> launch, String template) {
        if (launch != null) {
            return launch;
        }
        return template == null ? List.of() : LaunchTemplates.split(LaunchTemplates.BUILTIN.get(template).command());
    }

    private static Map<String, String> envTemplate(String template, Map<String, String> env) {
        Map<String, String> m = new LinkedHashMap<>();
        if (template != null) {
            m.putAll(LaunchTemplates.BUILTIN.get(template).env());
        }
        m.putAll(env);
        return m;
    }

    /** @return the command with placeholders: {@code launch}, or the built-in template's */
    public List<String> commandTemplate() {
        return commandTemplate(launch, template);
    }

    /** @return the environment with placeholders: the template's, overridden by {@code env} */
    public Map<String, String> envTemplate() {
        return envTemplate(template, env);
    }

    /** @return the protocol id to use */
    public String protocolId() {
        return protocol != null ? protocol : template != null ? LaunchTemplates.BUILTIN.get(template).protocol()
                : "openai-chat";
    }

    /** @return readiness paths to poll */
    public List<String> readinessPaths() {
        if (readiness != null) {
            return readiness;
        }
        if (template != null) {
            return LaunchTemplates.BUILTIN.get(template).readiness();
        }
        return protocolId().startsWith("ollama") ? List.of("/api/tags") : List.of("/health", "/v1/models", "/api/tags");
    }

    /** @return the metrics path, or empty for none */
    public String metricsPathOrDefault() {
        if (metricsPath != null) {
            return metricsPath;
        }
        return template != null ? LaunchTemplates.BUILTIN.get(template).metricsPath() : "/metrics";
    }

    /**
     * @return one entry per grid combination (first grid name outermost): placeholder values (template defaults,
     *         then {@code params}, then the combination); a single entry without a grid
     */
    public List<Map<String, String>> combinations() {
        List<Map<String, String>> out = new ArrayList<>();
        Map<String, String> base = new LinkedHashMap<>();
        if (template != null) {
            base.putAll(LaunchTemplates.BUILTIN.get(template).defaults());
        }
        base.putAll(params);
        out.add(base);
        for (Map.Entry<String, List<String>> e : grid.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> m : out) {
                for (String value : e.getValue()) {
                    Map<String, String> c = new LinkedHashMap<>(m);
                    c.put(e.getKey(), value);
                    next.add(c);
                }
            }
            out = next;
        }
        return out;
    }
}
