package org.latencylab.charts;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import javafx.application.Platform;

/** Test helper: start the toolkit (headless via the surefire argLine) and run code on the JavaFX thread. */
final class Fx {

    private Fx() {
    }

    static synchronized void start() {
        try {
            CompletableFuture<Void> up = new CompletableFuture<>();
            Platform.startup(() -> up.complete(null));
            up.get(30, TimeUnit.SECONDS);
        } catch (IllegalStateException alreadyRunning) {
            // started by an earlier test or by ChartImages
        } catch (Exception e) {
            throw new IllegalStateException("JavaFX toolkit did not start", e);
        }
        Platform.setImplicitExit(false);
    }

    static <T> T call(Supplier<T> task) {
        start();
        CompletableFuture<T> result = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void run(Runnable task) {
        call(() -> {
            task.run();
            return null;
        });
    }
}
