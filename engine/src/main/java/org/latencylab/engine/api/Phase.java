package org.latencylab.engine.api;

import java.util.Locale;

/**
 * The part of a step a request belongs to. Only {@link #MEASURED} requests enter a step's statistics; warmup and
 * cooldown requests are logged (and counted in a load step's accounting) but never summarised. The phase is data
 * on every request record and {@code requests.jsonl} line (field {@code phase}), never a label convention.
 * Thread-safe (an enum).
 */
public enum Phase {
    /** Sent while the endpoint and the client warm up; not in the statistics. */
    WARMUP,
    /** Sent in the measured window; the statistics are made of these. */
    MEASURED,
    /** Sent while the load winds down; not in the statistics. */
    COOLDOWN;

    /** @return the lower-case name used in files, e.g. {@code "warmup"} */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param id a name written by {@link #id()}
     * @return the phase
     * @throws IllegalArgumentException when the name is unknown (the message lists the valid ones)
     */
    public static Phase fromId(String id) {
        for (Phase p : values()) {
            if (p.id().equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("phase must be warmup, measured or cooldown, was '" + id + "'");
    }
}
