package org.latencylab.engine.api;

/**
 * Receives the progress of a run. Called on an engine thread (never the JavaFX thread): implementations must be
 * fast, must not block and must not throw (an exception is caught and logged, the run goes on). A desktop app
 * hands snapshots to its UI thread itself.
 */
public interface RunListener {
    /** A listener that ignores everything. */
    RunListener NONE = snapshot -> { };

    /**
     * Called at the engine's snapshot rate (4–10 Hz) and once more with {@code finished = true}.
     *
     * @param snapshot progress and the requests that ended since the previous call
     */
    void onSnapshot(IntervalSnapshot snapshot);

    /**
     * Called when a step of the run starts (e.g. a new context length of a sweep).
     *
     * @param step step label
     */
    default void onStepStarted(String step) {
    }

    /**
     * Called for messages worth showing the user (a fit could not be made, a sample is too small).
     *
     * @param message one line of text
     */
    default void onNotice(String message) {
    }
}
