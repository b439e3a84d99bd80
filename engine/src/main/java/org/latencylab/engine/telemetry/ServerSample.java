package org.latencylab.engine.telemetry;

import java.util.List;

/**
 * One scrape of a server's {@code /metrics}, reduced to the quantities a benchmark watches. NaN where the server
 * does not expose a quantity. Immutable and thread-safe.
 *
 * @param tSeconds       time of the scrape since the variant's start, s
 * @param running        requests running, count
 * @param waiting        requests waiting in the server's queue, count
 * @param kvCacheUsage   KV-cache usage, fraction in [0, 1]
 * @param prefixHitRate  prefix-cache hit rate, fraction (a gauge, or hits / queries since start)
 * @param ttftCount      server-side TTFT histogram count so far (cumulative)
 * @param ttftSumSeconds server-side TTFT histogram sum so far, s (cumulative)
 * @param itlCount       server-side inter-token histogram count so far (cumulative)
 * @param itlSumSeconds  server-side inter-token histogram sum so far, s (cumulative)
 */
public record ServerSample(double tSeconds, double running, double waiting, double kvCacheUsage,
                           double prefixHitRate, double ttftCount, double ttftSumSeconds, double itlCount,
                           double itlSumSeconds) {

    /**
     * @param tSeconds time of the scrape, s
     * @param samples  a parsed scrape
     * @return the reduced sample
     */
    public static ServerSample of(double tSeconds, List<PrometheusText.Sample> samples) {
        double hitRate = ServerMetricNames.first(samples, ServerMetricNames.PREFIX_HIT_RATE);
        if (Double.isNaN(hitRate)) {
            Double hits = PrometheusText.sum(samples, ServerMetricNames.PREFIX_HITS);
            Double queries = PrometheusText.sum(samples, ServerMetricNames.PREFIX_QUERIES);
            if (hits != null && queries != null && queries > 0) {
                hitRate = hits / queries;
            }
        }
        return new ServerSample(tSeconds,
                ServerMetricNames.first(samples, ServerMetricNames.RUNNING),
                ServerMetricNames.first(samples, ServerMetricNames.WAITING),
                ServerMetricNames.first(samples, ServerMetricNames.KV_CACHE_USAGE), hitRate,
                histogram(samples, ServerMetricNames.TTFT_HISTOGRAM, "_count"),
                histogram(samples, ServerMetricNames.TTFT_HISTOGRAM, "_sum"),
                histogram(samples, ServerMetricNames.ITL_HISTOGRAM, "_count"),
                histogram(samples, ServerMetricNames.ITL_HISTOGRAM, "_sum"));
    }

    private static double histogram(List<PrometheusText.Sample> samples, List<String> bases, String suffix) {
        for (String b : bases) {
            if (PrometheusText.sum(samples, b + "_count") != null) {
                return PrometheusText.sum(samples, b + suffix);
            }
        }
        return Double.NaN;
    }
}
