package org.latencylab.app.ui.history;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.results.MetricGlossary;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.StatsReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Two runs side by side: both are read and summarised in the background, then the view overlays their CDFs and
 * shows one row per metric and percentile with A, B and the difference. Not thread-safe: UI thread.
 */
public final class CompareViewModel {
    private final UiExecutor executor;
    private final ReadOnlyObjectWrapper<Pair> pair = new ReadOnlyObjectWrapper<>();
    private final ObservableList<DiffRow> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Select two runs in History and press Compare.");

    /** @param executor background work */
    public CompareViewModel(UiExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Loads and compares two runs.
     *
     * @param store runs folder
     * @param a     first run (baseline)
     * @param b     second run
     */
    public void compare(RunStore store, RunEntry a, RunEntry b) {
        message.set("loading " + a.title() + " and " + b.title() + "…");
        executor.submit("compare runs", () -> new Pair(a, b, mainStep(store.open(a.directory())),
                        mainStep(store.open(b.directory()))),
                (Pair p) -> {
                    pair.set(p);
                    rows.setAll(diff(p.dataA().stats(), p.dataB().stats()));
                    message.set("A = " + a.title() + "   B = " + b.title());
                }, message::set);
    }

    /**
     * @param r a run's result model
     * @return the step compared: the one with the most successful requests (the first of equals)
     * @throws IllegalArgumentException when the run has no step
     */
    public static RunResult.StepOutcome mainStep(RunResult r) {
        return r.steps().stream().filter(s -> s.stats() != null)
                .reduce((x, y) -> y.stats().succeeded() > x.stats().succeeded() ? y : x)
                .orElseThrow(() -> new IllegalArgumentException(r.runDirectory() + ": the run has no step to compare"));
    }

    /**
     * @param a baseline statistics (the engine's, as the run concluded)
     * @param b other statistics
     * @return one row per metric present in both and per percentile P50, P90, P95, P99
     */
    public static List<DiffRow> diff(StatsReport a, StatsReport b) {
        List<DiffRow> out = new ArrayList<>();
        for (String metric : List.of("ttft", "ttfb", "e2e", "tpot", "itl")) {
            Optional<MetricSummary> sa = a.summary(metric);
            Optional<MetricSummary> sb = b.summary(metric);
            if (sa.isEmpty() || sb.isEmpty() || sa.get().count() == 0 || sb.get().count() == 0) {
                continue;
            }
            for (double p : List.of(50.0, 90.0, 95.0, 99.0)) {
                double va = sa.get().pMillis(p);
                double vb = sb.get().pMillis(p);
                out.add(new DiffRow(MetricGlossary.displayName(metric) + " P" + (p == Math.rint(p) ? Long.toString((long) p)
                        : Double.toString(p)),
                        MetricGlossary.define(metric), va, vb));
            }
        }
        return out;
    }

    /** @return the loaded pair, or null */
    public ReadOnlyObjectProperty<Pair> pairProperty() {
        return pair.getReadOnlyProperty();
    }

    /** @return difference rows */
    public ObservableList<DiffRow> rows() {
        return rows;
    }

    /** @return status text */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /**
     * Two loaded runs.
     *
     * @param a     baseline entry
     * @param b     other entry
     * @param dataA the baseline's compared step
     * @param dataB the other run's compared step
     */
    public record Pair(RunEntry a, RunEntry b, RunResult.StepOutcome dataA, RunResult.StepOutcome dataB) {
    }

    /**
     * One compared statistic.
     *
     * @param statistic  e.g. {@code TTFT P95}
     * @param definition the metric's definition
     * @param aMs        value of A, ms
     * @param bMs        value of B, ms
     */
    public record DiffRow(String statistic, String definition, double aMs, double bMs) {
        /** @return B − A, ms */
        public double deltaMs() {
            return bMs - aMs;
        }

        /** @return (B − A) / A, or NaN when A is 0 */
        public double relative() {
            return aMs == 0 ? Double.NaN : (bMs - aMs) / aMs;
        }

        /** @return e.g. {@code +12.5 ms (+8.1 %)} */
        public String deltaText() {
            double d = deltaMs();
            return (d >= 0 ? "+" : "−") + Units.ms(Math.abs(d)) + String.format(Locale.ROOT, " (%+.1f %%)",
                    relative() * 100);
        }
    }
}
