package org.latencylab.engine.link;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Network profiles: the built-in ones ({@link #BUILT_IN}, files in {@code sample-data/networks/} packaged under
 * {@code org/latencylab/engine/link/profiles/}) and custom YAML files of the same shape:
 * <pre>
 * name: weak-3g
 * source: where the numbers come from
 * down: {delayMs: 100, jitterMs: 0, bandwidthMbps: 1.6, loss: 0.01}
 * up:   {delayMs: 100, jitterMs: 0, bandwidthMbps: 0.4, loss: 0.01}
 * retransmitTimeoutMs: 400      # optional, default 200 + RTT
 * segmentBytes: 1460            # optional
 * </pre>
 * Every error names the file and the dotted field. Stateless and thread-safe.
 */
public final class LinkProfiles {
    /** Names of the built-in profiles. */
    public static final List<String> BUILT_IN = List.of("wired", "stable-4g", "weak-3g", "high-jitter");
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION).build();
    private static final List<String> TOP = List.of("name", "source", "up", "down", "retransmitTimeoutMs",
            "segmentBytes");
    private static final List<String> DIRECTION = List.of("delayMs", "jitterMs", "bandwidthMbps", "loss");

    private LinkProfiles() {
    }

    /**
     * @param nameOrPath a built-in name ({@link #BUILT_IN}) or the path of a YAML profile file
     * @return the profile
     * @throws IllegalArgumentException when it is neither, or the file is malformed (the message names the file
     *                                  and field)
     */
    public static LinkProfile resolve(String nameOrPath) {
        if (nameOrPath == null || nameOrPath.isBlank()) {
            throw new IllegalArgumentException("network profile must not be blank; built-in: " + BUILT_IN);
        }
        String key = nameOrPath.strip();
        if (BUILT_IN.contains(key.toLowerCase(Locale.ROOT))) {
            String res = "profiles/" + key.toLowerCase(Locale.ROOT) + ".yaml";
            try (InputStream in = LinkProfiles.class.getResourceAsStream(res)) {
                if (in == null) {
                    throw new IllegalStateException("built-in network profile " + res + " is missing from the jar");
                }
                return read(key + ".yaml", key, in.readAllBytes());
            } catch (IOException e) {
                throw new IllegalStateException("cannot read built-in network profile " + res, e);
            }
        }
        Path file = Path.of(key);
        try {
            String stem = file.getFileName().toString().replaceFirst("\\.(ya?ml|json)$", "");
            return read(file.toString(), stem, Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("network profile '" + key + "' is neither a built-in profile "
                    + BUILT_IN + " nor an existing file");
        } catch (IOException e) {
            throw new IllegalArgumentException(key + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * @param origin      the file as named in messages
     * @param defaultName profile name when the file has none
     * @param yaml        file content (UTF-8 YAML or JSON)
     * @return the profile
     * @throws IllegalArgumentException naming origin, field and expected form
     */
    public static LinkProfile read(String origin, String defaultName, byte[] yaml) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(origin + ": not valid YAML: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(origin + ": cannot parse: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(origin + ": expected a mapping with 'up' and 'down'");
        }
        known(origin, root, "", TOP);
        String name = root.hasNonNull("name") ? root.get("name").asText() : defaultName;
        String source = root.hasNonNull("source") ? root.get("source").asText() : "";
        LinkProfile.Direction up = direction(origin, root, "up");
        LinkProfile.Direction down = direction(origin, root, "down");
        double rto = root.has("retransmitTimeoutMs") ? number(origin, root, "", "retransmitTimeoutMs")
                : 200 + up.delayMs() + down.delayMs();
        int mss = root.has("segmentBytes") ? (int) number(origin, root, "", "segmentBytes")
                : LinkProfile.ETHERNET_MSS;
        try {
            return new LinkProfile(name, source, up, down, rto, mss);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": field '" + e.getMessage().split(" ")[0] + "': "
                    + e.getMessage(), e);
        }
    }

    private static LinkProfile.Direction direction(String origin, JsonNode root, String field) {
        JsonNode d = root.get(field);
        if (d == null || !d.isObject()) {
            throw new IllegalArgumentException(origin + ": field '" + field + "' is missing; expected a mapping "
                    + "{delayMs, jitterMs, bandwidthMbps, loss}");
        }
        known(origin, d, field + ".", DIRECTION);
        double delay = d.has("delayMs") ? number(origin, d, field + ".", "delayMs") : 0;
        double jitter = d.has("jitterMs") ? number(origin, d, field + ".", "jitterMs") : 0;
        if (!d.has("bandwidthMbps")) {
            throw new IllegalArgumentException(origin + ": field '" + field + ".bandwidthMbps' is missing; "
                    + "expected the rate in Mbit/s, e.g. 1.6");
        }
        double bw = number(origin, d, field + ".", "bandwidthMbps");
        double loss = d.has("loss") ? number(origin, d, field + ".", "loss") : 0;
        try {
            return new LinkProfile.Direction(delay, jitter, bw, loss);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": field '" + field + "." + e.getMessage().split(" ")[0]
                    + "': " + e.getMessage(), e);
        }
    }

    private static void known(String origin, JsonNode node, String prefix, List<String> fields) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!fields.contains(f)) {
                throw new IllegalArgumentException(origin + ": field '" + prefix + f + "' is unknown; expected one of "
                        + fields);
            }
        }
    }

    private static double number(String origin, JsonNode node, String prefix, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException(origin + ": field '" + prefix + field + "' must be a number, was "
                    + (v == null ? "missing" : v.toString()));
        }
        return v.asDouble();
    }
}
