package org.latencylab.charts.data;

/**
 * A point with a text label, e.g. one GPU-server configuration in a Pareto chart: {@code new LabelledPoint("batch 64,
 * prefill 8k", 1830, 412)} (throughput [tokens/s], P99 TTFT [ms]). Immutable.
 *
 * @param label text drawn next to the point; not blank
 * @param x     x value in the chart's x unit; finite
 * @param y     y value in the chart's y unit; finite
 * @throws IllegalArgumentException on a blank label or a non-finite coordinate
 */
public record LabelledPoint(String label, double x, double y) {

    public LabelledPoint {
        Checks.name(label, "point");
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new IllegalArgumentException("point '" + label + "' needs finite x and y, was " + x + ", " + y);
        }
    }
}
