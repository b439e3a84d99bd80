package org.latencylab.engine.importer;

import org.latencylab.engine.results.RunLayout;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.results.RunDirectory;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.stats.RequestStats;
import org.latencylab.engine.stats.StatsConfig;
import org.latencylab.engine.stats.StatsReport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an {@link ImportedRun} as a run directory ({@code requests.jsonl} and {@code run.json}, format 1) that
 * history, {@code compare} and {@code report} read like any run. {@code run.json} carries, besides the usual
 * fields, {@code source_tool} (e.g. {@code vllm-bench}), {@code source_file}, {@code missing_metrics} and
 * {@code notes}; its summaries are computed once here, with LatencyLab's statistics over the tool's numbers.
 * Stateless and thread-safe.
 */
public final class ImportWriter {
    private ImportWriter() {
    }

    /**
     * @param run the imported run
     * @param dir run directory to write; one that already holds a run is refused
     * @return {@code dir}
     * @throws IllegalArgumentException when {@code dir} already holds a run, or cannot be created or written
     *                                  ({@link RunDirectory.RunDirectoryException}, the message says why)
     * @throws UncheckedIOException     when a file cannot be written
     */
    public static Path write(ImportedRun run, Path dir) {
        return write(run, dir, false);
    }

    /**
     * Like {@link #write(ImportedRun, Path)}; with {@code overwrite}, an earlier run's files in {@code dir} are
     * deleted first ({@link RunDirectory#prepare}, as {@code run --overwrite} does).
     *
     * @param run       the imported run
     * @param dir       run directory to write
     * @param overwrite whether an earlier run in {@code dir} is replaced instead of refusing the directory
     * @return {@code dir}
     * @throws IllegalArgumentException when {@code dir} holds a run and {@code overwrite} is false, or cannot be
     *                                  created or written
     * @throws UncheckedIOException     when a file cannot be written
     */
    public static Path write(ImportedRun run, Path dir, boolean overwrite) {
        RunDirectory.prepare(dir, overwrite);
        try (RequestLog log = new RequestLog(dir.resolve(RunLayout.REQUESTS_JSONL), 0)) {
            run.records().forEach(log::append);
        }
        StatsConfig config = StatsConfig.defaults();
        StatsReport all = RequestStats.summarize(run.records(), config);
        Map<String, List<RequestRecord>> byLabel = new LinkedHashMap<>();
        for (RequestRecord r : run.records()) {
            byLabel.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r);
        }
        ObjectNode o = RunFiles.mapper().createObjectNode();
        o.put("format", RunFiles.FORMAT);
        o.put("name", run.name());
        o.put("status", "completed");
        o.put("started_at", (run.startedAt() == null ? Instant.now() : run.startedAt()).toString());
        o.put("duration_s", all.wallSpanNanos() / 1e9);
        o.put("endpoint", (run.target().isEmpty() ? run.tool().displayName() : run.target())
                + (run.model().isEmpty() ? "" : " (" + run.model() + ")"));
        o.put("source_tool", run.tool().id());
        o.put("source_file", run.sourceFile());
        ArrayNode missing = o.putArray("missing_metrics");
        run.missingMetrics().forEach(missing::add);
        ArrayNode notes = o.putArray("notes");
        run.notes().forEach(notes::add);
        o.putObject("spec").put("imported_from", run.tool().displayName());
        o.put("slos_passed", true);
        o.set("summary", RunFiles.summary(all));
        ArrayNode steps = o.putArray("steps");
        byLabel.forEach((label, recs) -> {
            ObjectNode st = steps.addObject();
            st.put("label", label);
            st.put("type", "import");
            st.set("summary", RunFiles.summary(RequestStats.summarize(recs, config)));
        });
        o.putArray("notices");
        RunFiles.writeRunJson(dir, o);
        return dir;
    }
}
