package org.latencylab.app.ui.settings;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.stats.Metric;
import java.util.List;

/**
 * Everything {@code settings.json} holds. Immutable and thread-safe; change it with the {@code with…} methods.
 *
 * @param format         file format version ({@value #FORMAT})
 * @param theme          {@code light} or {@code dark}
 * @param endpoints      saved endpoints, in list order (the built-in simulator is not stored: it is always there)
 * @param selected       name of the selected endpoint, or {@value #SIMULATOR} for the built-in simulator
 * @param simProfile     simulator profile chosen last, e.g. {@code small-fast}
 * @param lastExperiment the experiment form as last used
 * @param tierMetric     metric whose P95 decides the tier ({@code ttft}, {@code e2e}, …)
 * @param tiers          tier table; empty = the default table (DESIGN.md)
 * @param slos           default SLOs applied to probes
 * @param dataDir        data folder override, or null for the OS default ({@link AppDirectories})
 */
public record AppSettings(@JsonProperty("format") Integer format, @JsonProperty("theme") String theme,
                          @JsonProperty("endpoints") List<EndpointConfig> endpoints,
                          @JsonProperty("selected") String selected,
                          @JsonProperty("simProfile") String simProfile,
                          @JsonProperty("lastExperiment") ExperimentDraft lastExperiment,
                          @JsonProperty("tierMetric") String tierMetric,
                          @JsonProperty("tiers") List<StatsSettings.TierLevel> tiers,
                          @JsonProperty("slos") List<org.latencylab.engine.stats.Slo> slos,
                          @JsonProperty("dataDir") String dataDir) {

    /** Current file format version. */
    public static final int FORMAT = 1;
    /** Name under which the built-in simulator is selected. */
    public static final String SIMULATOR = "Built-in simulator";

    /** Defaults: light theme, no saved endpoints, the simulator ({@code small-fast}) selected, a default probe. */
    public static final AppSettings DEFAULTS = new AppSettings(FORMAT, "light", List.of(), SIMULATOR,
            org.latencylab.app.Defaults.SIM_PROFILE, ExperimentDraft.DEFAULTS, Metric.TTFT.id(), List.of(),
            List.of(org.latencylab.engine.stats.Slo.ofMillis(Metric.TTFT.id(), 95.0, 1000.0)),
            null);

    /** Fills missing values with defaults and copies the lists. */
    public AppSettings {
        format = format == null ? FORMAT : format;
        theme = Theme.fromId(theme).id();
        endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
        selected = selected == null || selected.isBlank() ? SIMULATOR : selected;
        simProfile = simProfile == null || simProfile.isBlank() ? org.latencylab.app.Defaults.SIM_PROFILE : simProfile;
        lastExperiment = lastExperiment == null ? ExperimentDraft.DEFAULTS : lastExperiment;
        tierMetric = tierMetric == null || tierMetric.isBlank() ? Metric.TTFT.id() : tierMetric;
        tiers = tiers == null ? List.of() : List.copyOf(tiers);
        slos = slos == null ? List.of() : List.copyOf(slos);
        dataDir = dataDir == null || dataDir.isBlank() ? null : dataDir;
    }

    /** @return the stats settings runs are judged with (tier metric, tier table, SLOs) */
    public StatsSettings statsSettings() {
        return new StatsSettings(tierMetric, tiers, slos);
    }

    /** @param t theme @return a copy */
    public AppSettings withTheme(Theme t) {
        return new AppSettings(format, t.id(), endpoints, selected, simProfile, lastExperiment, tierMetric, tiers,
                slos, dataDir);
    }

    /** @param list endpoints @param sel selected name @param profile simulator profile @return a copy */
    public AppSettings withEndpoints(List<EndpointConfig> list, String sel, String profile) {
        return new AppSettings(format, theme, list, sel, profile, lastExperiment, tierMetric, tiers, slos, dataDir);
    }

    /** @param draft last experiment @return a copy */
    public AppSettings withLastExperiment(ExperimentDraft draft) {
        return new AppSettings(format, theme, endpoints, selected, simProfile, draft, tierMetric, tiers, slos,
                dataDir);
    }

    /**
     * @param metric tier metric
     * @param table  tier table (empty = default)
     * @param sloList SLOs
     * @param dir    data folder override or null
     * @return a copy
     */
    public AppSettings withJudging(String metric, List<StatsSettings.TierLevel> table,
                                   List<org.latencylab.engine.stats.Slo> sloList, String dir) {
        return new AppSettings(format, theme, endpoints, selected, simProfile, lastExperiment, metric, table,
                sloList, dir);
    }
}
