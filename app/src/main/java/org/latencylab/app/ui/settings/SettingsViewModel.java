package org.latencylab.app.ui.settings;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.run.StatsSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings form: tier metric, tier table, default SLO and data folder, as text properties that
 * {@link #applyTo(AppSettings)} validates. Not thread-safe: UI thread.
 */
public final class SettingsViewModel {
    /**
     * Metrics offered for the tier and SLOs: the common per-request ones (ITL has one value per event gap and cannot
     * judge a request; {@link org.latencylab.engine.stats.Metric#requirePerRequest} is the check).
     */
    public static final List<String> METRICS = Metric.ids(Metric.TTFT, Metric.E2E, Metric.TTFB, Metric.TPOT);

    private final StringProperty tierMetric = new SimpleStringProperty(Metric.TTFT.id());
    private final StringProperty tierBounds = new SimpleStringProperty("80, 300, 1200, 4500");
    private final StringProperty slo = new SimpleStringProperty("ttft:95:1000");
    private final StringProperty dataDir = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper defaultDataDir = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");

    /**
     * Fills the form.
     *
     * @param s      settings
     * @param osData the OS default data folder (shown as the prompt)
     */
    public void load(AppSettings s, Path osData) {
        tierMetric.set(s.tierMetric());
        List<String> bounds = new ArrayList<>();
        for (StatsSettings.TierLevel t : s.tiers()) {
            if (t.maxMs() != null) {
                bounds.add(num(t.maxMs()));
            }
        }
        tierBounds.set(bounds.isEmpty() ? "80, 300, 1200, 4500" : String.join(", ", bounds));
        slo.set(String.join(", ", s.slos().stream().map(x -> x.metric() + ":" + num(x.percentile()) + ":"
                + num(x.maxMs())).toList()));
        dataDir.set(s.dataDir() == null ? "" : s.dataDir());
        defaultDataDir.set(osData.toString());
    }

    /**
     * @param s current settings
     * @return the settings with the form applied, or null when the form is invalid ({@link #messageProperty()})
     */
    public AppSettings applyTo(AppSettings s) {
        try {
            List<StatsSettings.TierLevel> tiers = new ArrayList<>();
            String text = tierBounds.get() == null ? "" : tierBounds.get().strip();
            if (!text.isEmpty()) {
                String[] parts = text.split("[,;\\s]+");
                for (int i = 0; i < parts.length; i++) {
                    tiers.add(new StatsSettings.TierLevel("Tier-" + i, number(parts[i], "tier bound")));
                }
                tiers.add(new StatsSettings.TierLevel("Tier-" + parts.length, null));
            }
            List<org.latencylab.engine.stats.Slo> slos = new ArrayList<>();
            String sloText = slo.get() == null ? "" : slo.get().strip();
            if (!sloText.isEmpty()) {
                for (String one : sloText.split("[,;\\s]+")) {
                    String[] p = one.split(":");
                    if (p.length != 3) {
                        throw new IllegalArgumentException("SLO '" + one + "' must look like METRIC:PERCENTILE:MS,"
                                + " e.g. ttft:95:500");
                    }
                    String metric = org.latencylab.engine.stats.Metric.requirePerRequest("SLO metric", p[0]).id();
                    slos.add(org.latencylab.engine.stats.Slo.ofMillis(metric, number(p[1], "SLO percentile"),
                            number(p[2], "SLO milliseconds")));
                }
            }
            String metric = tierMetric.get() == null ? Metric.TTFT.id() : tierMetric.get();
            // validates the table (ascending bounds) the way a run would
            new StatsSettings(metric, tiers, slos);
            String dir = dataDir.get() == null || dataDir.get().isBlank() ? null : dataDir.get().strip();
            if (dir != null && !Path.of(dir).isAbsolute()) {
                throw new IllegalArgumentException("the data folder must be an absolute path, was '" + dir + "'");
            }
            message.set("settings saved");
            return s.withJudging(metric, tiers, slos, dir);
        } catch (IllegalArgumentException e) {
            message.set(e.getMessage());
            return null;
        }
    }

    private static double number(String s, String what) {
        try {
            return Double.parseDouble(s.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + s + "' is not a number");
        }
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** @return metric whose P95 decides the tier */
    public StringProperty tierMetricProperty() {
        return tierMetric;
    }

    /** @return upper bounds of Tier-0… in ms, ascending, comma-separated (the last tier is unbounded) */
    public StringProperty tierBoundsProperty() {
        return tierBounds;
    }

    /** @return SLOs as {@code metric:percentile:ms}, comma-separated */
    public StringProperty sloProperty() {
        return slo;
    }

    /** @return data folder override (blank = OS default) */
    public StringProperty dataDirProperty() {
        return dataDir;
    }

    /** @return the OS default data folder */
    public ReadOnlyStringProperty defaultDataDirProperty() {
        return defaultDataDir.getReadOnlyProperty();
    }

    /** @return validation or save message */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
