package org.latencylab.engine.experiment;

import org.latencylab.engine.run.RunResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A run in progress: cancel it, wait for it. Thread-safe.
 */
public final class RunHandle {
    private final Path runDirectory;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final CompletableFuture<RunResult> result = new CompletableFuture<>();
    private volatile java.util.function.Supplier<RunResult> view;

    RunHandle(Path runDirectory) {
        this.runDirectory = runDirectory;
    }

    /** @return the run directory being written */
    public Path runDirectory() {
        return runDirectory;
    }

    /**
     * Asks the run to stop: no new requests are sent, in-flight requests are cancelled (recorded as
     * {@code cancelled}), finished ones are kept, and the run directory is completed. Returns at once; idempotent.
     */
    public void cancel() {
        cancelled.set(true);
    }

    /** @return true once {@link #cancel()} was called */
    public boolean isCancelled() {
        return cancelled.get();
    }

    /** @return true when the run has ended (completed, cancelled or failed) */
    public boolean isDone() {
        return result.isDone();
    }

    /**
     * Waits for the end of the run.
     *
     * @return the result (its status says whether it completed, was cancelled or failed)
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public RunResult await() throws InterruptedException {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("run engine failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Waits at most {@code timeout} for the end of the run.
     *
     * @param timeout how long to wait
     * @return the result, or null when the run is still going
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public RunResult await(Duration timeout) throws InterruptedException {
        try {
            return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException("run engine failed: " + e.getCause(), e.getCause());
        }
    }

    /** @return a future completed with the result (for asynchronous callers such as the desktop app) */
    public CompletableFuture<RunResult> future() {
        return result.copy();
    }

    /**
     * The run's result model as it stands: while the run goes on, finished steps with their exact statistics and
     * the running step with live ones ({@link RunResult.Status#RUNNING}); once it ended, the final result. Cheap
     * (no pass over the requests: histograms and counters); callable from any thread, but not the JavaFX thread of
     * an app that wants to stay responsive during a long soak with millions of samples (it copies CDF points).
     *
     * @return the current result model, or null before the run's state exists (the first milliseconds)
     */
    public RunResult view() {
        if (result.isDone() && !result.isCompletedExceptionally()) {
            return result.join();
        }
        java.util.function.Supplier<RunResult> v = view;
        return v == null ? null : v.get();
    }

    void viewSource(java.util.function.Supplier<RunResult> source) {
        this.view = source;
    }

    void complete(RunResult r) {
        result.complete(r);
    }

    void fail(Throwable t) {
        result.completeExceptionally(t);
    }
}
