package org.latencylab.charts.data;

import java.util.Arrays;

/**
 * One series of an interval bar chart: per category a value and its interval, e.g. each endpoint's P95 TTFT with
 * its 95 % confidence interval. NaN marks a category without a value (no bar, no whisker). Arrays are copied, so
 * the record is immutable.
 *
 * @param name   legend name, e.g. {@code "P95 TTFT"}; not blank
 * @param values one value per category, finite or NaN
 * @param lower  lower bound per category, &lt;= value (or NaN with it)
 * @param upper  upper bound per category, &gt;= value (or NaN with it)
 * @throws IllegalArgumentException when lengths differ, a value is infinite or a bound is on the wrong side
 */
public record IntervalBarSeries(String name, double[] values, double[] lower, double[] upper) {

    public IntervalBarSeries {
        Checks.name(name, "interval bar series");
        Checks.notNull(values, "values of '" + name + "'");
        Checks.notNull(lower, "lower bounds of '" + name + "'");
        Checks.notNull(upper, "upper bounds of '" + name + "'");
        if (lower.length != values.length || upper.length != values.length) {
            throw new IllegalArgumentException("interval bar series '" + name + "': " + values.length + " values, "
                    + lower.length + " lower and " + upper.length + " upper bounds");
        }
        for (int i = 0; i < values.length; i++) {
            if (Double.isInfinite(values[i])) {
                throw new IllegalArgumentException("interval bar series '" + name + "' holds an infinite value");
            }
            if (!Double.isNaN(values[i]) && (lower[i] > values[i] || upper[i] < values[i])) {
                throw new IllegalArgumentException("interval bar series '" + name + "', category " + i
                        + ": bounds must satisfy lower <= value <= upper, was " + lower[i] + " <= " + values[i]
                        + " <= " + upper[i]);
            }
        }
        values = values.clone();
        lower = lower.clone();
        upper = upper.clone();
    }

    /** @return a copy of the values */
    @Override
    public double[] values() {
        return values.clone();
    }

    /** @return a copy of the lower bounds */
    @Override
    public double[] lower() {
        return lower.clone();
    }

    /** @return a copy of the upper bounds */
    @Override
    public double[] upper() {
        return upper.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IntervalBarSeries b && b.name.equals(name) && Arrays.equals(b.values, values)
                && Arrays.equals(b.lower, lower) && Arrays.equals(b.upper, upper);
    }

    @Override
    public int hashCode() {
        return (name.hashCode() * 31 + Arrays.hashCode(values)) * 31 + Arrays.hashCode(upper);
    }

    @Override
    public String toString() {
        return "IntervalBarSeries[" + name + ", " + values.length + " values]";
    }
}
