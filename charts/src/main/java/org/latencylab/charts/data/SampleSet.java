package org.latencylab.charts.data;

import java.util.Arrays;

/**
 * A named set of measured values of one metric, e.g. the TTFT of every request of one endpoint, in the unit of
 * the chart's value axis (usually ms). Order does not matter. The array is copied, so a sample set is immutable.
 *
 * @param name   legend name, e.g. {@code "vLLM, 8k context"}; not blank
 * @param values the samples; finite and >= 0 (latencies); may be empty (drawn as nothing)
 * @throws IllegalArgumentException on a blank name or a negative or non-finite value
 */
public record SampleSet(String name, double[] values) {

    public SampleSet {
        Checks.name(name, "sample set");
        Checks.notNull(values, "values of sample set '" + name + "'");
        Checks.finite(values, "values of sample set '" + name + "'");
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0) {
                throw new IllegalArgumentException("values of sample set '" + name + "' must be >= 0, was "
                        + values[i] + " at index " + i);
            }
        }
        values = values.clone();
    }

    /** @return a copy of the samples */
    @Override
    public double[] values() {
        return values.clone();
    }

    /** @return number of samples */
    public int size() {
        return values.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SampleSet s && s.name.equals(name) && Arrays.equals(s.values, values);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "SampleSet[" + name + ", n=" + values.length + "]";
    }
}
