package org.latencylab.app.ui.background;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs everything at once on the calling thread: work, then its callback. For tests of view models without the
 * JavaFX toolkit. Thread-safe (it keeps no state), but callbacks then run on whatever thread called.
 */
public final class DirectUiExecutor implements UiExecutor {
    @Override
    public <T> void submit(String name, Callable<T> work, Consumer<? super T> onSuccess,
                           Consumer<? super Throwable> onFailure) {
        T result;
        try {
            result = work.call();
        } catch (Exception | Error e) {
            onFailure.accept(e);
            return;
        }
        onSuccess.accept(result);
    }

    @Override
    public void onUi(Runnable action) {
        action.run();
    }
}
