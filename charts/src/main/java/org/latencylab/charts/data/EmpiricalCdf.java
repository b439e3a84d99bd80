package org.latencylab.charts.data;

import java.util.Arrays;

/**
 * The empirical cumulative distribution of a sample set, as the points a chart draws.
 *
 * <p>Two plotting conventions are offered. {@link #steps()} is the textbook ECDF {@code F(x_(i)) = i/n} for the
 * i-th smallest value (1-based), drawn as a staircase on a linear probability axis. {@link #hazen()} uses the Hazen
 * plotting position {@code p_i = (i − 0.5)/n} (Hazen 1914; see also Cunnane 1978, J. Hydrology 37), which never
 * reaches 1, so it can be drawn on a nines axis where {@code p = 1} would lie at infinity; its top point lies at
 * {@code 1 − 1/(2n)}, i.e. a sample of 1000 reaches P99.95 and no further, which is honest about what the sample
 * can show.
 *
 * <p>Stateless; thread-safe.
 */
public final class EmpiricalCdf {

    private EmpiricalCdf() {
    }

    /**
     * @param samples the sample set
     * @return x = sorted values, y = {@code i/n} (probability in 0..1], for a staircase plot
     */
    public static Series steps(SampleSet samples) {
        double[] x = sorted(samples);
        double[] p = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            p[i] = (i + 1) / (double) x.length;
        }
        return new Series(samples.name(), x, p);
    }

    /**
     * @param samples the sample set
     * @return x = sorted values, y = Hazen plotting position {@code (i − 0.5)/n} (probability in 0..1)
     */
    public static Series hazen(SampleSet samples) {
        double[] x = sorted(samples);
        double[] p = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            p[i] = (i + 0.5) / x.length;
        }
        return new Series(samples.name(), x, p);
    }

    private static double[] sorted(SampleSet samples) {
        double[] x = samples.values();
        Arrays.sort(x);
        return x;
    }
}
