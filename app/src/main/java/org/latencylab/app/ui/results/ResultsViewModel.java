package org.latencylab.app.ui.results;

import org.latencylab.engine.api.Nanos;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.TierStatement;
import org.latencylab.app.report.Units;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.SloResult;
import org.latencylab.engine.stats.StatsReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Presents the engine's result model ({@link RunResult}) of the run on screen: live while it runs (the engine's
 * live view), final when it ends, or a reopened run exactly as it concluded. Nothing is computed here but text:
 * summaries, tiers, SLO verdicts and fits are the engine's. One step is shown at a time (by default the last one);
 * a sweep shows one TTFT row per context length and its fit, never a tier over all lengths pooled.
 * Not thread-safe: call it on the UI thread, except {@link #prepare(RunResult)}, which may be called on any thread.
 */
public final class ResultsViewModel {
    private final ReadOnlyObjectWrapper<RunResult> result = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<RunResult.StepOutcome> step = new ReadOnlyObjectWrapper<>();
    private final ObservableList<SummaryRow> rows = FXCollections.observableArrayList();
    private final ObservableList<String> notices = FXCollections.observableArrayList();
    private final ObservableList<String> stepLabels = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("No run yet");
    private final ReadOnlyStringWrapper tier = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper slo = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper errors = new ReadOnlyStringWrapper("–");
    private final ReadOnlyStringWrapper fit = new ReadOnlyStringWrapper("");
    private final List<String> runNotices = new ArrayList<>();
    /** The label of the step the user chose (written on the UI thread, read by {@link #prepare} on any). */
    private volatile String selected;
    private final ReadOnlyStringWrapper trust = new ReadOnlyStringWrapper("");
    private final javafx.beans.property.ReadOnlyObjectWrapper<org.latencylab.engine.transport.TransportsResult>
            transportsSoFar = new javafx.beans.property.ReadOnlyObjectWrapper<>();
    private boolean clientSaturated;
    private final ReadOnlyObjectWrapper<ResultsLayout> layout = new ReadOnlyObjectWrapper<>(ResultsLayout.EMPTY);

    /** Keeps {@link #layoutProperty()} the layout of the step shown. */
    public ResultsViewModel() {
        step.addListener((o, a, b) -> layout.set(ResultsLayout.of(b)));
    }

    /**
     * @return the Results layout of the step shown ({@link ResultsLayout#of}): which panels the view shows, so that
     *     none is shown empty for data the step's experiment cannot have; {@link ResultsLayout#EMPTY} before any step
     */
    public ReadOnlyObjectProperty<ResultsLayout> layoutProperty() {
        return layout.getReadOnlyProperty();
    }

    /**
     * Takes the cells of a running transports step that have ended (the engine's {@code TransportsProgress}), so the
     * view can draw the grouped bars before the step ends. Call on the UI thread.
     *
     * @param soFar the step's result so far; not null
     */
    public void showTransportsSoFar(org.latencylab.engine.transport.TransportsResult soFar) {
        transportsSoFar.set(java.util.Objects.requireNonNull(soFar, "soFar"));
    }

    /** @return the latest cells of a running transports step, or null before any (cleared by {@link #reset}) */
    public javafx.beans.property.ReadOnlyObjectProperty<org.latencylab.engine.transport.TransportsResult>
            transportsSoFarProperty() {
        return transportsSoFar.getReadOnlyProperty();
    }

    /**
     * Clears everything for a new run.
     *
     * @param runTitle shown above the charts
     */
    public void reset(String runTitle) {
        title.set(runTitle);
        transportsSoFar.set(null);
        runNotices.clear();
        selected = null;
        result.set(null);
        stepLabels.clear();
        notices.clear();
        showStep(null);
        trust.set("");
        clientSaturated = false;
    }

    /**
     * Shows a result model (live, final or reopened); the step shown stays the one selected, else the last.
     *
     * @param runTitle title
     * @param r        the engine's result model
     */
    public void show(String runTitle, RunResult r) {
        show(runTitle, r, null);
    }

    /**
     * The summary-table rows of the step a result model would show, made ahead, off the UI thread: formatting the
     * rows' percentiles and intervals (about ninety strings each update of a live run) was a share of the UI
     * thread's longest pieces of work during a load test. May be called on any thread.
     *
     * @param r the engine's result model; not null
     * @return the step that {@link #show(String, Prepared)} will show (as of the step selected now) and its rows
     */
    public Prepared prepare(RunResult r) {
        java.util.Objects.requireNonNull(r, "r");
        RunResult.StepOutcome s = stepToShow(r, selected);
        return new Prepared(r, s, rowsOf(s));
    }

    /**
     * Shows a result model with its rows made ahead (see {@link #prepare}); rows made for another step than the one
     * shown (the user chose another step meanwhile) are made anew here.
     *
     * @param runTitle title
     * @param p        the result model and its rows; not null
     */
    public void show(String runTitle, Prepared p) {
        show(runTitle, p.result(), p);
    }

    /**
     * A result model with the summary-table rows of the step it would show, made off the UI thread. Immutable.
     *
     * @param result the engine's result model
     * @param step   the step the rows are of, or null
     * @param rows   that step's rows
     */
    public record Prepared(RunResult result, RunResult.StepOutcome step, List<SummaryRow> rows) {
        /** Checks and copies the rows. */
        public Prepared {
            java.util.Objects.requireNonNull(result, "result");
            rows = List.copyOf(rows);
        }
    }

    private static RunResult.StepOutcome stepToShow(RunResult r, String selectedLabel) {
        return r.steps().stream().filter(o -> o.label().equals(selectedLabel)).findFirst()
                .orElse(r.steps().isEmpty() ? null : r.steps().get(r.steps().size() - 1));
    }

    private void show(String runTitle, RunResult r, Prepared p) {
        title.set(runTitle);
        clientSaturated = r.trust() != null && r.trust().saturated();
        trust.set(clientSaturated ? r.trust().message() : "");
        result.set(r);
        List<String> labels = r.steps().stream().map(RunResult.StepOutcome::label).toList();
        if (!stepLabels.equals(labels)) {
            stepLabels.setAll(labels);
        }
        List<String> all = new ArrayList<>(r.notices());
        runNotices.stream().filter(n -> !all.contains(n)).forEach(all::add);
        if (!notices.equals(all)) {
            notices.setAll(all);
        }
        RunResult.StepOutcome s = stepToShow(r, selected);
        showStep(s, p != null && p.step() == s ? p.rows() : null);
    }

    /** @param label the step to show (e.g. {@code "sweep"}); ignored when the run has no such step */
    public void select(String label) {
        selected = label;
        if (result.get() != null) {
            show(title.get(), result.get());
        }
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
        if (result.get() != null) {
            RunResult.StepOutcome s = stepProperty().get();
            tier.set(tierText(s) + saturatedNote(s));
        }
    }

    /**
     * @param s the step shown, or null
     * @return what qualifies its tier: "as measured, client saturated" when the step's own trust check (or, for a step
     *         without one, the run's) found the client saturated, else empty
     */
    private String saturatedNote(RunResult.StepOutcome s) {
        boolean saturated = s != null && (s.trust() != null ? s.trust().saturated() : clientSaturated);
        return saturated && s.stats() != null && s.stepTier() != null ? "; as measured, client saturated" : "";
    }

    /** @return the trust-check message of a run whose client was saturated, else empty */
    public ReadOnlyStringProperty trustProperty() {
        return trust.getReadOnlyProperty();
    }

    /** @param message a notice of the engine (shown under the table) */
    public void addNotice(String message) {
        runNotices.add(message);
        notices.add(message);
    }

    /**
     * @param s a step, or null
     * @return its summary-table rows: one per metric with samples, or one TTFT row per part (a sweep's lengths)
     */
    private static List<SummaryRow> rowsOf(RunResult.StepOutcome s) {
        StatsReport r = s == null ? null : s.stats();
        List<SummaryRow> list = new ArrayList<>();
        if (perPart(s)) {
            for (Map.Entry<String, StatsReport> p : s.parts().entrySet()) {
                p.getValue().summary("ttft").filter(m -> m.count() > 0)
                        .ifPresent(m -> list.add(SummaryRow.of(m, p.getKey())));
            }
        } else if (r != null) {
            for (MetricSummary m : r.summaries().values()) {
                if (m.count() > 0) {
                    list.add(SummaryRow.of(m));
                }
            }
        }
        return list;
    }

    private static boolean perPart(RunResult.StepOutcome s) {
        return s != null && s.spec() != null && !s.spec().tierPooled();
    }

    private void showStep(RunResult.StepOutcome s) {
        showStep(s, null);
    }

    /** @param made the step's rows made ahead, or null to make them here */
    private void showStep(RunResult.StepOutcome s, List<SummaryRow> made) {
        step.set(s);
        StatsReport r = s == null ? null : s.stats();
        List<SummaryRow> list = made != null ? made : rowsOf(s);
        boolean perPart = perPart(s);
        if (!rows.equals(list)) {
            if (rows.size() == list.size()) {
                for (int i = 0; i < list.size(); i++) { // update changed cells only while a run streams in
                    if (!rows.get(i).equals(list.get(i))) {
                        rows.set(i, list.get(i));
                    }
                }
            } else {
                rows.setAll(list);
            }
        }
        tier.set(tierText(s) + saturatedNote(s));
        slo.set(r == null ? "–" : r.sloResults().isEmpty() ? "no SLO set"
                : r.sloResults().stream().map(ResultsViewModel::sloText).collect(Collectors.joining("; ")));
        errors.set(r == null ? "–" : countsText(r));
        fit.set(s != null && s.result() instanceof SweepRunner.SweepResult sw ? sw.fitMessage()
                : perPart && s.live() ? "fit when the sweep ends" : "");
    }

    /**
     * @param s a step outcome, or null
     * @return the tier badge text: the step's {@link TierStatement}, e.g. {@code Tier-1 (P95 TTFT 212 ms)}, with
     *         {@code · live} while the step runs
     */
    public static String tierText(RunResult.StepOutcome s) {
        String statement = TierStatement.of(s); // the steps table's, the console's and the report's words
        return s != null && s.live() && !TierStatement.NONE.equals(statement) ? statement + " · live" : statement;
    }

    private static String countsText(StatsReport r) {
        StringBuilder e = new StringBuilder();
        e.append(r.succeeded()).append(" ok, ").append(r.failed()).append(" failed");
        if (r.cancelled() > 0) {
            e.append(", ").append(r.cancelled()).append(" cancelled");
        }
        if (!r.errorsByKind().isEmpty()) {
            e.append(" (").append(r.errorsByKind().entrySet().stream().map(x -> x.getKey().id() + " " + x.getValue()
                            + ", " + org.latencylab.engine.api.ErrorParty.of(x.getKey(),
                            r.errorExamples().get(x.getKey())).words())
                    .collect(Collectors.joining(", "))).append(')');
        }
        if (r.resent() > 0) { // not errors: the server closed pooled connections (ConsoleReport.resentLine)
            e.append(", ").append(r.resent()).append(" re-sent after the server closed a pooled connection");
        }
        return e.toString();
    }

    private static String sloText(SloResult s) {
        return String.format(Locale.ROOT, "%s P%s ≤ %s: %s met (%s)", MetricGlossary.displayName(s.slo().metric()),
                trim(s.slo().percentile()), Units.threshold(Nanos.toMillis(s.slo().thresholdNanos())),
                Units.percent(s.complianceRate()), s.passed() ? "PASS" : "FAIL");
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** @return the result model shown, or null */
    public ReadOnlyObjectProperty<RunResult> resultProperty() {
        return result.getReadOnlyProperty();
    }

    /** @return the step shown, or null */
    public ReadOnlyObjectProperty<RunResult.StepOutcome> stepProperty() {
        return step.getReadOnlyProperty();
    }

    /** @return the labels of the run's steps, in order */
    public ObservableList<String> stepLabels() {
        return stepLabels;
    }

    /** @return summary rows of the step shown: one per metric, or one TTFT row per context length of a sweep */
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

    /** @return the tier badge text of the step shown */
    public ReadOnlyStringProperty tierProperty() {
        return tier.getReadOnlyProperty();
    }

    /** @return SLO compliance text of the step shown */
    public ReadOnlyStringProperty sloProperty() {
        return slo.getReadOnlyProperty();
    }

    /** @return counts and errors by kind of the step shown */
    public ReadOnlyStringProperty errorsProperty() {
        return errors.getReadOnlyProperty();
    }

    /** @return the engine's power-law fit in words (a sweep), or why there is none */
    public ReadOnlyStringProperty fitProperty() {
        return fit.getReadOnlyProperty();
    }
}
