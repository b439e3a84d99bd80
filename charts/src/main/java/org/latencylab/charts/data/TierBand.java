package org.latencylab.charts.data;

/**
 * A horizontal band on a latency-over-time chart, e.g. the range of latency tier 1: {@code new TierBand("Tier-1 ≤ 300
 * ms", 80, 300)}. Values are in the unit of the chart's y axis. Immutable.
 *
 * @param label text drawn in the band; not blank
 * @param lower lower edge, finite
 * @param upper upper edge, finite and > lower
 * @throws IllegalArgumentException on a blank label or an empty or non-finite range
 */
public record TierBand(String label, double lower, double upper) {

    public TierBand {
        Checks.name(label, "tier band");
        if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(upper > lower)) {
            throw new IllegalArgumentException("tier band '" + label + "' needs finite lower < upper, was "
                    + lower + " .. " + upper);
        }
    }
}
