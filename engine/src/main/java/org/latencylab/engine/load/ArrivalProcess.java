package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * How the gaps between open-loop arrivals are drawn, around the target rate. Thread-safe (an enum).
 */
public enum ArrivalProcess {
    /** Evenly spaced arrivals: gap = 1 / rate exactly. */
    CONSTANT,
    /** Poisson arrivals: exponential gaps with mean 1 / rate (coefficient of variation 1). */
    POISSON,
    /**
     * Bursty arrivals: gamma-distributed gaps with mean 1 / rate and shape k, so the coefficient of variation is
     * 1 / √k (k &lt; 1 burstier than Poisson, k = 1 is Poisson, k &gt; 1 smoother).
     */
    GAMMA;

    /** @return the lower-case name used in scenario files, e.g. {@code "poisson"} */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param id {@code "constant"}, {@code "poisson"} or {@code "gamma"} (any case)
     * @return the process
     * @throws IllegalArgumentException when the name is unknown; the message lists the known names
     */
    @JsonCreator
    public static ArrivalProcess fromId(String id) {
        for (ArrivalProcess p : values()) {
            if (p.id().equalsIgnoreCase(id == null ? "" : id.strip())) {
                return p;
            }
        }
        throw new IllegalArgumentException("arrival must be constant, poisson or gamma, was '" + id + "'");
    }
}
