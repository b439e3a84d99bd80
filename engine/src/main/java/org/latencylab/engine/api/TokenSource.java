package org.latencylab.engine.api;

/**
 * Where a token count came from. Thread-safe (an enum).
 */
public enum TokenSource {
    /** The server reported it (usage object, final details, done line). */
    SERVER("server"),
    /** LatencyLab counted it with a tokenizer (jtokkit {@code cl100k_base} unless configured otherwise). */
    TOKENIZER("tokenizer"),
    /** Not known (for example a failed request). */
    NONE("none");

    private final String id;

    TokenSource(String id) {
        this.id = id;
    }

    /** @return the lower-case name used in files */
    public String id() {
        return id;
    }

    @Override
    public String toString() {
        return id;
    }
}
