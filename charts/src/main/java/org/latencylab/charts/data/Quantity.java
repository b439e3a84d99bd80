package org.latencylab.charts.data;

import java.util.Objects;

/**
 * What an axis shows and in which unit, e.g. {@code new Quantity("TTFT", "ms")}, drawn as {@code TTFT [ms]}.
 * Every chart axis in LatencyLab carries a unit, so the unit is required. Immutable.
 *
 * @param name quantity name in the field's terms (TTFT, ITL, E2E, context, concurrency); not blank
 * @param unit unit as written in the label (ms, s, tokens, req/s, requests, %); not blank
 * @throws IllegalArgumentException when either is null or blank
 */
public record Quantity(String name, String unit) {

    public Quantity {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("quantity name must not be blank, was '" + name + "'");
        }
        if (unit == null || unit.isBlank()) {
            throw new IllegalArgumentException("unit of '" + name + "' must not be blank: every axis carries a unit");
        }
    }

    /** @return the label as drawn on an axis, {@code name [unit]} */
    public String label() {
        return name + " [" + unit + "]";
    }

    /** @param name quantity name @param unit unit @return a new quantity; same checks as the constructor */
    public static Quantity of(String name, String unit) {
        return new Quantity(Objects.requireNonNull(name, "name"), unit);
    }
}
