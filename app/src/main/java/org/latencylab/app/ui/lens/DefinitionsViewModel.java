package org.latencylab.app.ui.lens;

import org.latencylab.engine.results.RunLayout;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.lens.MetricDefinition;
import org.latencylab.engine.lens.MetricLens;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.stats.MetricSummary;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Definitions panel of Results: TTFT, ITL and TPOT (P50 / P95, ms) of the shown run's successful streamed
 * requests under each {@link MetricDefinition}, one row per definition, and one line per definition saying what
 * stops its TTFT clock, how it forms ITL and TPOT, and where that was read. The run's {@code requests.jsonl} is
 * read in the background once per run shown; a live run is not read (its file is still growing). Not thread-safe:
 * call it on the UI thread.
 */
public final class DefinitionsViewModel {
    private final UiExecutor executor;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<String> sources = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Open or finish a run to see its"
            + " requests under other tools' definitions.");
    private Path shown;
    private long generation;

    /** @param executor background work (the file read and the lens) */
    public DefinitionsViewModel(UiExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        for (MetricDefinition d : MetricDefinition.values()) {
            sources.add(sourceLine(d));
        }
    }

    /**
     * Shows a run through the lens; reads its requests in the background unless it is the run already shown.
     *
     * @param r the run shown in Results, or null (clears the table)
     */
    public void show(RunResult r) {
        if (r == null || r.runDirectory() == null) {
            clear("Open or finish a run to see its requests under other tools' definitions.");
            return;
        }
        if (r.status() == RunResult.Status.RUNNING) {
            clear("The definitions are compared when the run has finished (its requests are still being written).");
            return;
        }
        Path dir = r.runDirectory();
        if (dir.equals(shown) && !rows.isEmpty()) {
            return;
        }
        shown = dir;
        long token = ++generation;
        rows.clear();
        message.set("reading " + dir.getFileName() + "…");
        executor.submit("metric-definition lens", () -> lens(dir), (Lens l) -> {
            if (token != generation) {
                return;
            }
            rows.setAll(l.rows());
            message.set(l.message());
        }, (Throwable t) -> {
            if (token == generation) {
                message.set("cannot read the requests of " + dir.getFileName() + ": " + UiExecutor.describe(t));
            }
        });
    }

    private void clear(String text) {
        generation++;
        shown = null;
        rows.clear();
        message.set(text);
    }

    /**
     * The lens of one run directory (blocking: disk).
     *
     * @param dir a run directory
     * @return rows (empty when the run has no successful streamed request) and a message saying what was read
     * @throws java.io.UncheckedIOException  when {@code requests.jsonl} cannot be read
     * @throws IllegalArgumentException      when a line of it is malformed (the message names the file)
     */
    static Lens lens(Path dir) {
        Path log = dir.resolve(RunLayout.REQUESTS_JSONL);
        if (!Files.isRegularFile(log)) {
            return new Lens(List.of(), "This run has no per-request events (no " + RunLayout.REQUESTS_JSONL + ").");
        }
        List<RequestRecord> records = RequestLog.read(log);
        Map<MetricDefinition, MetricLens.View> views = MetricLens.apply(records);
        long n = views.get(MetricDefinition.LATENCYLAB).ttft().count();
        if (n == 0) {
            return new Lens(List.of(), "No successful streamed request in this run: the definitions differ only"
                    + " on streamed responses.");
        }
        List<Row> out = new ArrayList<>();
        for (MetricLens.View v : views.values()) {
            out.add(new Row(v.definition(), v.ttft(), v.itl(), v.tpot()));
        }
        return new Lens(out, n + " successful streamed requests; " + MetricLens.requestsWithEarlyChunk(records)
                + " with a role-only (text-less) first chunk before the first token, where vLLM bench's TTFT"
                + " stops earlier than LatencyLab's.");
    }

    /**
     * @param d a definition
     * @return e.g. {@code vLLM bench serve: TTFT stops at the first chunk with choices (role-only counts); ITL =
     *         gap per chunk; TPOT = … (source: vllm/benchmarks/…)}
     */
    public static String sourceLine(MetricDefinition d) {
        return d.displayName() + ": TTFT stops at the " + d.ttftRule() + "; ITL = " + d.itlRule() + "; TPOT = "
                + d.tpotRule() + " (source: " + d.source() + ")";
    }

    /** @return one row per definition, LatencyLab's first; empty while nothing is shown */
    public ObservableList<Row> rows() {
        return rows;
    }

    /** @return one line per definition: its rules and where they were read */
    public ObservableList<String> sources() {
        return sources;
    }

    /** @return what is shown or why nothing is */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /**
     * What the lens made of one run.
     *
     * @param rows    one per definition
     * @param message what was read
     */
    record Lens(List<Row> rows, String message) {
    }

    /**
     * One definition's numbers for the shown run.
     *
     * @param definition the definition
     * @param ttft       TTFT under it (one value per request)
     * @param itl        ITL under it (per gap or per request, as {@link MetricDefinition#itlRule()} says)
     * @param tpot       TPOT under it (one value per request)
     */
    public record Row(MetricDefinition definition, MetricSummary ttft, MetricSummary itl, MetricSummary tpot) {
        /**
         * @param s a summary
         * @return {@code P50 / P95} in ms, e.g. {@code 41.2 ms / 55.0 ms}, or {@code –} when it has no value
         */
        public static String p50p95(MetricSummary s) {
            return s.count() == 0 ? "–" : Units.ms(s.pMillis(50)) + " / " + Units.ms(s.pMillis(95));
        }
    }
}
