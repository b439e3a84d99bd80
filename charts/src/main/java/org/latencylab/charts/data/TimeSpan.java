package org.latencylab.charts.data;

/**
 * A stretch of a time chart's x axis that is marked behind the lines, e.g. a load step's warm-up, whose requests are
 * not in its statistics: {@code new TimeSpan("warm-up: not in the statistics", 0, 2)}. Values are seconds since the
 * start, as on the axis. Immutable.
 *
 * @param label text drawn in the span; not blank
 * @param from  start, s, finite
 * @param to    end, s, finite and &gt; from
 * @throws IllegalArgumentException on a blank label or an empty or non-finite range
 */
public record TimeSpan(String label, double from, double to) {

    public TimeSpan {
        Checks.name(label, "time span");
        if (!Double.isFinite(from) || !Double.isFinite(to) || !(to > from)) {
            throw new IllegalArgumentException("time span '" + label + "' needs finite from < to, was " + from
                    + " .. " + to);
        }
    }
}
