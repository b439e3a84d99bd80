package org.latencylab.engine.scenario;

import org.latencylab.engine.run.DurationText;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.sim.SimProfile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads scenario files (YAML, or JSON when the name ends in {@code .json}) into a {@link RunSpec}.
 *
 * <p>Top-level fields: {@code format} (1), {@code name}, {@code description}, {@code endpoint}
 * ({@code {builtin: sim, profile: NAME|FILE, stamping: BOOL}} or
 * {@code {name, protocol, baseUrl, model, apiKeyEnv, headers, verifyTls}}), {@code client}
 * ({@code connectTimeout, firstByteTimeout, idleTimeout, totalTimeout} as durations like {@code 15s},
 * {@code maxRetries}, {@code retryBaseDelay}, {@code keepText}, {@code includeUsage}, {@code coldConnections}, {@code trace}), {@code tierMetric},
 * {@code tiers} ({@code [{name, maxMs}]}), {@code slos} ({@code [{metric, percentile, maxMs}]}),
 * {@code tokenizer}, {@code corpus}, {@code seed}, {@code experiments} (a list; {@code type} selects the kind:
 * {@code probe}, {@code sweep}, and every type added with {@link #registerType}).
 *
 * <p>Steps take no {@code label}: each is named by its type and its place among the steps of that type
 * ({@link RunSpec#stepLabels()}), and a {@code label} field is refused with the name the step gets.
 *
 * <p>Every error is an {@link IllegalArgumentException} whose message starts with the file name and names the
 * field, e.g. {@code quick.yaml: experiments[0].concurrency: concurrency must be >= 1, was 0}.
 * Thread-safe after construction (registration is expected before use).
 */
public final class ScenarioLoader {
    private static final Set<String> TOP = Set.of("format", "name", "description", "endpoint", "client",
            "tierMetric", "tiers", "slos", "tokenizer", "corpus", "seed", "experiments");
    private static final Set<String> SIM_FIELDS = Set.of("builtin", "profile", "stamping");
    private static final Set<String> ENDPOINT_FIELDS = Set.of("name", "protocol", "baseUrl", "model", "apiKeyEnv",
            "headers", "verifyTls");
    private static final Set<String> CLIENT_FIELDS = Set.of("connectTimeout", "firstByteTimeout", "idleTimeout",
            "totalTimeout", "maxRetries", "retryBaseDelay", "keepText", "includeUsage", "coldConnections", "trace");

    private final Map<String, Class<? extends ExperimentSpec>> types = new TreeMap<>();
    private final ObjectMapper strict;

    /** A loader that knows no experiment type yet; {@link StepCatalog#loader()} registers every one. */
    public ScenarioLoader() {
        SimpleModule durations = new SimpleModule("latencylab-durations");
        durations.addDeserializer(Duration.class, new JsonDeserializer<>() {
            @Override
            public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                try {
                    return DurationText.parse(p.getValueAsString());
                } catch (IllegalArgumentException e) {
                    throw JsonMappingException.from(p, e.getMessage(), e);
                }
            }
        });
        strict = new ObjectMapper()
                .registerModule(durations)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    }

    /**
     * Adds an experiment type.
     *
     * @param type  the scenario {@code type} name, e.g. {@code "load"}
     * @param clazz a Jackson-readable record implementing {@link ExperimentSpec}
     * @return this loader
     */
    public ScenarioLoader registerType(String type, Class<? extends ExperimentSpec> clazz) {
        types.put(type, clazz);
        return this;
    }

    /** @return the experiment type names this loader knows */
    public Set<String> typeNames() {
        return new TreeSet<>(types.keySet());
    }

    /** @return the mapper used for experiment specs (durations as {@code 15s} etc.) */
    public ObjectMapper mapper() {
        return strict;
    }

    /**
     * @param file a scenario file
     * @return the run it describes
     * @throws IllegalArgumentException when the file is missing, unreadable or malformed; the message names the
     *                                  file and field
     */
    public RunSpec load(Path file) {
        String name = file.toString(); // as the user gave it: the message names the file they can open
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(file + ": is a directory, not a scenario file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, name);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file
                    + ": no such scenario file (examples are in sample-data/scenarios)");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * @param in       scenario text (YAML, or JSON which is also YAML)
     * @param fileName name used in error messages (and {@code .json} selects the JSON parser)
     * @return the run it describes
     * @throws IllegalArgumentException when malformed; the message starts with {@code fileName}
     */
    public RunSpec parse(InputStream in, String fileName) {
        JsonNode root;
        try {
            ObjectMapper reader = (fileName.toLowerCase(Locale.ROOT).endsWith(".json")
                    ? new ObjectMapper() : new ObjectMapper(new YAMLFactory()))
                    .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            root = reader.readTree(in);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(syntaxError(fileName, e), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(org.latencylab.engine.results.ReadErrors.describe(fileName, e), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(fileName + ": expected a mapping with 'name', 'endpoint' and 'experiments'");
        }
        unknown(fileName, "", root, TOP);
        int format = root.path("format").asInt(1);
        if (root.has("format") && !root.get("format").canConvertToInt() || format != 1) {
            throw new IllegalArgumentException(fileName + ": field 'format' must be 1 (the only scenario format so far), was "
                    + root.get("format"));
        }
        String name = text(fileName, root, "name", stripExtension(fileName));
        TargetSpec target = target(fileName, root.get("endpoint"));
        ClientOptions client = client(fileName, root.get("client"));
        StatsSettings stats = stats(fileName, root);
        List<ExperimentSpec> experiments = experiments(fileName, root.get("experiments"));
        String tokenizer = text(fileName, root, "tokenizer", "cl100k_base");
        String corpus = text(fileName, root, "corpus", "en");
        long seed;
        if (root.has("seed")) {
            if (!root.get("seed").canConvertToLong()) {
                throw new IllegalArgumentException(fileName + ": field 'seed' must be an integer, was " + root.get("seed"));
            }
            seed = root.get("seed").asLong();
        } else {
            seed = 42;
        }
        try {
            return new RunSpec(name, target, client, stats, experiments, tokenizer, corpus, seed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(fileName + ": " + e.getMessage(), e);
        }
    }

    private TargetSpec target(String file, JsonNode n) {
        if (n == null || n.isNull()) {
            throw new IllegalArgumentException(file + ": field 'endpoint' is missing; e.g. endpoint: {builtin: sim, "
                    + "profile: llama-8b-class} or endpoint: {name: vllm, protocol: openai-chat, baseUrl: "
                    + "http://127.0.0.1:8000, model: MODEL}");
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException(file + ": field 'endpoint' must be a mapping, was " + n);
        }
        if (n.has("builtin")) {
            unknown(file, "endpoint.", n, SIM_FIELDS);
            String b = n.get("builtin").asText();
            if (!"sim".equals(b)) {
                throw new IllegalArgumentException(file + ": field 'endpoint.builtin' must be 'sim', was '" + b + "'");
            }
            String profile = n.path("profile").asText("llama-8b-class");
            try {
                SimProfile.resolve(profile);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": field 'endpoint.profile': " + e.getMessage(), e);
            }
            return new TargetSpec(null, profile, n.path("stamping").asBoolean(false));
        }
        serverEndpointFields(file, n);
        try {
            Map<String, String> headers = new LinkedHashMap<>();
            if (n.has("headers")) {
                if (!n.get("headers").isObject()) {
                    throw new IllegalArgumentException("field 'endpoint.headers' must be a mapping of header name to value");
                }
                n.get("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
            }
            if (!n.hasNonNull("protocol")) {
                throw new IllegalArgumentException("field 'endpoint.protocol' is missing");
            }
            Protocol protocol;
            try {
                protocol = Protocol.fromId(n.get("protocol").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("field 'endpoint.protocol': " + e.getMessage());
            }
            return TargetSpec.of(new Endpoint(n.path("name").asText("endpoint"), protocol,
                    n.path("baseUrl").asText(null), n.path("model").asText(""), n.path("apiKeyEnv").asText(null),
                    headers, n.path("verifyTls").asBoolean(true)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private ClientOptions client(String file, JsonNode n) {
        ClientOptions d = ClientOptions.DEFAULTS;
        if (n == null || n.isNull()) {
            return d;
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException(file + ": field 'client' must be a mapping, was " + n);
        }
        unknown(file, "client.", n, CLIENT_FIELDS);
        try {
            return new ClientOptions(dur(n, "connectTimeout", d.connectTimeout()),
                    dur(n, "firstByteTimeout", d.firstByteTimeout()), dur(n, "idleTimeout", d.idleTimeout()),
                    dur(n, "totalTimeout", d.totalTimeout()), intField(n, "maxRetries", d.maxRetries()),
                    dur(n, "retryBaseDelay", d.retryBaseDelay()), n.path("keepText").asBoolean(d.keepText()),
                    n.path("includeUsage").asBoolean(d.includeUsage()),
                    n.path("coldConnections").asBoolean(d.coldConnections()), n.path("trace").asBoolean(d.trace()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static Duration dur(JsonNode n, String field, Duration dflt) {
        if (!n.has(field)) {
            return dflt;
        }
        try {
            return DurationText.parse(n.get(field).asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field 'client." + field + "': " + e.getMessage());
        }
    }

    private static int intField(JsonNode n, String field, int dflt) {
        if (!n.has(field)) {
            return dflt;
        }
        if (!n.get(field).canConvertToInt() || !n.get(field).isIntegralNumber()) {
            throw new IllegalArgumentException("field 'client." + field + "' must be an integer, was " + n.get(field));
        }
        return n.get(field).asInt();
    }

    private StatsSettings stats(String file, JsonNode root) {
        ObjectNode s = root.deepCopy();
        s.retain("tierMetric", "tiers", "slos");
        return map(file, "", s, StatsSettings.class);
    }

    private List<ExperimentSpec> experiments(String file, JsonNode n) {
        if (n == null || !n.isArray() || n.isEmpty()) {
            throw new IllegalArgumentException(file + ": field 'experiments' must be a non-empty list, e.g. "
                    + "[{type: probe, requests: 100, concurrency: 4}]");
        }
        List<ExperimentSpec> out = new ArrayList<>();
        Map<String, Integer> seen = new java.util.HashMap<>();
        for (int i = 0; i < n.size(); i++) {
            String at = "experiments[" + i + "]";
            JsonNode e = n.get(i);
            if (!e.isObject() || !e.hasNonNull("type")) {
                throw new IllegalArgumentException(file + ": field '" + at + ".type' is missing; expected one of "
                        + types.keySet());
            }
            String type = e.get("type").asText();
            Class<? extends ExperimentSpec> cls = types.get(type);
            if (cls == null) {
                throw new IllegalArgumentException(file + ": field '" + at + ".type' is '" + type
                        + "', expected one of " + types.keySet());
            }
            int nth = seen.merge(type, 1, Integer::sum);
            if (e.has("label")) {
                // a step's name is derived (RunSpec.stepLabels) wherever a run is read back: it cannot be chosen
                throw new IllegalArgumentException(file + ": field '" + at + ".label': a step cannot be given a"
                        + " label; steps are named by their type and place (load, load2, ...), this one '"
                        + RunSpec.stepLabel(type, nth) + "'; remove the field (a comment can say what the step is"
                        + " for)");
            }
            ObjectNode body = e.deepCopy();
            body.remove("type");
            out.add(map(file, at + ".", body, cls));
        }
        return out;
    }

    /**
     * Reads one experiment spec (e.g. from the {@code spec.experiments} of a {@code run.json}).
     *
     * @param file what to name in errors
     * @param at   the field path to name in errors, e.g. {@code "spec.experiments[0]"}
     * @param node the experiment's fields including {@code type}
     * @return the spec
     * @throws IllegalArgumentException when the type is unknown or a field is malformed (the message names both)
     */
    public ExperimentSpec experiment(String file, String at, JsonNode node) {
        String type = node.path("type").asText("");
        Class<? extends ExperimentSpec> cls = types.get(type);
        if (cls == null) {
            throw new IllegalArgumentException(file + ": field '" + at + ".type' is '" + type + "', expected one of "
                    + types.keySet());
        }
        ObjectNode body = node.deepCopy();
        body.remove("type");
        return map(file, at + ".", body, cls);
    }

    private <T> T map(String file, String prefix, JsonNode node, Class<T> cls) {
        try {
            return strict.treeToValue(node, cls);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException(file + ": field '" + prefix + path(e) + "' is unknown; expected one of "
                    + new TreeSet<>(e.getKnownPropertyIds().stream().map(Object::toString).toList()), e);
        } catch (ValueInstantiationException e) {
            // Jackson builds a record from its creator BEFORE it reports the record's unknown fields, so a misspelled
            // field (maxMS for maxMs) first shows as its correct twin missing; name the misspelling instead
            String misspelt = unknownField(node, e);
            if (misspelt != null) {
                throw new IllegalArgumentException(file + ": field '" + prefix + misspelt, e);
            }
            Throwable c = e.getCause() != null ? e.getCause() : e;
            String at = prefix + path(e);
            if (c instanceof org.latencylab.engine.api.InvalidFieldException f) {
                // the spec named the field it refused: point at it, e.g. experiments[0].rate, experiments[0].burst.peak
                at = (at.endsWith(".") || at.isEmpty() ? at : at + ".") + f.field();
            }
            if (at.endsWith(".")) {
                at = at.substring(0, at.length() - 1);
            }
            throw new IllegalArgumentException(file + ": " + (at.isEmpty() ? "" : "field '" + at + "': ")
                    + c.getMessage(), e);
        } catch (com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
            throw new IllegalArgumentException(file + ": field '" + prefix + path(e) + "' must be "
                    + expected(e.getTargetType()) + ", was " + shown(e), e);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(file + ": field '" + prefix + path(e) + "': " + e.getOriginalMessage(), e);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * @return {@code "<path>.<field>' is unknown; expected one of [...]"} for the first field of the object that could
     *         not be instantiated which its type does not know, or null when it has none
     */
    private String unknownField(JsonNode root, ValueInstantiationException e) {
        JsonNode at = root;
        for (JsonMappingException.Reference r : e.getPath()) {
            at = r.getFieldName() != null ? at.path(r.getFieldName()) : r.getIndex() >= 0 ? at.path(r.getIndex()) : at;
        }
        if (!at.isObject() || e.getType() == null) {
            return null;
        }
        Set<String> known = new TreeSet<>();
        for (com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition d
                : strict.getDeserializationConfig().introspect(e.getType()).findProperties()) {
            if (d.couldDeserialize()) {
                known.add(d.getName());
            }
        }
        if (known.isEmpty()) {
            return null;
        }
        Iterator<String> names = at.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!known.contains(f)) {
                String where = path(e);
                return (where.isEmpty() ? "" : where + ".") + f + "' is unknown; expected one of " + known;
            }
        }
        return null;
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another form";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class) {
            return "a number (milliseconds, rates and percentiles are plain numbers, no units)";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Duration.class) {
            return "a duration like 250ms, 15s or 10m";
        }
        if (java.util.List.class.isAssignableFrom(type)) {
            return "a list, e.g. [2048, 8192]";
        }
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> c.toString().toLowerCase(Locale.ROOT)).toList();
        }
        if (type == String.class) {
            return "text";
        }
        return "a mapping";
    }

    private static String shown(com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
        if (e instanceof com.fasterxml.jackson.databind.exc.InvalidFormatException f && f.getValue() != null) {
            return f.getValue() instanceof String ? "\"" + f.getValue() + "\"" : String.valueOf(f.getValue());
        }
        String m = e.getOriginalMessage();
        return m == null ? "something else" : "something else (" + m.replaceAll("`[a-z.]*\\.([A-Za-z]+)`", "$1") + ")";
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /**
     * The fields of an endpoint without {@code builtin}: an unknown one (e.g. a misspelt {@code bultin}) is answered
     * with both lists, a server's and the built-in simulator's, so the simulator's fields are never missing from the
     * suggestion; a simulator field without {@code builtin: sim} is named as such.
     */
    private static void serverEndpointFields(String file, JsonNode n) {
        Iterator<String> it = n.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (ENDPOINT_FIELDS.contains(f)) {
                continue;
            }
            if (SIM_FIELDS.contains(f)) {
                throw new IllegalArgumentException(file + ": field 'endpoint." + f + "' is a field of the built-in"
                        + " simulator; add 'builtin: sim' to use it, or remove it for a server endpoint");
            }
            throw new IllegalArgumentException(file + ": field 'endpoint." + f + "' is unknown; expected one of "
                    + new TreeSet<>(ENDPOINT_FIELDS) + " for a server, or " + new TreeSet<>(SIM_FIELDS)
                    + " for the built-in simulator (builtin: sim)");
        }
    }

    private static void unknown(String file, String prefix, JsonNode n, Set<String> known) {
        Iterator<String> it = n.fieldNames();
        while (it.hasNext()) {
            String f = it.next();
            if (!known.contains(f)) {
                throw new IllegalArgumentException(file + ": field '" + prefix + f + "' is unknown; expected one of "
                        + new TreeSet<>(known));
            }
        }
    }

    private static String text(String file, JsonNode root, String field, String dflt) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isTextual()) {
            throw new IllegalArgumentException(file + ": field '" + field + "' must be text, was " + n);
        }
        return n.asText();
    }

    private static String stripExtension(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot > 0 ? fileName.substring(0, dot) : fileName;
    }

    /**
     * A syntax error in one line of words. For YAML the parser's own problem mark is used (line and column of what it
     * could not read), with what it was reading and where that began; Jackson's location is where the enclosing node
     * began, and the two had been shown side by side ("at line 4: ... line 5, column 3").
     */
    private static String syntaxError(String fileName, JsonProcessingException e) {
        if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException y && y.getProblemMark() != null) {
            var at = y.getProblemMark();
            var from = y.getContextMark();
            return fileName + ": not valid YAML at line " + (at.getLine() + 1) + ", column " + (at.getColumn() + 1) + ": "
                    + y.getProblem() + (y.getContext() == null ? "" : " (" + y.getContext()
                    + (from == null ? "" : " that begins at line " + (from.getLine() + 1)) + ")");
        }
        String words = org.latencylab.engine.results.ReadErrors.words(e);
        String at = org.latencylab.engine.results.ReadErrors.location(e);
        if (words.contains("special characters are not allowed")) {
            // SnakeYAML's reader met a control character or a byte that is no text
            return fileName + ": " + (at.isEmpty() ? "" : at + ": ") + "not YAML text: it holds control characters"
                    + " or binary bytes (is it a binary file?)";
        }
        return fileName + ": " + (at.isEmpty() ? "" : at + ": ") + (words.startsWith("not UTF-8")
                || words.startsWith("the file") ? words
                : "not valid " + (fileName.endsWith(".json") ? "JSON" : "YAML") + ": " + words);
    }
}
