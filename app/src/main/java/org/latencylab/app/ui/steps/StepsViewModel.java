package org.latencylab.app.ui.steps;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.results.MetricGlossary;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.step.StepProgress;
import org.latencylab.engine.load.GridProgress;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.load.LoadProgress;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSecond;
import org.latencylab.engine.stats.TierTable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the load-test and grid panel of the Results tab shows: the per-second series of the load step running now
 * (or of the last one of a finished run), a grid's matrix as its cells end, and one row per step of a finished
 * run. Fed with the engine's {@link StepProgress} while a run goes and with its {@link RunResult} at the end;
 * every number is one the engine concluded, none is recomputed here. Not thread-safe: use it on the UI thread.
 */
public final class StepsViewModel {
    private final Map<String, List<LoadSecond>> seconds = new LinkedHashMap<>();
    private final ReadOnlyStringWrapper loadStep = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<List<LoadSecond>> shownSeconds = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyStringWrapper loadText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper trustText = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<GridResult> grid = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper gridText = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<TierTable> tiers = new ReadOnlyObjectWrapper<>(TierTable.DEFAULT);
    private final ObservableList<StepRow> steps = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper chartsExpected =
            new ReadOnlyBooleanWrapper(false);

    /**
     * Clears everything for a new run (or a reopened one).
     *
     * @param settings the tier table the run is judged with (its bands are drawn behind the latencies)
     */
    public void reset(StatsSettings settings) {
        chartsExpected.set(false); // first: the views react to the cleared series below as to a run without them
        seconds.clear();
        loadStep.set("");
        shownSeconds.set(List.of());
        loadText.set("");
        trustText.set("");
        grid.set(null);
        gridText.set("");
        steps.clear();
        tiers.set(Objects.requireNonNull(settings, "settings").tierTable());
    }

    /**
     * Clears everything for a run that starts now, and says whether it has a load or grid step (whose live charts
     * then show from the start, before its first second: their first layout is done before the traffic, not in the
     * middle of it).
     *
     * @param spec the run that starts
     * @throws NullPointerException when {@code spec} is null
     */
    public void reset(RunSpec spec) {
        reset(spec.stats());
        chartsExpected.set(spec.experiments().stream().anyMatch(e -> LoadSpec.TYPE.equals(e.type())
                || GridSpec.TYPE.equals(e.type())));
    }

    /**
     * @return true while the run started last has a load or grid step (set by {@link #reset(RunSpec)}, cleared by
     *     {@link #reset(StatsSettings)}): its live charts are wanted before its first second arrives
     */
    public ReadOnlyBooleanProperty chartsExpectedProperty() {
        return chartsExpected.getReadOnlyProperty();
    }

    /**
     * Takes one event of a running step: a load step's closed second is appended to its series (and that step
     * becomes the one shown), a grid's matrix replaces the previous one.
     *
     * @param p the event
     */
    public void accept(StepProgress p) {
        if (p instanceof LoadProgress l) {
            List<LoadSecond> list = seconds.computeIfAbsent(l.step(), k -> new ArrayList<>());
            list.add(l.second());
            show(l.step(), list);
        } else if (p instanceof GridProgress g) {
            showGrid(g.soFar());
        }
    }

    /**
     * Shows what a finished run concluded: the seconds of its last load step (a grid's last cell included), its
     * last grid, and one row per step.
     *
     * @param run the finished run
     */
    public void showRun(RunResult run) {
        List<StepRow> rows = new ArrayList<>();
        for (RunResult.StepOutcome s : run.steps()) {
            rows.add(StepRow.of(s));
            if (s.result() instanceof LoadResult l && !l.seconds().isEmpty()) {
                seconds.put(s.label(), new ArrayList<>(l.seconds()));
                show(s.label(), l.seconds());
            } else if (s.result() instanceof GridResult g) {
                showGrid(g);
            }
        }
        steps.setAll(rows);
    }

    /**
     * Shows what a saved run's {@code run.json} holds (a run reopened from the history): its load steps' seconds
     * (the last one shown) and its grid.
     *
     * @param saved the saved steps
     */
    public void showSaved(SavedSteps saved) {
        saved.seconds().forEach((label, list) -> {
            if (!list.isEmpty()) {
                seconds.put(label, new ArrayList<>(list));
                show(label, list);
            }
        });
        if (saved.grid() != null) {
            showGrid(saved.grid());
        }
    }

    /**
     * Shows the series of one step already received.
     *
     * @param step a load step's label
     * @return false when no second of that step is known
     */
    public boolean showStep(String step) {
        List<LoadSecond> list = seconds.get(step);
        if (list == null) {
            return false;
        }
        show(step, list);
        return true;
    }

    private void show(String step, List<LoadSecond> list) {
        loadStep.set(step);
        shownSeconds.set(Collections.unmodifiableList(new ArrayList<>(list)));
        LoadSecond last = null;
        for (int i = list.size() - 1; i >= 0; i--) {
            if (!"drain".equals(list.get(i).phase())) {
                last = list.get(i);
                break;
            }
        }
        if (last == null) {
            last = list.get(list.size() - 1);
        }
        loadText.set(describe(step, last));
        trustText.set(last.dispatchLagP99Ms() == null ? "dispatch lag: –"
                : "dispatch lag P99 " + Units.ms(last.dispatchLagP99Ms()) + " (how late the client sent, after the"
                + " intended start)");
    }

    /** @return the line above the live load charts for one second */
    static String describe(String step, LoadSecond s) {
        StringBuilder b = new StringBuilder(step).append(" · second ").append(s.second()).append(" (")
                .append(s.phase()).append(") · ");
        if (s.targetRateRps() > 0) {
            b.append(String.format(Locale.ROOT, "target %.1f req/s · ", s.targetRateRps()));
        }
        b.append(String.format(Locale.ROOT, "achieved %d req/s · %d ended · %d failed", s.sent(), s.ended(),
                s.failed()));
        if (s.ended() > 0) {
            b.append(" (").append(Units.percent(s.errorRate())).append(')');
        }
        if (s.http429Attempts() > 0) {
            b.append(" · ").append(s.http429Attempts()).append("× 429");
        }
        if (s.dropped() > 0) {
            b.append(" · ").append(s.dropped()).append(" dropped at a cap");
        }
        b.append(" · ").append(s.inFlight()).append(" in flight");
        if (s.tier() != null) {
            b.append(" · ").append(s.tier()).append(" (P95 ").append(Units.ms(s.tierMetricP95Ms())).append(')');
        }
        return b.toString();
    }

    private void showGrid(GridResult g) {
        grid.set(g);
        int total = g.rowValues().size() * g.columnValues().size();
        gridText.set(String.format(Locale.ROOT, "%s · %d of %d cells · %s [%s] over %s [%s] × %s [%s]", g.label(),
                g.cells().size(), total, metricName(g.metric()), g.unit(), g.rowAxis(), g.rowUnit(), g.columnAxis(),
                g.columnUnit()));
    }

    /**
     * @param gridMetric a grid's metric, e.g. {@code ttft_from_intended p99} or {@code goodput_rps}
     * @return it for people, e.g. {@code TTFT from intended P99}
     */
    static String metricName(String gridMetric) {
        String[] parts = gridMetric.split(" ", 2);
        String stat = parts.length < 2 ? "" : " " + (parts[1].equals("p999") ? "P99.9"
                : parts[1].startsWith("p") ? parts[1].toUpperCase(Locale.ROOT) : parts[1]);
        return MetricGlossary.displayName(parts[0]) + stat;
    }

    /** @return label of the load step whose seconds are shown, or "" */
    public ReadOnlyStringProperty loadStepProperty() {
        return loadStep.getReadOnlyProperty();
    }

    /** @return the seconds shown (an unmodifiable list, replaced as a whole on each change) */
    public ReadOnlyObjectProperty<List<LoadSecond>> secondsProperty() {
        return shownSeconds.getReadOnlyProperty();
    }

    /** @return the last closed second in words: target vs achieved rate, errors, in flight, tier */
    public ReadOnlyStringProperty loadTextProperty() {
        return loadText.getReadOnlyProperty();
    }

    /** @return the client's own health in the last second (dispatch lag P99) */
    public ReadOnlyStringProperty trustTextProperty() {
        return trustText.getReadOnlyProperty();
    }

    /** @return the grid shown (cells not yet run are null), or null */
    public ReadOnlyObjectProperty<GridResult> gridProperty() {
        return grid.getReadOnlyProperty();
    }

    /** @return the grid's progress and axes in words */
    public ReadOnlyStringProperty gridTextProperty() {
        return gridText.getReadOnlyProperty();
    }

    /** @return the tier table whose bands are drawn */
    public ReadOnlyObjectProperty<TierTable> tiersProperty() {
        return tiers.getReadOnlyProperty();
    }

    /** @return one row per step of the finished run (empty while it runs) */
    public ObservableList<StepRow> steps() {
        return steps;
    }
}
