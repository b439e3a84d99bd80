package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * What an open-loop run does with a request that arrives while the in-flight cap or the rate cap is reached.
 * Thread-safe (an enum).
 */
public enum CapPolicy {
    /**
     * The request waits until the cap allows it; its intended start stays where the schedule put it, so the wait
     * shows in latency from the intended start and in dispatch lag. Later arrivals wait behind it.
     */
    QUEUE,
    /** The request is not sent; it is counted in {@code dropped} and gets no request id and no record. */
    DROP;

    /** @return {@code "queue"} or {@code "drop"} */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param id {@code "queue"} or {@code "drop"}
     * @return the policy
     * @throws IllegalArgumentException on any other text
     */
    @JsonCreator
    public static CapPolicy fromId(String id) {
        for (CapPolicy p : values()) {
            if (p.id().equalsIgnoreCase(id == null ? "" : id.strip())) {
                return p;
            }
        }
        throw new IllegalArgumentException("atCap must be queue or drop, was '" + id + "'");
    }
}
