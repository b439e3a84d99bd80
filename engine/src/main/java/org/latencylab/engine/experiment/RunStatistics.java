package org.latencylab.engine.experiment;

import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.stats.RequestStats;
import org.latencylab.engine.stats.Slo;
import org.latencylab.engine.stats.StatsConfig;
import org.latencylab.engine.stats.StatsReport;
import org.latencylab.engine.stats.Tier;
import org.latencylab.engine.stats.TierTable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a run's {@link StatsSettings} into the statistics package's {@link StatsConfig} and summarises records.
 * Stateless and thread-safe.
 */
public final class RunStatistics {
    private RunStatistics() {
    }

    /**
     * @param settings tier table and SLOs from the scenario
     * @return the equivalent statistics configuration
     * @throws IllegalArgumentException when the tier metric or an SLO metric is unknown
     */
    public static StatsConfig config(StatsSettings settings) {
        StatsConfig c = StatsConfig.defaults();
        TierTable table = TierTable.DEFAULT;
        if (!settings.tiers().isEmpty()) {
            List<Tier> tiers = new ArrayList<>();
            for (StatsSettings.TierLevel t : settings.tiers()) {
                tiers.add(t.maxMs() == null ? new Tier(t.name(), Tier.UNBOUNDED)
                        : new Tier(t.name(), Math.round(t.maxMs() * 1e6)));
            }
            table = new TierTable(tiers);
        }
        c = c.withTier(table, settings.tierMetric());
        List<Slo> slos = new ArrayList<>();
        for (StatsSettings.SloSpec s : settings.slos()) {
            slos.add(Slo.of(s.metric(), s.percentile(), Duration.ofNanos(Math.round(s.maxMs() * 1e6))));
        }
        return c.withSlos(slos);
    }

    /**
     * @param records  finished requests (any outcome)
     * @param settings tier table and SLOs
     * @return summaries, counts, SLO results and tier
     */
    public static StatsReport summarize(List<RequestRecord> records, StatsSettings settings) {
        return RequestStats.summarize(records, config(settings));
    }
}
