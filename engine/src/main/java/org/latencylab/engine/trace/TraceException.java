package org.latencylab.engine.trace;

/**
 * A trace file that cannot be replayed (cannot be read, empty, not of the format asked, nothing valid in it), with
 * a one-line message that names the file, and where known the line and field, and what to do. Immutable; thread-safe.
 */
public final class TraceException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param message the whole one-line message, e.g. {@code t.jsonl: line 4: field 'input_length': must be >= 1, was -3} */
    public TraceException(String message) {
        super(message);
    }
}
