package org.latencylab.app.ui.run;

import org.latencylab.engine.api.Nanos;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.latencylab.app.report.Eta;
import org.latencylab.app.ui.background.CoalescingRunListener;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.results.ResultsViewModel;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.step.StepProgress;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Starts, follows and cancels one run at a time. Progress properties are updated from coalesced engine snapshots
 * on the UI thread; finished requests are handed to the {@link ResultsViewModel}. Not thread-safe: call it on the
 * UI thread.
 */
public final class RunViewModel {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    /** Starts a run; {@code RunEngine::start} in the app, a fake in tests. */
    @FunctionalInterface
    public interface RunLauncher {
        /**
         * @param spec     the run
         * @param dir      its run directory
         * @param listener progress listener (engine threads)
         * @return the handle
         */
        RunHandle start(RunSpec spec, Path dir, RunListener listener);
    }

    private final UiExecutor executor;
    private final RunLauncher launcher;
    private final ResultsViewModel results;
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("Ready");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<RunResult> lastResult = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<Path> runDirectory = new ReadOnlyObjectWrapper<>();
    private RunHandle handle;
    private long runId;
    private double plannedSeconds = Double.NaN;
    private Eta.Steps eta;
    private Consumer<RunResult> onFinished = r -> { };
    private boolean fetching;
    private boolean refetch;
    private Consumer<StepProgress> onProgress = p -> { };
    private Consumer<RunSpec> onStarted = s -> { };

    /**
     * @param executor background work and UI-thread hand-off
     * @param launcher starts runs
     * @param results  receives the records
     */
    public RunViewModel(UiExecutor executor, RunLauncher launcher, ResultsViewModel results) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.results = Objects.requireNonNull(results, "results");
    }

    /** @param c called on the UI thread, in order, with each step event of the running run (load seconds, grid cells) */
    public void setOnProgress(Consumer<StepProgress> c) {
        onProgress = Objects.requireNonNull(c);
    }

    /** @param c called on the UI thread when a run starts, after the results were cleared */
    public void setOnStarted(Consumer<RunSpec> c) {
        onStarted = Objects.requireNonNull(c);
    }

    /** @param c called on the UI thread when a run ends (any status) */
    public void setOnFinished(Consumer<RunResult> c) {
        onFinished = Objects.requireNonNull(c);
    }

    /**
     * Starts a run in a new directory {@code runsDir/<yyyyMMdd-HHmmss>-<name>}; does nothing while one runs.
     *
     * @param spec    the run
     * @param runsDir parent of run directories
     */
    public void start(RunSpec spec, Path runsDir) {
        if (running.get()) {
            return;
        }
        long id = ++runId;
        running.set(true);
        plannedSeconds = Eta.plannedSeconds(spec);
        eta = new Eta.Steps(spec);
        progress.set(spec.plannedRequests() > 0 || plannedSeconds > 0 ? 0 : -1);
        progressText.set("starting…");
        status.set("");
        lastResult.set(null);
        String title = spec.name() + " · " + spec.target().describe();
        results.reset(title);
        onStarted.accept(spec);
        Path dir = runsDir.resolve(STAMP.format(LocalDateTime.now()) + "-"
                + spec.name().replaceAll("[^A-Za-z0-9._-]+", "-"));
        RunListener listener = new CoalescingRunListener(executor::onUi, u -> {
            if (id != runId) {
                return;
            }
            if (!u.newRecords().isEmpty() || u.stepStarted() != null) {
                refreshResults(id, title);
            }
            u.notices().forEach(results::addNotice);
            u.progress().forEach(onProgress);
            if (u.snapshot() != null) {
                onSnapshot(u.snapshot());
            }
        });
        // RunEngine.start creates the directory (disk): off the UI thread.
        executor.submit("start run", () -> launcher.start(spec, dir, listener), (RunHandle h) -> {
            handle = h;
            runDirectory.set(h.runDirectory());
            h.future().whenComplete((r, t) -> {
                ResultsViewModel.Prepared made = prepareFinal(r); // on the engine's thread, not the UI thread
                executor.onUi(() -> finished(id, r, made, t));
            });
        }, (Throwable t) -> finished(id, null, null, t));
    }

    /**
     * Fetches the engine's live result model off the UI thread (the engine may be sorting a finished step's samples)
     * and shows it; one fetch at a time, a request during a fetch is served by one more fetch after it.
     */
    private void refreshResults(long id, String title) {
        if (fetching) {
            refetch = true;
            return;
        }
        RunHandle h = handle;
        if (h == null) {
            return;
        }
        fetching = true;
        refetch = false;
        // the summary rows are formatted in the background too (see ResultsViewModel.prepare)
        executor.submit("live results", () -> {
            RunResult v = h.view();
            return v == null ? null : results.prepare(v);
        }, (ResultsViewModel.Prepared v) -> {
            fetching = false;
            if (id != runId || !running.get()) {
                return;
            }
            if (v != null) {
                results.show(title, v);
            }
            if (refetch) {
                refreshResults(id, title);
            }
        }, (Throwable t) -> fetching = false);
    }

    /** Asks the running run to stop; finished requests are kept. Returns at once. */
    public void cancel() {
        if (handle != null && running.get()) {
            handle.cancel();
            progressText.set(progressText.get() + " · cancelling…");
        }
    }

    /** Forgets the text of the last finished run (another run is viewed now); does nothing while a run goes. */
    public void clearStatus() {
        if (running.get()) {
            return;
        }
        progress.set(0);
        progressText.set("Ready");
        status.set("");
    }

    private void onSnapshot(IntervalSnapshot s) {
        if (!running.get()) {
            return;
        }
        double p = Eta.fraction(s, plannedSeconds);
        progress.set(p);
        double elapsed = Nanos.toSeconds(s.elapsedNanos());
        double left = eta.secondsLeft(s); // set by start, before any snapshot of the run
        String etaText = Eta.label(left, eta.overrun());
        String etaCell = etaText.isEmpty() ? "" : " · " + etaText;
        progressText.set(String.format(Locale.ROOT, "%s%d%s requests · %d ok · %d failed · %d in flight · %s%s",
                s.step().isEmpty() ? "" : s.step() + " · ", s.completed(),
                s.planned() > 0 ? "/" + s.planned() : "", s.succeeded(), s.failed(), s.inFlight(), seconds(elapsed),
                etaCell));
    }

    /** @return the final result's summary rows made ahead, or null (no result, or they could not be made here) */
    private ResultsViewModel.Prepared prepareFinal(RunResult r) {
        if (r == null) {
            return null;
        }
        try {
            return results.prepare(r);
        } catch (RuntimeException e) {
            return null; // made again on the UI thread, where a failure is reported as before
        }
    }

    private void finished(long id, RunResult r, ResultsViewModel.Prepared made, Throwable t) {
        if (id != runId) {
            return;
        }
        running.set(false);
        handle = null;
        if (r == null) {
            progressText.set("run failed");
            status.set("run failed: " + (t == null ? "unknown" : UiExecutor.describe(t)));
            progress.set(0);
            return;
        }
        lastResult.set(r);
        String title = r.name() + " · " + r.endpointDescription();
        if (made != null && made.result() == r) {
            results.show(title, made);
        } else {
            results.show(title, r);
        }
        progress.set(r.status() == RunResult.Status.COMPLETED ? 1 : progress.get());
        progressText.set(switch (r.status()) {
            case COMPLETED -> "completed";
            case CANCELLED -> "cancelled";
            case FAILED -> "failed";
            case RUNNING -> "running";
            case INTERRUPTED -> "interrupted";
        } + String.format(Locale.ROOT, " · %d requests in %s", r.overall().sent(),
                seconds(Nanos.toSeconds(r.duration().toNanos()))));
        status.set(r.status() == RunResult.Status.FAILED ? "run failed: " + r.failure()
                : "saved to " + r.runDirectory());
        onFinished.accept(r);
    }

    private static String seconds(double s) {
        return Eta.format(s);
    }

    /** @return true while a run is going */
    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    /** @return fraction done in [0, 1], or -1 when unknown */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** @return counts, elapsed time and ETA */
    public ReadOnlyStringProperty progressTextProperty() {
        return progressText.getReadOnlyProperty();
    }

    /** @return the last status or error message */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** @return the result of the last finished run, or null */
    public ReadOnlyObjectProperty<RunResult> lastResultProperty() {
        return lastResult.getReadOnlyProperty();
    }

    /** @return the directory of the current or last run, or null */
    public ReadOnlyObjectProperty<Path> runDirectoryProperty() {
        return runDirectory.getReadOnlyProperty();
    }
}
