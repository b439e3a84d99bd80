package org.latencylab.app.ui.history;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.StatsSettings;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The list of saved runs and what can be done with them. Disk work goes through the {@link UiExecutor}. Not
 * thread-safe: call it on the UI thread.
 */
public final class HistoryViewModel {
    private final UiExecutor executor;
    private RunStore store;
    private final ObservableList<RunEntry> runs = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private BiConsumer<RunEntry, RunResult> onOpen = (e, r) -> { };

    /**
     * @param executor background work
     * @param store    the runs folder
     */
    public HistoryViewModel(UiExecutor executor, RunStore store) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.store = Objects.requireNonNull(store, "store");
    }

    /** @param s a new runs folder (the data folder changed); refreshes */
    public void setStore(RunStore s) {
        store = Objects.requireNonNull(s);
        refresh();
    }

    /** @return the store in use */
    public RunStore store() {
        return store;
    }

    /** @param c receives a reopened run's result model on the UI thread */
    public void setOnOpen(BiConsumer<RunEntry, RunResult> c) {
        onOpen = Objects.requireNonNull(c);
    }

    /** @return saved runs, newest first */
    public ObservableList<RunEntry> runs() {
        return runs;
    }

    /** @return the last message (errors of disk operations) */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** Re-reads the runs folder in the background. */
    public void refresh() {
        RunStore s = store;
        executor.submit("list runs", s::list, (List<RunEntry> l) -> runs.setAll(l), message::set);
    }

    /**
     * Reopens a run in the background (judged as it ran; a run stuck in {@code running} is recovered first, then
     * the list is refreshed) and passes its result model to the open callback.
     *
     * @param e a run to reopen
     */
    public void open(RunEntry e) {
        RunStore s = store;
        executor.submit("open run", () -> s.open(e.directory()), (RunResult r) -> {
            onOpen.accept(e, r);
            if ("running".equals(e.status())) {
                refresh();
            }
        }, message::set);
    }

    /**
     * Judges a saved run with other settings than those it ran with, in the background; the result carries a
     * notice saying so.
     *
     * @param e        a run
     * @param settings the settings to judge with (e.g. the app's current ones)
     */
    public void rejudge(RunEntry e, StatsSettings settings) {
        RunStore s = store;
        executor.submit("re-judge run", () -> s.rejudge(e.directory(), settings),
                (RunResult r) -> onOpen.accept(e, r), message::set);
    }

    /** @param e a run @param title its new title */
    public void rename(RunEntry e, String title) {
        RunStore s = store;
        executor.submit("rename run", () -> {
            s.rename(e.directory(), title);
            return s.list();
        }, (List<RunEntry> l) -> runs.setAll(l), message::set);
    }

    /** @param e a run to delete with its files */
    public void delete(RunEntry e) {
        RunStore s = store;
        executor.submit("delete run", () -> {
            s.delete(e.directory());
            return s.list();
        }, (List<RunEntry> l) -> {
            runs.setAll(l);
            message.set("deleted " + e.title());
        }, message::set);
    }
}
