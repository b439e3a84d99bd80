package org.latencylab.charts.data;

import java.math.BigDecimal;

/**
 * The "nines" scale for percentiles: {@code n(p) = −log10(1 − p)} for a probability {@code p} in [0, 1). P90, P99,
 * P99.9 map to 1, 2, 3 and so lie evenly spaced, which shows the tail of a latency distribution that a linear
 * probability axis squeezes into its top pixel (the scale used by HdrHistogram's percentile plots). P50 maps to
 * log10(2) ≈ 0.301.
 *
 * <p>Stateless; thread-safe.
 */
public final class NinesScale {

    private NinesScale() {
    }

    /**
     * @param p probability in [0, 1)
     * @return {@code −log10(1 − p)}, >= 0
     * @throws IllegalArgumentException when p is outside [0, 1)
     */
    public static double toNines(double p) {
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1) for the nines scale, was " + p);
        }
        return -Math.log10(1 - p);
    }

    /**
     * @param nines position on the nines scale, >= 0
     * @return the probability {@code 1 − 10^(−nines)}
     * @throws IllegalArgumentException when nines is negative or not finite
     */
    public static double fromNines(double nines) {
        if (!(nines >= 0) || Double.isInfinite(nines)) {
            throw new IllegalArgumentException("nines must be finite and >= 0, was " + nines);
        }
        return 1 - Math.pow(10, -nines);
    }

    /**
     * @param p probability in [0, 1)
     * @return the percentile label, e.g. {@code "P50"}, {@code "P99.9"} (at most 4 decimals, no trailing zeros)
     */
    public static String label(double p) {
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1), was " + p);
        }
        BigDecimal percent = BigDecimal.valueOf(p * 100).setScale(4, java.math.RoundingMode.HALF_UP)
                .stripTrailingZeros();
        return "P" + percent.toPlainString();
    }
}
