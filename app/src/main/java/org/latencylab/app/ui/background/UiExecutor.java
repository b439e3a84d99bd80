package org.latencylab.app.ui.background;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs work off the UI thread and hands results back on it. Implementations must be thread-safe: {@link #submit}
 * and {@link #onUi} may be called from any thread.
 */
public interface UiExecutor {
    /**
     * Runs {@code work} on a background thread, then exactly one of the callbacks on the UI thread.
     *
     * @param name      short description for thread names and error messages, e.g. {@code "load settings"}
     * @param work      the slow part (network, disk, computation); may throw
     * @param onSuccess receives the result on the UI thread
     * @param onFailure receives the exception {@code work} threw, on the UI thread
     * @param <T>       result type
     */
    <T> void submit(String name, Callable<T> work, Consumer<? super T> onSuccess, Consumer<? super Throwable> onFailure);

    /**
     * Runs {@code action} on the UI thread (later, or at once when already there, depending on the implementation).
     *
     * @param action what to run; must be quick
     */
    void onUi(Runnable action);

    /**
     * Submits work whose failure is only reported.
     *
     * @param name      short description
     * @param work      the slow part
     * @param onSuccess receives the result on the UI thread
     * @param onError   receives {@code "<name> failed: <message>"} on the UI thread
     * @param <T>       result type
     */
    default <T> void submit(String name, Callable<T> work, Consumer<? super T> onSuccess, MessageSink onError) {
        submit(name, work, onSuccess, (Throwable t) -> onError.accept(name + " failed: " + describe(t)));
    }

    /**
     * @param t an exception
     * @return its message, or its class name when it has none
     */
    static String describe(Throwable t) {
        Throwable c = t;
        while ((c instanceof java.util.concurrent.CompletionException
                || c instanceof java.util.concurrent.ExecutionException
                || c instanceof java.lang.reflect.InvocationTargetException) && c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    /** Receives one line of text for the user (an error or status message). */
    @FunctionalInterface
    interface MessageSink extends Consumer<String> {
    }
}
