package org.latencylab.engine.stats;

import java.util.List;
import java.util.Objects;

/**
 * How {@link RequestStats} summarizes a run. Immutable and thread-safe.
 *
 * @param slos        objectives to check (may be empty); goodput counts requests meeting all of them
 * @param tierTable   table used to classify the tier metric's P95
 * @param tierMetric  per-request metric whose P95 decides the tier, default {@code "ttft"}
 * @param percentiles percentiles to report, each in (0, 100)
 * @param confidence  confidence level of percentile intervals, in (0, 1)
 */
public record StatsConfig(List<Slo> slos, TierTable tierTable, String tierMetric, List<Double> percentiles,
                          double confidence) {

    /** @throws IllegalArgumentException when a value is out of range or the tier metric is unknown */
    public StatsConfig {
        slos = List.copyOf(Objects.requireNonNull(slos, "slos"));
        Objects.requireNonNull(tierTable, "tierTable");
        Metric m = Metric.requirePerRequest("tier metric", tierMetric);
        tierMetric = m.id();
        percentiles = List.copyOf(percentiles);
        if (percentiles.isEmpty()) {
            throw new IllegalArgumentException("at least one percentile is needed");
        }
        for (double p : percentiles) {
            if (!(p > 0 && p < 100)) {
                throw new IllegalArgumentException("percentile must be in (0, 100), was " + p);
            }
        }
        if (!percentiles.contains(95.0)) {
            throw new IllegalArgumentException("percentiles must include 95 (the tier is judged on P95), were "
                    + percentiles);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
        }
    }

    /** @return no SLOs, the default tier table on TTFT, P50/P90/P95/P99/P99.9 with 95 % intervals */
    public static StatsConfig defaults() {
        return new StatsConfig(List.of(), TierTable.DEFAULT, Metric.TTFT.id(), MetricSummary.DEFAULT_PERCENTILES,
                Summaries.DEFAULT_CONFIDENCE);
    }

    /** @param newSlos objectives @return a copy with these SLOs */
    public StatsConfig withSlos(List<Slo> newSlos) {
        return new StatsConfig(newSlos, tierTable, tierMetric, percentiles, confidence);
    }

    /** @param table tier table @param metric per-request metric id @return a copy with this tier rule */
    public StatsConfig withTier(TierTable table, String metric) {
        return new StatsConfig(slos, table, metric, percentiles, confidence);
    }
}
