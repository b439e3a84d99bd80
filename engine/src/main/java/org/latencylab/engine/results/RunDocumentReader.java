package org.latencylab.engine.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StepResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@code run.json} into a {@link RunDocument}: the one place outside the writer ({@link RunFiles}) that
 * knows its keys. Stateless and thread-safe.
 */
final class RunDocumentReader {
    private static final ObjectMapper RESULTS = RunFiles.mapper().copy()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private RunDocumentReader() {
    }

    static RunDocument read(Path dir, StepTypes types) {
        Path file = RunLayout.runJson(dir);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + ": not a run directory (no " + RunLayout.RUN_JSON + ")");
        }
        return document(dir, file, checked(file, tree(file)), types);
    }

    static RunDocument parse(Path dir, String json, StepTypes types) {
        Path file = RunLayout.runJson(dir);
        JsonNode n;
        try {
            n = RESULTS.readTree(json);
        } catch (JsonProcessingException e) {
            throw ReadErrors.badInput(file, e);
        }
        return document(dir, file, checked(file, n), types);
    }

    /** @return the file's JSON tree (format not yet checked) */
    static JsonNode tree(Path file) {
        try {
            return RESULTS.readTree(file.toFile());
        } catch (JsonProcessingException | java.io.CharConversionException e) {
            throw ReadErrors.badInput(file, e);
        } catch (IOException e) {
            throw new UncheckedIOException(ReadErrors.describe(file, e), e);
        }
    }

    /** Checks that the tree is an object with a {@code format} this LatencyLab reads. */
    static ObjectNode checked(Path file, JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException(file + ": expected a JSON object");
        }
        JsonNode f = n.get("format");
        if (f == null || !f.canConvertToInt() || f.asInt() < 1) {
            throw new IllegalArgumentException(file + ": field 'format' must be a run.json format number (1 to "
                    + RunFiles.FORMAT + "), was " + f + "; is this a LatencyLab run directory?");
        }
        if (f.asInt() > RunFiles.FORMAT) {
            throw new IllegalArgumentException(file + ": run.json format " + f.asInt() + " is newer than this"
                    + " LatencyLab reads (up to " + RunFiles.FORMAT + "); open it with a newer LatencyLab");
        }
        return (ObjectNode) n;
    }

    private static RunDocument document(Path dir, Path file, ObjectNode root, StepTypes types) {
        String f = file.toString();
        String name = root.path("name").asText(dir.getFileName() == null ? "run" : dir.getFileName().toString());
        RunDocument.Imported imported = null;
        if (root.has("source_tool")) {
            imported = new RunDocument.Imported(root.path("source_tool").asText(), root.path("source_file").asText(""),
                    texts(root.path("missing_metrics")), texts(root.path("notes")),
                    root.path("spec").path("imported_from").asText(null));
        } else if (root.path("spec").has("imported_from")) {
            imported = new RunDocument.Imported(RunDocument.LATENCYLAB, "", List.of(), List.of(),
                    root.path("spec").get("imported_from").asText());
        }
        RunSpec spec = imported == null && root.has("spec")
                ? RunFiles.readSpec(f, root.get("spec"), name, types) : null;
        List<RunDocument.Step> steps = new ArrayList<>();
        JsonNode st = root.path("steps");
        for (int i = 0; i < st.size(); i++) {
            steps.add(step(f, "steps[" + i + "]", st.get(i), types));
        }
        return new RunDocument(dir, root.get("format").asInt(), name, root.hasNonNull("status") ? root.get("status").asText() : null,
                root.hasNonNull("failure") ? root.get("failure").asText() : null,
                root.hasNonNull("started_at") ? root.get("started_at").asText() : null,
                root.hasNonNull("duration_s") ? root.get("duration_s").asDouble() : Double.NaN,
                root.hasNonNull("endpoint") ? root.get("endpoint").asText() : null,
                value(f, "environment", root.get("environment"), RunDocument.Environment.class),
                imported, spec, value(f, "summary", root.get("summary"), RunDocument.Summary.class), steps,
                root.hasNonNull("slos_passed") ? root.get("slos_passed").asBoolean() : null,
                texts(root.path("notices")), value(f, "trust", root.get("trust"), RunDocument.Trust.class));
    }

    private static RunDocument.Step step(String file, String at, JsonNode st, StepTypes types) {
        String label = st.path("label").asText("?");
        String type = st.path("type").asText("?");
        JsonNode specNode = st.get("spec");
        ExperimentSpec spec = null;
        boolean ownSlos = false;
        if (specNode != null && specNode.isObject() && !specNode.isEmpty()) {
            ObjectNode typed = specNode.deepCopy();
            typed.put("type", type);
            spec = types.spec(file, at + ".spec", typed);
            ownSlos = specNode.path("slos").size() > 0 || specNode.path("load").path("slos").size() > 0;
        }
        StepResult result = null;
        Class<? extends StepResult> cls = types.resultType(type);
        if (cls != null && st.hasNonNull("result")) {
            try {
                result = RESULTS.treeToValue(st.get("result"), cls);
            } catch (JsonProcessingException | IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": field 'steps[" + label + "].result': " + e.getMessage(), e);
            }
        }
        Map<String, RunDocument.Summary> parts = new LinkedHashMap<>();
        st.path("parts").fields().forEachRemaining(p -> parts.put(p.getKey(),
                value(file, at + ".parts." + p.getKey(), p.getValue(), RunDocument.Summary.class)));
        return new RunDocument.Step(label, type, st.hasNonNull("tier") ? st.get("tier").asText() : null, spec,
                result, value(file, at + ".summary", st.get("summary"), RunDocument.Summary.class), parts,
                value(file, at + ".trust", st.get("trust"), RunDocument.Trust.class), texts(st.path("notices")),
                ownSlos);
    }

    /** @return the node read as {@code type}, or null when it is absent, null or not an object */
    private static <T> T value(String file, String field, JsonNode n, Class<T> type) {
        if (n == null || !n.isObject()) {
            return null;
        }
        try {
            return RESULTS.treeToValue(n, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new IllegalArgumentException(file + ": field '" + field + "': " + why, e);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
