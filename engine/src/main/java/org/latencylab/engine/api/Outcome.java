package org.latencylab.engine.api;

/**
 * How a request ended. Every request ends in exactly one outcome. Thread-safe (an enum).
 */
public enum Outcome {
    /** A complete response with at least one generated token (streaming) or a body (non-streaming). */
    SUCCESS("success"),
    /** The request failed; {@link RequestRecord#errorKind()} says how. */
    ERROR("error"),
    /** The run was cancelled (user cancel, deadline of the run) while the request was in flight. */
    CANCELLED("cancelled");

    private final String id;

    Outcome(String id) {
        this.id = id;
    }

    /** @return the lower-case name used in files, e.g. {@code "success"} */
    public String id() {
        return id;
    }

    @Override
    public String toString() {
        return id;
    }
}
