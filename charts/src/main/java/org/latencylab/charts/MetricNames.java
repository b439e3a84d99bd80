package org.latencylab.charts;

import java.util.Locale;
import java.util.Map;

import org.latencylab.charts.data.Quantity;
import org.latencylab.engine.stats.Metric;

/**
 * The one place that names statistics, run parts and chart axes for people: chart titles, axis names, legends.
 * A metric of the engine is named by its {@link Metric#displayName()} (the one place that names and defines the
 * metrics); this class adds units, statistics and the other quantities charts show. Maps
 * the identifiers used in scenarios, {@code run.json} and {@code summary.csv} ({@code ttft_from_intended},
 * {@code p999}, {@code goodput_rps}) to the standard terms of the field with their unit ({@code TTFT from intended
 * start [ms]}, {@code P99.9}, {@code goodput [req/s]}). The console, the HTML report and the window name metrics
 * through this class, so a metric has one name everywhere (e.g. {@code time to first content} for the id
 * {@code time_to_first_content}: send to the first answer, non-reasoning, text). The definitions of the metrics are
 * {@link Metric#definition()}.
 *
 * <p>Stateless; thread-safe.
 */
public final class MetricNames {

    private record Entry(String name, String unit) {
    }

    /** Names of what is not one of the engine's {@link Metric}s (those name themselves, in ms). */
    private static final Map<String, Entry> OTHERS = Map.ofEntries(
            Map.entry("first_byte", new Entry("time to first byte", "ms")),
            Map.entry("connect", new Entry("connect time", "ms")),
            Map.entry("achieved_rps", new Entry("achieved rate", "req/s")),
            Map.entry("goodput_rps", new Entry("goodput", "req/s")),
            Map.entry("error_rate", new Entry("error rate", "fraction")),
            Map.entry("context", new Entry("context", "tokens")),
            Map.entry("contexttokens", new Entry("context", "tokens")),
            Map.entry("concurrency", new Entry("concurrency", "requests")),
            Map.entry("rate", new Entry("arrival rate", "req/s")));

    private MetricNames() {
    }

    /**
     * @param id a metric or parameter identifier, e.g. {@code ttft_from_intended}, {@code concurrency} (case
     *           ignored)
     * @return its name for people, e.g. {@code TTFT from intended start}; an unknown id with its underscores as
     *         spaces
     */
    public static String name(String id) {
        Entry e = entry(id);
        return e != null ? e.name() : id.strip().replace('_', ' ');
    }

    /**
     * @param id a metric or parameter identifier
     * @return its unit, e.g. {@code ms}, {@code req/s}, {@code tokens}; {@code ""} when unknown
     */
    public static String unit(String id) {
        Entry e = entry(id);
        return e != null ? e.unit() : "";
    }

    private static Entry entry(String id) {
        return Metric.find(id).map(m -> new Entry(m.displayName(), "ms")).orElseGet(() -> OTHERS.get(key(id)));
    }

    /**
     * @param id a metric or parameter identifier
     * @return name and unit as an axis quantity, e.g. {@code TTFT [ms]}
     */
    public static Quantity quantity(String id) {
        return new Quantity(name(id), unit(id));
    }

    /**
     * @param statistic a statistic identifier: {@code p50}, {@code p90}, {@code p95}, {@code p99}, {@code p999},
     *                  {@code p99.9}, {@code mean}, {@code max}, {@code min} (case ignored)
     * @return its name, e.g. {@code P99.9}, {@code mean}
     */
    public static String statistic(String statistic) {
        String s = statistic.strip().toLowerCase(Locale.ROOT);
        if (s.matches("p\\d+(\\.\\d+)?")) {
            String digits = s.substring(1);
            if (!digits.contains(".") && digits.length() > 2 && digits.startsWith("99")) {
                digits = "99." + digits.substring(2); // p999 -> P99.9, p9999 -> P99.99
            }
            return "P" + digits;
        }
        return s;
    }

    /**
     * Names "metric statistic" labels as the engine writes them for grids ({@code ttft_from_intended p99}).
     *
     * @param metricAndStatistic a metric id, optionally followed by a space and a statistic id
     * @return e.g. {@code P99 TTFT from intended start}, or the metric's name alone
     */
    public static String metricWithStatistic(String metricAndStatistic) {
        String[] parts = metricAndStatistic.strip().split("\\s+", 2);
        return parts.length == 2 ? statistic(parts[1]) + " " + name(parts[0]) : name(parts[0]);
    }

    /**
     * A chart title: what is shown, and of which run and step, without repeating a step label that only says what
     * the run's name already says (a CLI {@code probe} run has a step named {@code probe}). A step is named as people
     * say it: by its type when its label is the type's default ({@code load step}), else by type and label
     * ({@code load step “burst”}).
     *
     * @param what      what the chart shows, e.g. {@code TTFT and E2E distribution}
     * @param runName   the run's name, e.g. {@code quickstart}
     * @param stepLabel the step's label, e.g. {@code probe}; null or blank when the chart is about the whole run
     * @param stepType  the step's type, e.g. {@code load}; null when unknown
     * @return e.g. {@code Latency over time — soak, load step}, {@code … — soak, load step “burst”} or
     *         {@code TTFT and E2E distribution — probe}
     */
    public static String title(String what, String runName, String stepLabel, String stepType) {
        boolean step = stepLabel != null && !stepLabel.isBlank() && !stepLabel.equals(runName);
        String stepName = !step ? "" : stepType == null || stepType.isBlank() ? "step “" + stepLabel + "”"
                : stepLabel.equals(stepType) ? stepType + " step" : stepType + " step “" + stepLabel + "”";
        if (runName == null || runName.isBlank()) {
            return step ? what + " — " + stepName : what;
        }
        return what + " — " + runName + (step ? ", " + stepName : "");
    }

    private static String key(String id) {
        return id.strip().toLowerCase(Locale.ROOT);
    }
}
