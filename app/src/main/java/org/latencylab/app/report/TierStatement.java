package org.latencylab.app.report;

import org.latencylab.charts.MetricNames;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.stats.StatsReport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one tier statement of a step, in the words that the console, the HTML report, the window's steps table and
 * the window's Results header all show, so that they cannot disagree.
 *
 * <p>A step judged on all its requests pooled (probe, load, grid cell, …) reads
 * {@code Tier-1 (P95 TTFT 261 ms)}: the tier the engine concluded and the P95 of the tier metric it was judged on.
 * A sweep is judged per context length, never on its lengths pooled (TTFT grows with the prompt, so a tier of all
 * lengths together describes none of them): it reads
 * {@code per context length (P95 TTFT): 2048 tokens Tier-2, 8192 tokens Tier-2, 32768 tokens Tier-3}, or
 * {@link #PER_LENGTH_PENDING} while no length has a tier yet. The tier itself is always the engine's
 * ({@code StatsReport#tier()}, or the {@code tier} recorded in run.json): nothing is judged again here.
 *
 * <p>The statement reads the live result ({@link RunResult.StepOutcome}) and the recorded one
 * ({@link RunDocument.Step}) with the same rule, so a run shown while it runs and the same run reopened say the same.
 * Stateless and thread-safe.
 */
public final class TierStatement {
    /** What a step without a tier reads: no samples of its tier metric, or no statistics at all. */
    public static final String NONE = "–";

    /** What a sweep reads while none of its lengths has a tier yet. */
    public static final String PER_LENGTH_PENDING = "judged per context length (no pooled tier)";

    /**
     * What follows a tier statement when the trust check found the client saturated: the latencies are the client's
     * as much as the server's.
     */
    public static final String SATURATED = "as measured, not a verdict on the server: the client was saturated"
            + " (see its trust check)";

    private TierStatement() {
    }

    /**
     * One judged set of requests: a whole step, or one part of it (a sweep's length).
     *
     * @param label    the part's label ({@code sweep-2048}), or the step's label for a whole step; not null
     * @param tier     the engine's tier name ({@code Tier-1}), or null when it had no samples of the tier metric
     * @param metricId the tier metric's id ({@code ttft}, {@code e2e}); not null
     * @param p95Ms    the tier metric's P95 in milliseconds, or NaN when unknown
     */
    public record Judged(String label, String tier, String metricId, double p95Ms) {
        /** @throws NullPointerException when the label or the metric id is null */
        public Judged {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(metricId, "metricId");
        }
    }

    /**
     * The statement from judged sets.
     *
     * @param stepLabel the step's label, e.g. {@code sweep} (a part labelled {@code sweep-2048} reads
     *                  {@code 2048 tokens}); not null
     * @param pooled    whether the step is judged on its requests pooled ({@code ExperimentSpec#tierPooled()})
     * @param whole     the whole step, or null when it has no statistics
     * @param parts     the parts in the order run (read only when not pooled); not null
     * @return the statement; {@link #NONE} when there is nothing to judge
     */
    public static String of(String stepLabel, boolean pooled, Judged whole, List<Judged> parts) {
        if (!pooled) {
            List<String> each = new ArrayList<>();
            String metric = null;
            for (Judged p : parts) {
                if (p.tier() != null) {
                    metric = p.metricId();
                    each.add(partName(stepLabel, p.label()) + " " + p.tier());
                }
            }
            return each.isEmpty() ? (whole == null ? NONE : PER_LENGTH_PENDING)
                    : "per context length (P95 " + metricName(metric) + "): " + String.join(", ", each);
        }
        if (whole == null || whole.tier() == null) {
            return NONE;
        }
        return whole.tier() + " (P95 " + metricName(whole.metricId()) + " " + Units.ms(whole.p95Ms()) + ")";
    }

    /**
     * @param s a step of a run that runs or ran, or null
     * @return its tier statement ({@link #of}); {@link #NONE} for null or a step without statistics
     */
    public static String of(RunResult.StepOutcome s) {
        if (s == null || s.stats() == null) {
            return NONE;
        }
        List<Judged> parts = new ArrayList<>();
        for (Map.Entry<String, StatsReport> p : s.parts().entrySet()) {
            parts.add(judged(p.getKey(), p.getValue()));
        }
        return of(s.label(), s.spec() == null || s.spec().tierPooled(), judged(s.label(), s.stats()), parts);
    }

    /**
     * @param s a step as recorded in run.json
     * @return its tier statement ({@link #of}); {@link #NONE} for a step without a summary
     * @throws NullPointerException when {@code s} is null
     */
    public static String of(RunDocument.Step s) {
        List<Judged> parts = new ArrayList<>();
        for (Map.Entry<String, RunDocument.Summary> p : s.parts().entrySet()) {
            parts.add(judged(p.getKey(), p.getValue()));
        }
        // a sweep is recorded without a step tier; a step of an unknown type has no spec and is read as pooled
        boolean pooled = s.spec() == null ? !"sweep".equals(s.type()) : s.spec().tierPooled();
        Judged whole = s.summary() == null ? null : new Judged(s.label(), s.tier(),
                orTtft(s.summary().tierMetric()), p95(s.summary()));
        return of(s.label(), pooled, whole, parts);
    }

    /**
     * @param r statistics judged on their requests pooled (a step that is not a sweep), or null
     * @return their tier statement, {@code Tier-1 (P95 TTFT 261 ms)}; {@link #NONE} for null or no tier
     */
    public static String of(StatsReport r) {
        return r == null ? NONE : of("", true, judged("", r), List.of());
    }

    private static Judged judged(String label, StatsReport r) {
        String metric = r.tierMetric();
        double p95 = r.summary(metric).filter(m -> m.count() > 0).map(m -> m.pMillis(95.0)).orElse(Double.NaN);
        return new Judged(label, r.tier() == null ? null : r.tier().name(), metric, p95);
    }

    private static Judged judged(String label, RunDocument.Summary r) {
        return new Judged(label, r.tier(), orTtft(r.tierMetric()), p95(r));
    }

    private static double p95(RunDocument.Summary r) {
        return r.percentile(orTtft(r.tierMetric()), 95.0).map(RunDocument.Percentile::valueMs).orElse(Double.NaN);
    }

    private static String orTtft(String metric) {
        return metric == null ? "ttft" : metric; // TTFT is the default tier metric (StatsSettings)
    }

    private static String partName(String stepLabel, String partLabel) {
        String prefix = stepLabel + "-";
        String rest = partLabel.startsWith(prefix) ? partLabel.substring(prefix.length()) : partLabel;
        return rest.chars().allMatch(Character::isDigit) && !rest.isEmpty() ? rest + " tokens" : rest;
    }

    /** The metric's display name as the window writes it ({@code TTFT}, {@code E2E}): the chart name, capitalised. */
    private static String metricName(String id) {
        String n = MetricNames.name(id);
        return n.isEmpty() ? n : Character.toUpperCase(n.charAt(0)) + n.substring(1);
    }
}
