package org.latencylab.engine.client;

import java.util.Objects;

/**
 * Tells a caller, while its request is still streaming, that the first token-bearing event arrived — e.g. so a
 * load generator can enforce a hard first-token deadline by interrupting only requests that have none yet.
 *
 * <p>The observer is bound to the calling thread for the duration of {@link #observe}; {@link LlmClient#execute}
 * reads the response on the calling thread and runs the observer there once, right after it stamped
 * {@code firstTokenNanos}. The observer must be fast and must not throw (an exception is ignored). Thread-safe.
 */
public final class FirstTokenSignal {
    private static final ThreadLocal<Runnable> CURRENT = new ThreadLocal<>();

    private FirstTokenSignal() {
    }

    /** Work that may be interrupted. @param <T> result type */
    @FunctionalInterface
    public interface Interruptible<T> {
        /** @return the result @throws InterruptedException when interrupted */
        T call() throws InterruptedException;
    }

    /**
     * Runs {@code body} with {@code onFirstToken} observing the first token of requests this thread executes.
     *
     * @param onFirstToken called once per request on this thread when its first token arrives
     * @param body         the work, typically {@code () -> client.execute(endpoint, request, ticket)}
     * @param <T>          result type
     * @return what {@code body} returned
     * @throws InterruptedException when {@code body} throws it
     */
    public static <T> T observe(Runnable onFirstToken, Interruptible<T> body) throws InterruptedException {
        Objects.requireNonNull(onFirstToken, "onFirstToken");
        Runnable previous = CURRENT.get();
        CURRENT.set(onFirstToken);
        try {
            return body.call();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** Runs this thread's observer, if any (called by the client when a request's first token arrived). */
    static void fire() {
        Runnable r = CURRENT.get();
        if (r != null) {
            try {
                r.run();
            } catch (RuntimeException ignored) {
                // an observer must not break the measurement of the request
            }
        }
    }
}
