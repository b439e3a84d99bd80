package org.latencylab.engine.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.stats.Slo;

import java.util.List;

/**
 * How a run judges its results: the tier table (and on which metric's P95 it is judged) and the SLOs.
 * Immutable and thread-safe.
 *
 * @param tierMetric metric whose P95 decides the tier: {@code ttft} (default), {@code e2e}, {@code ttfb},
 *                   {@code tpot}, {@code itl}
 * @param tiers      tier table, ascending upper bounds; null or empty = the default table (Tier-0 ≤ 80 ms,
 *                   Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s, Tier-3 ≤ 4.5 s, Tier-4 above; DESIGN.md)
 * @param slos       SLOs, judged on every probe and load step (not on sweeps, whose context lengths differ by
 *                   design); a failed SLO makes {@code latencylab run} exit with status 1
 * @throws IllegalArgumentException on a malformed tier or SLO; the message names the field
 */
public record StatsSettings(@JsonProperty("tierMetric") String tierMetric,
                            @JsonProperty("tiers") List<TierLevel> tiers,
                            @JsonProperty("slos") List<Slo> slos) {

    /** Default settings: tier on TTFT P95, default table, no SLOs. */
    public static final StatsSettings DEFAULTS = new StatsSettings(null, null, null);

    public StatsSettings {
        tierMetric = tierMetric == null || tierMetric.isBlank() ? "ttft" : tierMetric.strip();
        tierMetric = org.latencylab.engine.stats.Metric.requirePerRequest("tierMetric", tierMetric).id();
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
        slos = slos == null ? List.of() : List.copyOf(slos);
        double last = -1;
        for (int i = 0; i < tiers.size(); i++) {
            TierLevel t = tiers.get(i);
            if (t.maxMs() == null) {
                if (i != tiers.size() - 1) {
                    throw new IllegalArgumentException("tiers[" + i + "] (" + t.name()
                            + ") has no maxMs: only the last tier may be unbounded");
                }
            } else if (t.maxMs() <= last) {
                throw new IllegalArgumentException("tiers[" + i + "].maxMs must be greater than the previous tier's ("
                        + last + " ms), was " + t.maxMs());
            } else {
                last = t.maxMs();
            }
        }
    }

    /**
     * The statistics package's form of these settings: the tier table (the default table when none is set), the
     * tier metric, the SLOs, and the default percentiles (P50, P90, P95, P99, P99.9) with 95 % intervals.
     *
     * @return the equivalent statistics configuration
     */
    public org.latencylab.engine.stats.StatsConfig config() {
        org.latencylab.engine.stats.TierTable table = org.latencylab.engine.stats.TierTable.DEFAULT;
        if (!tiers.isEmpty()) {
            List<org.latencylab.engine.stats.Tier> list = new java.util.ArrayList<>();
            for (TierLevel t : tiers) {
                list.add(t.maxMs() == null ? new org.latencylab.engine.stats.Tier(t.name(),
                        org.latencylab.engine.stats.Tier.UNBOUNDED)
                        : new org.latencylab.engine.stats.Tier(t.name(),
                        org.latencylab.engine.api.Nanos.fromMillis(t.maxMs())));
            }
            table = new org.latencylab.engine.stats.TierTable(list);
        }
        return org.latencylab.engine.stats.StatsConfig.defaults().withTier(table, tierMetric).withSlos(slos);
    }

    /** @return the tier table these settings judge with (the default table when none is set) */
    public org.latencylab.engine.stats.TierTable tierTable() {
        return config().tierTable();
    }

    /**
     * @param metric tier metric id, or null to keep this one
     * @return a copy judged on that metric
     */
    public StatsSettings withTierMetric(String metric) {
        return metric == null ? this : new StatsSettings(metric, tiers, slos);
    }

    /**
     * @param more SLOs to judge besides these settings' own (a load step's {@code slos}); an SLO equal to one
     *             already here is judged once
     * @return a copy judged on these settings' SLOs followed by {@code more}, or this when {@code more} adds none
     */
    public StatsSettings withAddedSlos(List<Slo> more) {
        java.util.LinkedHashSet<Slo> all = new java.util.LinkedHashSet<>(slos);
        all.addAll(more);
        return all.size() == slos.size() ? this : new StatsSettings(tierMetric, tiers, List.copyOf(all));
    }

    /** @return a copy without SLOs (sweeps and whole-run summaries are not judged against SLOs) */
    public StatsSettings withoutSlos() {
        return new StatsSettings(tierMetric, tiers, List.of());
    }

    /**
     * One tier of the table.
     *
     * @param name  e.g. {@code "Tier-1"}
     * @param maxMs inclusive upper bound of the P95 in milliseconds; null for the last, unbounded tier
     */
    public record TierLevel(@JsonProperty("name") String name, @JsonProperty("maxMs") Double maxMs) {
        public TierLevel {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("tier name must not be blank");
            }
            if (maxMs != null && !(maxMs > 0)) {
                throw new IllegalArgumentException("tier '" + name + "': maxMs must be > 0, was " + maxMs);
            }
        }
    }
}
