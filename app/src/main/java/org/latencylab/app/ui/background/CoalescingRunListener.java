package org.latencylab.app.ui.background;

import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.step.StepProgress;
import org.latencylab.engine.step.StepProgressListener;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Adapts the engine's {@link RunListener} (called on engine threads at 5 Hz) to the UI thread.
 *
 * <p>Coalescing: when snapshots arrive faster than the UI thread drains them, only the latest snapshot is
 * delivered, but the {@code newRecords} of every snapshot in between are concatenated (in arrival order) into the
 * delivered {@link Update}, so no finished request is lost. At most one drain is queued on the UI thread at a time,
 * so a slow UI never builds a backlog of runnables. Notices, step changes and step progress (a load step's closed
 * seconds, a grid's finished cells) are delivered in order the same way, none dropped.
 *
 * <p>Thread-safety: the listener methods may be called from any thread; the consumer runs on the executor given
 * ({@code Platform::runLater} in the app, a direct or queued executor in tests).
 */
public final class CoalescingRunListener implements StepProgressListener {
    private final Executor uiThread;
    private final Consumer<Update> consumer;
    private final Object lock = new Object();
    private IntervalSnapshot latest;
    private List<RequestRecord> pendingRecords = new ArrayList<>();
    private List<String> pendingNotices = new ArrayList<>();
    private List<StepProgress> pendingProgress = new ArrayList<>();
    private String pendingStep;
    private boolean drainQueued;

    /**
     * @param uiThread runs the drain on the UI thread, e.g. {@code Platform::runLater}
     * @param consumer receives coalesced updates on the UI thread
     */
    public CoalescingRunListener(Executor uiThread, Consumer<Update> consumer) {
        this.uiThread = Objects.requireNonNull(uiThread, "uiThread");
        this.consumer = Objects.requireNonNull(consumer, "consumer");
    }

    @Override
    public void onSnapshot(IntervalSnapshot snapshot) {
        synchronized (lock) {
            latest = snapshot;
            pendingRecords.addAll(snapshot.newRecords());
        }
        schedule();
    }

    @Override
    public void onStepStarted(String step) {
        synchronized (lock) {
            pendingStep = step;
        }
        schedule();
    }

    @Override
    public void onNotice(String message) {
        synchronized (lock) {
            pendingNotices.add(message);
        }
        schedule();
    }

    @Override
    public void onStepProgress(StepProgress progress) {
        synchronized (lock) {
            pendingProgress.add(progress);
        }
        schedule();
    }

    private void schedule() {
        synchronized (lock) {
            if (drainQueued) {
                return;
            }
            drainQueued = true;
        }
        uiThread.execute(this::drain);
    }

    private void drain() {
        Update u;
        synchronized (lock) {
            drainQueued = false;
            u = new Update(latest, pendingRecords, pendingStep, pendingNotices, pendingProgress);
            latest = null;
            pendingRecords = new ArrayList<>();
            pendingNotices = new ArrayList<>();
            pendingProgress = new ArrayList<>();
            pendingStep = null;
        }
        consumer.accept(u);
    }

    /**
     * What arrived since the previous update.
     *
     * @param snapshot   the latest snapshot, or null when only a notice or step change arrived
     * @param newRecords requests that ended since the previous update, in the order they ended (all snapshots')
     * @param stepStarted label of the step that started most recently, or null
     * @param notices    notices in the order raised
     * @param progress   step progress in the order reported (load seconds, grid cells)
     */
    public record Update(IntervalSnapshot snapshot, List<RequestRecord> newRecords, String stepStarted,
                         List<String> notices, List<StepProgress> progress) {
        /** Copies the lists. */
        public Update {
            newRecords = List.copyOf(newRecords);
            notices = List.copyOf(notices);
            progress = List.copyOf(progress);
        }
    }
}
