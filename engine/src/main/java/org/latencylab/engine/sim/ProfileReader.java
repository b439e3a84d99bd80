package org.latencylab.engine.sim;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns a profile file's YAML/JSON tree (parsed by Jackson) into a {@link SimProfile}, checking every field by
 * hand so that each error names the file, the dotted field and the expected form. Jackson's data binding would
 * report Java types and class names instead. Stateless.
 */
final class ProfileReader {
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final String origin;

    private ProfileReader(String origin) {
        this.origin = origin;
    }

    /**
     * @param origin      the file as named in messages
     * @param defaultName profile name when the file has no {@code name}
     * @param bytes       file content (UTF-8)
     * @param json        parse as strict JSON rather than YAML
     * @return the profile
     * @throws IllegalArgumentException naming origin, field and expected form
     */
    static SimProfile read(String origin, String defaultName, byte[] bytes, boolean json) {
        JsonNode root;
        try {
            root = (json ? JSON : YAML).readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(origin + ": not valid " + (json ? "JSON" : "YAML") + ": "
                    + e.getOriginalMessage() + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"),
                    e);
        } catch (IOException e) {
            throw new IllegalArgumentException(origin + ": cannot parse: " + e.getMessage(), e);
        }
        try {
            return new ProfileReader(origin).profile(root, defaultName);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(origin + ": " + e.getMessage(), e);
        }
    }

    private SimProfile profile(JsonNode root, String defaultName) {
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new IllegalArgumentException("the file is empty; expected a mapping with at least "
                    + "'prefill' and 'decode'");
        }
        object(root, "", List.of("name", "model", "source", "prefill", "decode", "maxRunningSeqs", "jitter",
                "prefixCache", "reasoning", "faults", "engine"));
        String name = string(root, "", "name", defaultName);
        String model = string(root, "", "model", name);
        String source = string(root, "", "source", "");

        JsonNode p = required(root, "", "prefill");
        object(p, "prefill", List.of("t0", "k", "alpha"));
        SimProfile.Prefill prefill = new SimProfile.Prefill(
                number(p, "prefill", "t0", null, 0, false, 600),
                number(p, "prefill", "k", null, 0, false, 10),
                number(p, "prefill", "alpha", null, 0, true, 3));

        JsonNode d = required(root, "", "decode");
        object(d, "decode", List.of("tpot", "batchSlowdown"));
        SimProfile.Decode decode = new SimProfile.Decode(
                number(d, "decode", "tpot", null, 0, false, 60),
                number(d, "decode", "batchSlowdown", 0.0, 0, false, 100));

        int maxRunning = integer(root, "", "maxRunningSeqs", 256, 1, 1_000_000);

        SimProfile.Jitter jitter = SimProfile.Jitter.NONE;
        JsonNode j = root.get("jitter");
        if (present(j)) {
            object(j, "jitter", List.of("sigma"));
            jitter = new SimProfile.Jitter(number(j, "jitter", "sigma", 0.0, 0, false, 2));
        }

        SimProfile.PrefixCache cache = SimProfile.PrefixCache.OFF;
        JsonNode c = root.get("prefixCache");
        if (present(c)) {
            object(c, "prefixCache", List.of("enabled", "blockTokens", "capacityTokens"));
            boolean enabled = bool(c, "prefixCache", "enabled", true);
            int block = integer(c, "prefixCache", "blockTokens", 16, 1, 4096);
            long capacity = integer(c, "prefixCache", "capacityTokens", enabled ? null : 0, enabled ? block : 0,
                    1_000_000_000);
            cache = new SimProfile.PrefixCache(enabled, block, capacity);
        }

        SimProfile.Reasoning reasoning = SimProfile.Reasoning.NONE;
        JsonNode r = root.get("reasoning");
        if (present(r)) {
            object(r, "reasoning", List.of("tokens"));
            reasoning = new SimProfile.Reasoning(integer(r, "reasoning", "tokens", 0, 0, 1_000_000));
        }

        SimProfile.Faults faults = SimProfile.Faults.NONE;
        JsonNode f = root.get("faults");
        if (present(f)) {
            faults = faults(f);
        }
        SimProfile.Engine engine = SimProfile.Engine.NONE;
        JsonNode en = root.get("engine");
        if (present(en)) {
            engine = engine(en);
        }
        return new SimProfile(name, model, source, prefill, decode, maxRunning, jitter, cache, reasoning, faults,
                engine);
    }

    private SimProfile.Engine engine(JsonNode n) {
        object(n, "engine", List.of("metrics", "gpu", "weightsGiB", "overheadGiB", "kvBytesPerToken",
                "maxBatchedTokens", "chunkOverheadSeconds", "reserveFullBatch"));
        String metrics = string(n, "engine", "metrics", "vllm");
        SimProfile.Gpu gpu = null;
        JsonNode g = n.get("gpu");
        if (present(g)) {
            object(g, "engine.gpu", List.of("name", "memoryGiB", "idleWatts", "maxWatts", "smClockMhz"));
            double idle = number(g, "engine.gpu", "idleWatts", 30.0, 0, false, 5000);
            gpu = new SimProfile.Gpu(string(g, "engine.gpu", "name", "simulated GPU"),
                    number(g, "engine.gpu", "memoryGiB", null, 0, true, 10_000), idle,
                    number(g, "engine.gpu", "maxWatts", Math.max(idle, 300.0), idle, false, 5000),
                    integer(g, "engine.gpu", "smClockMhz", 1500, 1, 10_000));
        }
        long kv = integer(n, "engine", "kvBytesPerToken", 0, 0, 1_000_000_000);
        return new SimProfile.Engine(metrics, gpu, number(n, "engine", "weightsGiB", 0.0, 0, false, 10_000),
                number(n, "engine", "overheadGiB", 0.0, 0, false, 10_000), kv,
                integer(n, "engine", "maxBatchedTokens", 1_000_000, 1, 10_000_000),
                number(n, "engine", "chunkOverheadSeconds", 0.0, 0, false, 60),
                bool(n, "engine", "reserveFullBatch", false));
    }

    private SimProfile.Faults faults(JsonNode f) {
        object(f, "faults", List.of("rateLimited", "serverError", "reset", "stall", "slowHeaders"));
        SimProfile.RateLimited rl = null;
        JsonNode n = f.get("rateLimited");
        if (present(n)) {
            object(n, "faults.rateLimited", List.of("rate", "retryAfterSeconds"));
            rl = new SimProfile.RateLimited(rate(n, "faults.rateLimited"),
                    integer(n, "faults.rateLimited", "retryAfterSeconds", 1, 0, 3600));
        }
        SimProfile.ServerError se = null;
        n = f.get("serverError");
        if (present(n)) {
            object(n, "faults.serverError", List.of("rate", "status"));
            se = new SimProfile.ServerError(rate(n, "faults.serverError"),
                    integer(n, "faults.serverError", "status", 503, 500, 599));
        }
        SimProfile.Reset reset = null;
        n = f.get("reset");
        if (present(n)) {
            object(n, "faults.reset", List.of("rate", "afterTokens"));
            reset = new SimProfile.Reset(rate(n, "faults.reset"),
                    integer(n, "faults.reset", "afterTokens", 1, 0, 1_000_000));
        }
        SimProfile.Stall stall = null;
        n = f.get("stall");
        if (present(n)) {
            object(n, "faults.stall", List.of("rate", "seconds"));
            stall = new SimProfile.Stall(rate(n, "faults.stall"),
                    number(n, "faults.stall", "seconds", 1.0, 0, false, 600));
        }
        SimProfile.SlowHeaders slow = null;
        n = f.get("slowHeaders");
        if (present(n)) {
            object(n, "faults.slowHeaders", List.of("rate", "seconds"));
            slow = new SimProfile.SlowHeaders(rate(n, "faults.slowHeaders"),
                    number(n, "faults.slowHeaders", "seconds", 1.0, 0, false, 600));
        }
        return new SimProfile.Faults(rl, se, reset, stall, slow);
    }

    // ---------------------------------------------------------------- field helpers

    private static boolean present(JsonNode n) {
        return n != null && !n.isNull() && !n.isMissingNode();
    }

    private static String path(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    private void object(JsonNode node, String path, List<String> known) {
        if (!node.isObject()) {
            throw new IllegalArgumentException((path.isEmpty() ? "the top level" : "field '" + path + "'")
                    + " must be a mapping with fields " + String.join(", ", known) + ", was " + node);
        }
        Set<String> knownSet = new LinkedHashSet<>(known);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!knownSet.contains(key)) {
                throw new IllegalArgumentException("unknown field '" + path(path, key) + "'; expected one of "
                        + String.join(", ", known));
            }
        }
    }

    private JsonNode required(JsonNode parent, String path, String key) {
        JsonNode n = parent.get(key);
        if (!present(n)) {
            throw new IllegalArgumentException("field '" + path(path, key) + "' is missing");
        }
        return n;
    }

    private String string(JsonNode parent, String path, String key, String def) {
        JsonNode n = parent.get(key);
        if (!present(n)) {
            return def;
        }
        if (!n.isTextual() || n.asText().isBlank()) {
            throw new IllegalArgumentException("field '" + path(path, key) + "' must be a non-blank string, was "
                    + n);
        }
        return n.asText();
    }

    private boolean bool(JsonNode parent, String path, String key, boolean def) {
        JsonNode n = parent.get(key);
        if (!present(n)) {
            return def;
        }
        if (!n.isBoolean()) {
            throw new IllegalArgumentException("field '" + path(path, key) + "' must be true or false, was " + n);
        }
        return n.booleanValue();
    }

    private double rate(JsonNode parent, String path) {
        return number(parent, path, "rate", 0.0, 0, false, 1);
    }

    private double number(JsonNode parent, String path, String key, Double def, double min, boolean minOpen,
                          double max) {
        String field = path(path, key);
        JsonNode n = parent.get(key);
        if (!present(n)) {
            if (def == null) {
                throw new IllegalArgumentException("field '" + field + "' is missing; it must be "
                        + ProfileCheck.numberForm(min, minOpen, max));
            }
            return def;
        }
        if (!n.isNumber()) {
            throw new IllegalArgumentException("field '" + field + "' must be "
                    + ProfileCheck.numberForm(min, minOpen, max) + ", was " + n);
        }
        return ProfileCheck.number(field, n.doubleValue(), min, minOpen, max);
    }

    private int integer(JsonNode parent, String path, String key, Integer def, long min, long max) {
        String field = path(path, key);
        JsonNode n = parent.get(key);
        if (!present(n)) {
            if (def == null) {
                throw new IllegalArgumentException("field '" + field + "' is missing; it must be "
                        + ProfileCheck.integerForm(min, max));
            }
            return def;
        }
        boolean integral = n.isIntegralNumber()
                || n.isNumber() && n.doubleValue() == Math.rint(n.doubleValue()) && Double.isFinite(n.doubleValue());
        if (!integral || !n.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + field + "' must be "
                    + ProfileCheck.integerForm(min, max) + ", was " + n);
        }
        return ProfileCheck.integer(field, n.longValue(), min, max);
    }
}
