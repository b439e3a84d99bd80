package org.latencylab.app.ui.run;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import org.latencylab.app.ui.background.CoalescingRunListener;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.results.ResultsViewModel;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.experiment.RunResult;
import org.latencylab.engine.experiment.RunSpec;

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
    private Consumer<RunResult> onFinished = r -> { };

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
        progress.set(spec.plannedRequests() > 0 ? 0 : -1);
        progressText.set("starting…");
        status.set("");
        lastResult.set(null);
        results.reset(spec.name() + " · " + spec.target().describe(), spec.stats());
        Path dir = runsDir.resolve(STAMP.format(LocalDateTime.now()) + "-"
                + spec.name().replaceAll("[^A-Za-z0-9._-]+", "-"));
        RunListener listener = new CoalescingRunListener(executor::onUi, u -> {
            if (id != runId) {
                return;
            }
            if (!u.newRecords().isEmpty()) {
                results.addRecords(u.newRecords());
            }
            u.notices().forEach(results::addNotice);
            if (u.snapshot() != null) {
                onSnapshot(u.snapshot());
            }
        });
        // RunEngine.start creates the directory (disk): off the UI thread.
        executor.submit("start run", () -> launcher.start(spec, dir, listener), (RunHandle h) -> {
            handle = h;
            runDirectory.set(h.runDirectory());
            h.future().whenComplete((r, t) -> executor.onUi(() -> finished(id, r, t)));
        }, (Throwable t) -> finished(id, null, t));
    }

    /** Asks the running run to stop; finished requests are kept. Returns at once. */
    public void cancel() {
        if (handle != null && running.get()) {
            handle.cancel();
            progressText.set(progressText.get() + " · cancelling…");
        }
    }

    private void onSnapshot(IntervalSnapshot s) {
        if (!running.get()) {
            return;
        }
        double p = s.progress();
        progress.set(p);
        double elapsed = s.elapsedNanos() / 1e9;
        String eta = "";
        if (s.planned() > 0 && s.completed() > 0 && s.completed() < s.planned()) {
            double remaining = elapsed / s.completed() * (s.planned() - s.completed());
            eta = " · ETA " + seconds(remaining);
        }
        progressText.set(String.format(Locale.ROOT, "%s%d%s requests · %d ok · %d failed · %d in flight · %s%s",
                s.step().isEmpty() ? "" : s.step() + " · ", s.completed(),
                s.planned() > 0 ? "/" + s.planned() : "", s.succeeded(), s.failed(), s.inFlight(), seconds(elapsed),
                eta));
    }

    private void finished(long id, RunResult r, Throwable t) {
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
        results.showTrust(r.trust());
        progress.set(r.status() == RunResult.Status.COMPLETED ? 1 : progress.get());
        progressText.set(switch (r.status()) {
            case COMPLETED -> "completed";
            case CANCELLED -> "cancelled";
            case FAILED -> "failed";
        } + String.format(Locale.ROOT, " · %d requests in %s", r.overall().sent(),
                seconds(r.duration().toNanos() / 1e9)));
        status.set(r.status() == RunResult.Status.FAILED ? "run failed: " + r.failure()
                : "saved to " + r.runDirectory());
        onFinished.accept(r);
    }

    private static String seconds(double s) {
        if (s >= 120) {
            return String.format(Locale.ROOT, "%d min %02d s", (long) s / 60, (long) s % 60);
        }
        return String.format(Locale.ROOT, "%.1f s", s);
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
