package org.latencylab.engine.analysis;

/**
 * Cost of serving output tokens on rented GPUs. Stateless; thread-safe.
 */
public final class Cost {
    private Cost() {
    }

    /**
     * Cost per million output tokens = price per GPU-hour × GPUs ÷ (output tokens/s × 3600 s/h) × 10^6, i.e. what
     * an hour of the instance costs divided by the tokens it produces in that hour at the measured throughput.
     *
     * @param pricePerGpuHour      price of one GPU for one hour (any currency, e.g. USD), &gt;= 0
     * @param gpus                 GPUs the server uses, &gt;= 1
     * @param outputTokensPerSecond measured output throughput, tokens/s, &gt; 0
     * @return cost per 10^6 output tokens in the price's currency, or NaN when the throughput is not &gt; 0
     * @throws IllegalArgumentException when the price is negative or gpus &lt; 1
     */
    public static double perMillionOutputTokens(double pricePerGpuHour, int gpus, double outputTokensPerSecond) {
        if (!(pricePerGpuHour >= 0)) {
            throw new IllegalArgumentException("pricePerGpuHour must be >= 0, was " + pricePerGpuHour);
        }
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be >= 1, was " + gpus);
        }
        if (!(outputTokensPerSecond > 0)) {
            return Double.NaN;
        }
        return pricePerGpuHour * gpus / (outputTokensPerSecond * 3600) * 1e6;
    }
}
