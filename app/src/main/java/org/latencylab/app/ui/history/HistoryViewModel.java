package org.latencylab.app.ui.history;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.engine.api.RequestRecord;

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
    private BiConsumer<RunEntry, List<RequestRecord>> onOpen = (e, r) -> { };

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

    /** @param c receives a reopened run and its records on the UI thread */
    public void setOnOpen(BiConsumer<RunEntry, List<RequestRecord>> c) {
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

    /** @param e a run to reopen; its records are read in the background and passed to the open callback */
    public void open(RunEntry e) {
        RunStore s = store;
        executor.submit("open run", () -> s.records(e.directory()),
                (List<RequestRecord> r) -> onOpen.accept(e, r), message::set);
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
