package org.latencylab.app.ui.results;

import org.latencylab.app.report.Units;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;

import java.util.List;

/**
 * One row of the summary table: a metric, its sample count and P50…P99.9 with 95 % intervals, as text.
 * Immutable and thread-safe.
 *
 * @param metric     metric id, e.g. {@code ttft}
 * @param name       display name, e.g. {@code TTFT}
 * @param definition the metric's definition (tooltip)
 * @param count      samples
 * @param p50        e.g. {@code 112 ms [104–121]}
 * @param p90        P90 with interval
 * @param p95        P95 with interval
 * @param p99        P99 with interval ({@code *} = fewer than 10 samples above it)
 * @param p999       P99.9 with interval
 * @param max        largest value
 */
public record SummaryRow(String metric, String name, String definition, long count, String p50, String p90,
                         String p95, String p99, String p999, String max) {

    /** Percentiles shown, in column order. */
    public static final List<Double> PERCENTILES = List.of(50.0, 90.0, 95.0, 99.0, 99.9);

    /**
     * @param s a metric summary of the engine
     * @return its row
     */
    public static SummaryRow of(MetricSummary s) {
        return of(s, MetricGlossary.displayName(s.metric()));
    }

    /**
     * @param s    a metric summary of the engine
     * @param name the row's name, e.g. a sweep's {@code sweep-2048} for its TTFT
     * @return its row
     */
    public static SummaryRow of(MetricSummary s, String name) {
        String[] cells = new String[PERCENTILES.size()];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cell(s, PERCENTILES.get(i));
        }
        return new SummaryRow(s.metric(), name, MetricGlossary.define(s.metric()),
                s.count(), cells[0], cells[1], cells[2], cells[3], cells[4],
                s.count() == 0 ? "–" : Units.ms(s.maxMillis()));
    }

    private static String cell(MetricSummary s, double p) {
        if (s.count() == 0) {
            return "–";
        }
        PercentileEstimate e;
        try {
            e = s.p(p);
        } catch (IllegalArgumentException missing) {
            return "–";
        }
        return Units.ms(e.valueMillis()) + " [" + bounds(e.lowerMillis(), e.upperMillis(), e.valueMillis()) + "]"
                + (e.enoughSamples() ? "" : " *");
    }

    /** Interval bounds without unit, in the unit {@link Units#ms} chose for the value (s from 1000 ms). */
    private static String bounds(double lo, double hi, double value) {
        if (value >= 1000) {
            return String.format(java.util.Locale.ROOT, "%.2f–%.2f", lo / 1000, hi / 1000);
        }
        return bare(lo) + "–" + bare(hi);
    }

    private static String bare(double ms) {
        if (ms >= 100) {
            return String.format(java.util.Locale.ROOT, "%.0f", ms);
        }
        return String.format(java.util.Locale.ROOT, ms >= 10 ? "%.1f" : "%.2f", ms);
    }
}
