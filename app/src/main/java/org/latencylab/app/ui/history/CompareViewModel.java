package org.latencylab.app.ui.history;

import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.engine.stats.Metric;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.results.MetricGlossary;
import org.latencylab.engine.compare.RunComparison;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.stats.LatencyCdf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Any number of saved runs (LatencyLab's own and imported ones) side by side: each run's {@code run.json} summary
 * and its TTFT and E2E distributions are read in the background (by the engine's {@link RunComparison}), then the view overlays one CDF per run and shows a difference
 * table of P50/P95/P99 of TTFT, ITL and E2E against a chosen baseline run (Δ ms and Δ %). The numbers are those each
 * run concluded ({@link RunComparison}, the same as {@code latencylab compare} and the HTML report); nothing is
 * recomputed. Not thread-safe: call it on the UI thread.
 */
public final class CompareViewModel {
    /** Metrics of the difference table, in order. */
    public static final List<String> METRICS = Metric.ids(Metric.TTFT, Metric.ITL, Metric.E2E);
    /** Percentiles of the difference table, in order. */
    public static final List<Double> PERCENTILES = List.of(50.0, 95.0, 99.0);
    /** Cell text of a metric the run's source tool does not provide. */
    public static final String NOT_IN_SOURCE = "—, not in source";

    private final UiExecutor executor;
    private final ReadOnlyObjectWrapper<Loaded> loaded = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyIntegerWrapper baseline = new ReadOnlyIntegerWrapper(0);
    private final ObservableList<DiffRow> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper(
            "Select two or more runs in History (Ctrl+click) and press Compare.");
    private long generation;

    /** @param executor background work */
    public CompareViewModel(UiExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Loads and compares runs in the background; the first becomes the baseline. Fewer than two runs only set the
     * message. A later call supersedes one still loading.
     *
     * @param entries the runs, in the order of the legend and the table's columns
     */
    public void compare(List<RunEntry> entries) {
        if (entries.size() < 2) {
            message.set("Select two or more runs in History (Ctrl+click) to compare them.");
            return;
        }
        List<RunEntry> chosen = List.copyOf(entries);
        long token = ++generation;
        message.set("loading " + chosen.size() + " runs…");
        executor.submit("compare runs", () -> load(chosen), (Loaded l) -> {
            if (token != generation) {
                return;
            }
            loaded.set(l);
            setBaseline(0);
            message.set("Δ against the baseline run; an imported run keeps its tool's definitions (see the"
                    + " Definitions tab of Results)");
        }, (Throwable t) -> {
            if (token == generation) {
                message.set("compare runs failed: " + UiExecutor.describe(t));
            }
        });
    }

    /** Reads the runs' summaries and distributions (disk; runs on a background thread). */
    private static Loaded load(List<RunEntry> entries) {
        List<RunDocument> infos = RunComparison.load(entries.stream().map(RunEntry::directory).toList(),
                StepCatalog.types());
        List<Map<String, LatencyCdf>> cdfs = new ArrayList<>();
        for (RunDocument r : infos) {
            cdfs.add(RunComparison.distributions(r));
        }
        return new Loaded(entries, infos, RunComparison.labels(infos, true), cdfs);
    }

    /**
     * Makes another loaded run the baseline and recomputes the difference table.
     *
     * @param index the run's position in {@link Loaded#entries()}
     * @throws IllegalArgumentException when nothing is loaded or the index is out of range
     */
    public void setBaseline(int index) {
        Loaded l = loaded.get();
        if (l == null || index < 0 || index >= l.entries().size()) {
            throw new IllegalArgumentException("baseline must be a loaded run, 0 to "
                    + (l == null ? -1 : l.entries().size() - 1) + ", was " + index);
        }
        baseline.set(index);
        rows.setAll(table(l.infos(), index));
    }

    /**
     * The difference table.
     *
     * @param runs     the runs as {@link RunComparison#load} read them
     * @param baseline index of the baseline run
     * @return one row per metric of {@link #METRICS} and percentile of {@link #PERCENTILES}, one cell per run
     * @throws IllegalArgumentException when the baseline index is out of range
     */
    public static List<DiffRow> table(List<RunDocument> runs, int baseline) {
        List<DiffRow> out = new ArrayList<>();
        for (RunComparison.Row row : RunComparison.differences(runs, baseline)) {
            if (!METRICS.contains(row.metric()) || !PERCENTILES.contains(row.percentile())) {
                continue;
            }
            List<Cell> cells = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                cells.add(new Cell(row.valuesMs().get(i), row.deltaMs().get(i), row.deltaPct().get(i),
                        i == baseline, runs.get(i).missingMetrics().contains(row.metric()), row.thin().get(i)));
            }
            out.add(new DiffRow(row.metric(), row.percentile(),
                    MetricGlossary.displayName(row.metric()) + " P" + (long) row.percentile(),
                    MetricGlossary.define(row.metric()), cells));
        }
        out.sort(java.util.Comparator.comparingInt((DiffRow r) -> METRICS.indexOf(r.metric()))
                .thenComparingDouble(DiffRow::percentile));
        return out;
    }

    /** @return the loaded runs, or null before the first comparison */
    public ReadOnlyObjectProperty<Loaded> loadedProperty() {
        return loaded.getReadOnlyProperty();
    }

    /** @return index of the baseline run in the loaded runs */
    public ReadOnlyIntegerProperty baselineProperty() {
        return baseline.getReadOnlyProperty();
    }

    /** @return difference rows (replaced when runs are loaded or the baseline changes) */
    public ObservableList<DiffRow> rows() {
        return rows;
    }

    /** @return status text */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /**
     * The compared runs.
     *
     * @param entries the history entries, in order
     * @param infos   their {@code run.json} summaries, same order
     * @param labels  distinct labels (name and start time, plus the directory when those are shared), same order
     * @param cdfs    each run's TTFT and E2E distributions ({@link RunComparison#distributions}), same order
     */
    public record Loaded(List<RunEntry> entries, List<RunDocument> infos, List<String> labels,
                         List<Map<String, LatencyCdf>> cdfs) {
        /** Copies the lists; all four must be of one size. */
        public Loaded {
            entries = List.copyOf(entries);
            infos = List.copyOf(infos);
            labels = List.copyOf(labels);
            cdfs = List.copyOf(cdfs);
            if (infos.size() != entries.size() || labels.size() != entries.size() || cdfs.size() != entries.size()) {
                throw new IllegalArgumentException("entries, infos, labels and cdfs must be of one size");
            }
        }

        /**
         * @param metric {@code ttft} or {@code e2e}
         * @param run    index of the run
         * @return that run's distribution in ms, or null when the run has none
         */
        public LatencyCdf cdf(String metric, int run) {
            LatencyCdf c = cdfs.get(run).get(metric);
            return c == null || c.valuesMs().length == 0 ? null : c;
        }
    }

    /**
     * One compared statistic across all runs.
     *
     * @param metric     metric id, e.g. {@code ttft}
     * @param percentile percent, e.g. 95
     * @param statistic  display name, e.g. {@code TTFT P95}
     * @param definition the metric's definition (LatencyLab's; an imported run follows its tool's)
     * @param cells      one cell per run, in the runs' order
     */
    public record DiffRow(String metric, double percentile, String statistic, String definition, List<Cell> cells) {
        /** Copies the cells. */
        public DiffRow {
            cells = List.copyOf(cells);
        }
    }

    /**
     * One run's value of a statistic and its difference from the baseline's.
     *
     * @param valueMs      value, ms (NaN when the run has none)
     * @param deltaMs      value − baseline value, ms (NaN when either is missing)
     * @param deltaPct     that difference in percent of the baseline value (NaN when either is missing or the
     *                     baseline is 0)
     * @param baseline     whether this run is the baseline
     * @param notInSource  whether the run's source tool does not provide the metric (an imported run)
     * @param thin         whether the value rests on fewer than 10 samples above it in its run (an estimate near the
     *                     maximum): shown with {@code *}
     */
    public record Cell(double valueMs, double deltaMs, double deltaPct, boolean baseline, boolean notInSource,
                       boolean thin) {
        /**
         * @return e.g. {@code 120 ms (baseline)}, {@code 131 ms · +11.0 ms (+9.2 %)}, {@code 131 ms* · …} for a value
         *         from fewer than 10 samples above it, {@value #NOT_IN_SOURCE} for a metric the source lacks,
         *         {@code —} for one not measured
         */
        public String text() {
            if (Double.isNaN(valueMs)) {
                return notInSource ? NOT_IN_SOURCE : "—";
            }
            String value = Units.ms(valueMs) + (thin ? "*" : "");
            if (baseline) {
                return value + " (baseline)";
            }
            if (Double.isNaN(deltaMs)) {
                return value + " · Δ —";
            }
            return value + " · " + (deltaMs >= 0 ? "+" : "−") + Units.ms(Math.abs(deltaMs))
                    + (Double.isNaN(deltaPct) ? "" : String.format(Locale.ROOT, " (%s%.1f %%)",
                    deltaPct >= 0 ? "+" : "−", Math.abs(deltaPct)));
        }
    }
}
