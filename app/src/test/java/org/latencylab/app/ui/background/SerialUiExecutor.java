package org.latencylab.app.ui.background;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A stand-in for the JavaFX thread in view-model tests: one named thread plays the UI thread; background work
 * runs inline on the submitting thread (the "UI" thread), callbacks are queued on the UI thread.
 */
public final class SerialUiExecutor implements UiExecutor, AutoCloseable {
    private final ExecutorService ui = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-ui-thread"));

    @Override
    public <T> void submit(String name, Callable<T> work, Consumer<? super T> onSuccess,
                           Consumer<? super Throwable> onFailure) {
        T result;
        try {
            result = work.call();
        } catch (Exception | Error e) {
            ui.execute(() -> onFailure.accept(e));
            return;
        }
        ui.execute(() -> onSuccess.accept(result));
    }

    @Override
    public void onUi(Runnable action) {
        ui.execute(action);
    }

    /** @param c something to compute on the UI thread @param <T> type @return its value */
    public <T> T call(Callable<T> c) throws Exception {
        return ui.submit(c).get(30, TimeUnit.SECONDS);
    }

    /** @param r something to run on the UI thread, waiting for it */
    public void run(Runnable r) throws Exception {
        ui.submit(r).get(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        ui.shutdownNow();
        ui.awaitTermination(5, TimeUnit.SECONDS);
    }
}
