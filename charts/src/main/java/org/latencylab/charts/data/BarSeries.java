package org.latencylab.charts.data;

import java.util.Arrays;

/**
 * One series of a grouped bar chart: one value per category, e.g. the first-screen latency of SSE for each network
 * profile. NaN marks a category without a value. The array is copied, so the record is immutable.
 *
 * @param name   legend name, e.g. {@code "SSE"}; not blank
 * @param values one value per category, in the unit of the value axis; finite or NaN
 * @throws IllegalArgumentException on a blank name or an infinite value
 */
public record BarSeries(String name, double[] values) {

    public BarSeries {
        Checks.name(name, "bar series");
        Checks.notNull(values, "values of bar series '" + name + "'");
        for (double v : values) {
            if (Double.isInfinite(v)) {
                throw new IllegalArgumentException("bar series '" + name + "' holds an infinite value");
            }
        }
        values = values.clone();
    }

    /** @return a copy of the values */
    @Override
    public double[] values() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BarSeries b && b.name.equals(name) && Arrays.equals(b.values, values);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "BarSeries[" + name + ", " + values.length + " values]";
    }
}
