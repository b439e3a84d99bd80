package org.latencylab.app.ui.steps;

import org.latencylab.engine.results.RunLayout;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadSecond;
import org.latencylab.engine.results.RunFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a saved run's {@code run.json} concluded about its load and grid steps: each load step's {@code seconds[]}
 * and the last grid's matrix, read back as the engine wrote them (nothing recomputed), so a reopened run shows the
 * same load charts and heatmap it showed live. Immutable and thread-safe; read it off the UI thread.
 *
 * @param seconds load step label → its seconds, in step order (unmodifiable)
 * @param grid    the last grid step's result (its cells' totals left out), or null
 */
public record SavedSteps(Map<String, List<LoadSecond>> seconds, GridResult grid) {
    /** Nothing saved. */
    public static final SavedSteps NONE = new SavedSteps(Map.of(), null);

    /** Copies the map. */
    public SavedSteps {
        seconds = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(seconds));
    }

    /**
     * @param runDir a run directory
     * @return its load seconds and grid; {@link #NONE} when {@code run.json} is missing, unreadable or has no steps
     *         (a run that never ended)
     */
    public static SavedSteps read(Path runDir) {
        Path file = runDir.resolve(RunLayout.RUN_JSON);
        if (!Files.isRegularFile(file)) {
            return NONE;
        }
        ObjectMapper json = RunFiles.mapper();
        try {
            JsonNode root = json.readTree(file.toFile());
            Map<String, List<LoadSecond>> seconds = new LinkedHashMap<>();
            GridResult grid = null;
            for (JsonNode step : root.path("steps")) {
                String type = step.path("type").asText("");
                JsonNode result = step.path("result");
                if (type.equals("load") && result.path("seconds").isArray()) {
                    List<LoadSecond> list = new ArrayList<>();
                    for (JsonNode s : result.path("seconds")) {
                        list.add(json.treeToValue(s, LoadSecond.class));
                    }
                    seconds.put(step.path("label").asText("load"), list);
                } else if (type.equals("grid") && result.path("values").isArray()) {
                    grid = grid(json, step.path("label").asText("grid"), result);
                }
            }
            return new SavedSteps(seconds, grid);
        } catch (IOException | IllegalArgumentException e) {
            return NONE; // an old or damaged run.json: the records are still shown
        }
    }

    private static GridResult grid(ObjectMapper json, String label, JsonNode r) throws IOException {
        List<Double> rows = doubles(r.path("rowValues"));
        List<Double> columns = doubles(r.path("columnValues"));
        List<List<Double>> values = new ArrayList<>();
        for (JsonNode row : r.path("values")) {
            List<Double> v = new ArrayList<>();
            for (JsonNode x : row) {
                v.add(x.isNumber() ? x.asDouble() : null);
            }
            values.add(v);
        }
        List<GridResult.Cell> cells = new ArrayList<>();
        for (JsonNode c : r.path("cells")) {
            cells.add(new GridResult.Cell(c.path("row").asInt(), c.path("column").asInt(), c.path("label").asText(""),
                    null));
        }
        return new GridResult(label, r.path("rowAxis").asText(""), r.path("rowUnit").asText(""), rows,
                r.path("columnAxis").asText(""), r.path("columnUnit").asText(""), columns, r.path("metric").asText(""),
                r.path("unit").asText(""), values, cells);
    }

    private static List<Double> doubles(JsonNode array) {
        List<Double> out = new ArrayList<>();
        for (JsonNode x : array) {
            out.add(x.asDouble());
        }
        return out;
    }
}
