package org.latencylab.app.ui.results;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.experiment.StatsSettings;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.SloResult;
import org.latencylab.engine.stats.StatsReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Results of the run on screen: accumulates request records (live from the snapshot stream, or all at once from a
 * run directory) and recomputes {@link ResultData} in the background, one computation at a time; records that
 * arrive meanwhile trigger one more computation when it ends, so the last state is always shown and no record is
 * lost. Not thread-safe: call it on the UI thread.
 */
public final class ResultsViewModel {
    private final UiExecutor executor;
    private final List<RequestRecord> records = new ArrayList<>();
    private final ReadOnlyObjectWrapper<ResultData> data = new ReadOnlyObjectWrapper<>(ResultData.EMPTY);
    private final ObservableList<SummaryRow> rows = FXCollections.observableArrayList();
    private final ObservableList<String> notices = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("No run yet");
    private final ReadOnlyStringWrapper tier = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper slo = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper errors = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper fit = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper trust = new ReadOnlyStringWrapper("");
    private boolean clientSaturated;
    private StatsSettings stats = StatsSettings.DEFAULTS;
    private boolean computing;
    private boolean dirty;
    private long generation;

    /** @param executor runs the computation off the UI thread */
    public ResultsViewModel(UiExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Clears everything for a new run.
     *
     * @param runTitle shown above the charts
     * @param settings tier table and SLOs to judge with
     */
    public void reset(String runTitle, StatsSettings settings) {
        generation++;
        records.clear();
        notices.clear();
        stats = Objects.requireNonNull(settings, "settings");
        title.set(runTitle);
        trust.set("");
        clientSaturated = false;
        computing = false;
        dirty = false;
        apply(ResultData.EMPTY);
    }

    /**
     * Shows a finished set of records (a reopened run).
     *
     * @param runTitle title
     * @param all      the run's records
     * @param settings judging settings
     */
    public void show(String runTitle, List<RequestRecord> all, StatsSettings settings) {
        reset(runTitle, settings);
        addRecords(all);
    }

    /** @param fresh records that ended since the last call; schedules a recomputation */
    public void addRecords(List<RequestRecord> fresh) {
        records.addAll(fresh);
        recompute();
    }

    /**
     * Shows the run's trust check: its message when the client was saturated (then the tier reads as measured, not
     * as a verdict on the server), nothing otherwise.
     *
     * @param check the finished run's trust check, or null (nothing shown)
     */
    public void showTrust(TrustCheck check) {
        clientSaturated = check != null && check.saturated();
        trust.set(clientSaturated ? check.message() : "");
        apply(data.get());
    }

    /** @return the trust-check message of a run whose client was saturated, else empty */
    public ReadOnlyStringProperty trustProperty() {
        return trust.getReadOnlyProperty();
    }

    /** @param message a notice of the engine (shown under the table) */
    public void addNotice(String message) {
        notices.add(message);
    }

    /** @return a copy of the records shown */
    public List<RequestRecord> records() {
        return List.copyOf(records);
    }

    /** @return the judging settings in use */
    public StatsSettings stats() {
        return stats;
    }

    private void recompute() {
        if (computing) {
            dirty = true;
            return;
        }
        computing = true;
        dirty = false;
        long gen = generation;
        List<RequestRecord> copy = List.copyOf(records);
        StatsSettings s = stats;
        executor.submit("compute results", () -> ResultData.compute(copy, s), (ResultData d) -> {
            if (gen != generation) {
                return;
            }
            computing = false;
            apply(d);
            if (dirty) {
                recompute();
            }
        }, (Throwable t) -> {
            if (gen != generation) {
                return;
            }
            computing = false;
            notices.add("results could not be computed: " + UiExecutor.describe(t));
        });
    }

    private void apply(ResultData d) {
        data.set(d);
        StatsReport r = d.report();
        List<SummaryRow> list = new ArrayList<>();
        for (MetricSummary s : r.summaries().values()) {
            if (s.count() > 0) {
                list.add(SummaryRow.of(s));
            }
        }
        if (rows.size() == list.size()) {
            // Same metrics as before (the usual case while a run streams in): replace only the rows whose text
            // changed, so the table updates those cells instead of rebuilding every row on each snapshot.
            for (int i = 0; i < list.size(); i++) {
                if (!rows.get(i).equals(list.get(i))) {
                    rows.set(i, list.get(i));
                }
            }
        } else {
            rows.setAll(list);
        }
        tier.set(r.tier() == null ? "–" : r.tier().name() + " (P95 " + MetricGlossary.displayName(r.tierMetric())
                + " " + r.summary(r.tierMetric()).map(m -> Units.ms(m.pMillis(95.0))).orElse("–")
                + (clientSaturated ? "; as measured, client saturated" : "") + ")");
        if (r.sloResults().isEmpty()) {
            slo.set("no SLO set");
        } else {
            slo.set(r.sloResults().stream().map(ResultsViewModel::sloText).collect(Collectors.joining("; ")));
        }
        StringBuilder e = new StringBuilder();
        e.append(r.succeeded()).append(" ok, ").append(r.failed()).append(" failed");
        if (r.cancelled() > 0) {
            e.append(", ").append(r.cancelled()).append(" cancelled");
        }
        if (!r.errorsByKind().isEmpty()) {
            e.append(" (").append(r.errorsByKind().entrySet().stream().map(x -> x.getKey().id() + " " + x.getValue())
                    .collect(Collectors.joining(", "))).append(')');
        }
        errors.set(e.toString());
        if (d.fit() != null) {
            fit.set(String.format(Locale.ROOT, "P50 TTFT ≈ %.4g ms · n^%.3f (α 95 %% CI %.3f–%.3f, R² %.4f)",
                    d.fit().a(), d.fit().alpha(), d.fit().alphaLower(), d.fit().alphaUpper(), d.fit().rSquared()));
        } else {
            fit.set(d.sweepPoints().isEmpty() ? "" : "fit needs 3 context lengths, have " + d.sweepPoints().size());
        }
    }

    private static String sloText(SloResult s) {
        return String.format(Locale.ROOT, "%s P%s ≤ %s: %s met (%s)", MetricGlossary.displayName(s.slo().metric()),
                trim(s.slo().percentile()), Units.ms(s.slo().thresholdNanos() / 1e6),
                Units.percent(s.complianceRate()), s.passed() ? "PASS" : "FAIL");
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** @return the computed data (replaced as a whole on each recomputation) */
    public ReadOnlyObjectProperty<ResultData> dataProperty() {
        return data.getReadOnlyProperty();
    }

    /** @return summary rows, one per metric with samples */
    public ObservableList<SummaryRow> rows() {
        return rows;
    }

    /** @return notices of the run */
    public ObservableList<String> notices() {
        return notices;
    }

    /** @return the title above the charts */
    public ReadOnlyStringProperty titleProperty() {
        return title.getReadOnlyProperty();
    }

    /** @return the tier badge text, e.g. {@code Tier-1 (P95 TTFT 212 ms)} */
    public ReadOnlyStringProperty tierProperty() {
        return tier.getReadOnlyProperty();
    }

    /** @return SLO compliance text */
    public ReadOnlyStringProperty sloProperty() {
        return slo.getReadOnlyProperty();
    }

    /** @return counts and errors by kind */
    public ReadOnlyStringProperty errorsProperty() {
        return errors.getReadOnlyProperty();
    }

    /** @return the power-law fit in words, or why there is none */
    public ReadOnlyStringProperty fitProperty() {
        return fit.getReadOnlyProperty();
    }
}
