package org.latencylab.charts.data;

import java.util.Arrays;

/**
 * A named line or point set: {@code y[i]} at {@code x[i]}, in the units of the chart's axes. NaN y values are
 * gaps. The arrays are copied on construction and on access, so a series is immutable.
 *
 * @param name legend name, e.g. {@code "P95"}; not blank
 * @param x    x values (e.g. seconds since start, context tokens); finite
 * @param y    y values, same length as {@code x}; finite or NaN
 * @throws IllegalArgumentException on a blank name, different lengths or a non-finite x
 */
public record Series(String name, double[] x, double[] y) {

    public Series {
        Checks.name(name, "series");
        Checks.notNull(x, "x of series '" + name + "'");
        Checks.notNull(y, "y of series '" + name + "'");
        if (x.length != y.length) {
            throw new IllegalArgumentException("series '" + name + "' has " + x.length + " x values but "
                    + y.length + " y values");
        }
        Checks.finite(x, "x of series '" + name + "'");
        x = x.clone();
        y = y.clone();
    }

    /** @return a copy of the x values */
    @Override
    public double[] x() {
        return x.clone();
    }

    /** @return a copy of the y values */
    @Override
    public double[] y() {
        return y.clone();
    }

    /** @return number of points */
    public int size() {
        return x.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Series s && s.name.equals(name) && Arrays.equals(s.x, x) && Arrays.equals(s.y, y);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(x) * 17 + Arrays.hashCode(y);
    }

    @Override
    public String toString() {
        return "Series[" + name + ", " + x.length + " points]";
    }
}
