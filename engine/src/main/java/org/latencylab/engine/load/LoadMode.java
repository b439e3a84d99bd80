package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * Closed loop (a fixed number of workers, each sending its next request when the previous ended) or open loop
 * (requests arrive on a schedule whatever the server does). Thread-safe (an enum).
 */
public enum LoadMode {
    /** Arrivals follow a rate schedule; latency counts from the intended start. */
    OPEN,
    /** {@code concurrency} workers in a loop, each with optional think time. */
    CLOSED;

    /** @return {@code "open"} or {@code "closed"} */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param id {@code "open"} or {@code "closed"}
     * @return the mode
     * @throws IllegalArgumentException on any other text
     */
    @JsonCreator
    public static LoadMode fromId(String id) {
        for (LoadMode m : values()) {
            if (m.id().equalsIgnoreCase(id == null ? "" : id.strip())) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode must be open or closed, was '" + id + "'");
    }
}
