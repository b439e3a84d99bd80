package org.latencylab.app.ui.background;

import javafx.application.Platform;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The desktop app's executor: work on a small pool of daemon threads, callbacks through
 * {@link Platform#runLater(Runnable)}. Thread-safe. {@link #close()} stops the pool (queued work is dropped).
 */
public final class FxUiExecutor implements UiExecutor, AutoCloseable {
    private final ExecutorService pool;

    /** A pool of at most 4 worker threads named {@code latencylab-ui-worker-N}. */
    public FxUiExecutor() {
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "latencylab-ui-worker-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public <T> void submit(String name, Callable<T> work, Consumer<? super T> onSuccess,
                           Consumer<? super Throwable> onFailure) {
        pool.execute(() -> {
            T result;
            try {
                result = work.call();
            } catch (Exception | Error e) {
                Platform.runLater(() -> onFailure.accept(e));
                return;
            }
            Platform.runLater(() -> onSuccess.accept(result));
        });
    }

    @Override
    public void onUi(Runnable action) {
        if (Platform.isFxApplicationThread()) {
            action.run();
        } else {
            Platform.runLater(action);
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
