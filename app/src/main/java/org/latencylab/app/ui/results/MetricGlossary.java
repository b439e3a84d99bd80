package org.latencylab.app.ui.results;

import org.latencylab.engine.stats.Metric;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Definitions of the metrics and terms the window shows, for tooltips and the summary table: each metric's is the
 * engine's {@link Metric#definition()} (the one place metrics are named and defined); the other terms (first-screen
 * latency, tier, SLO, goodput, intervals) are defined here. Thread-safe (immutable).
 */
public final class MetricGlossary {
    private static final Map<String, String> TERMS = new LinkedHashMap<>();

    static {
        for (Metric m : Metric.values()) {
            TERMS.put(m.id(), m.definition());
        }
        TERMS.put("first_screen", "First-screen latency: from the user's action (the send; with a cold connection,"
                + " before DNS, TCP and TLS) until the client holds the first screenful of answer text, 200 characters"
                + " by default (or N tokens). An answer shorter than a screen counts at its last answer event; a"
                + " non-streamed answer at the end of its body.");
        TERMS.put("tier", "Tier: judged on the P95 of the chosen metric (TTFT by default). Default table: Tier-0 ≤ 80 ms,"
                + " Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s, Tier-3 ≤ 4.5 s, Tier-4 above (editable in Settings).");
        TERMS.put("slo", "SLO (service-level objective): at least P % of requests have the metric ≤ the threshold;"
                + " the compliance rate is met / judged, where failed requests count as not met.");
        TERMS.put("goodput", "Goodput: requests that succeeded and met every SLO, per second of wall time.");
        TERMS.put("interval", "Each percentile is shown with a distribution-free (order-statistic) confidence interval"
                + " aiming at 95 % coverage; small samples cannot reach it (the interval then covers less). A"
                + " percentile marked * has fewer than 10 samples expected above it: an estimate near the maximum.");
    }

    private MetricGlossary() {
    }

    /**
     * @param term a metric id ({@code ttft}, {@code e2e}, …) or {@code tier}, {@code slo}, {@code goodput}
     * @return its definition, or the term itself when unknown
     */
    public static String define(String term) {
        return TERMS.getOrDefault(term, term);
    }

    /** @return every term and its definition, in display order */
    public static Map<String, String> all() {
        return java.util.Collections.unmodifiableMap(TERMS);
    }

    /**
     * @param metric a metric id
     * @return its display name from the charts' {@link org.latencylab.charts.MetricNames} (the one place that names
     *         metrics), capitalised for a table: {@code TTFT}, {@code Time to first content}
     */
    public static String displayName(String metric) {
        String n = org.latencylab.charts.MetricNames.name(metric);
        return n.isEmpty() ? n : Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }
}
