package org.latencylab.app.report;

import org.latencylab.engine.experiment.RunResult;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.SloResult;
import org.latencylab.engine.stats.StatsReport;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The console summary of a run: per step a percentile table of TTFT, TPOT, ITL and E2E, the tier line
 * ("P95 TTFT 412 ms → Tier-2"), SLO compliance, errors by kind; for sweeps the per-length points and the fit.
 * Thread-safe (stateless).
 */
public final class ConsoleReport {
    private static final List<String> METRICS = List.of("ttft", "time_to_first_content", "ttfb", "tpot", "itl", "e2e",
            "dispatch_lag");
    private static final Map<String, String> NAMES = Map.of("ttft", "TTFT", "time_to_first_content", "first answer",
            "ttfb", "TTFB", "tpot", "TPOT", "itl", "ITL", "e2e", "E2E", "dispatch_lag", "dispatch lag");

    private ConsoleReport() {
    }

    /**
     * @param r      the finished run
     * @param charts chart files written (may be empty)
     * @param out    where to print
     */
    public static void print(RunResult r, List<Path> charts, PrintWriter out) {
        out.printf(Locale.ROOT, "%nLatencyLab — %s — %s — %s in %.1f s%n", r.name(), r.endpointDescription(),
                r.status().id(), r.duration().toNanos() / 1e9);
        if (r.failure() != null) {
            out.println("run failed: " + r.failure());
        }
        for (RunResult.StepOutcome s : r.steps()) {
            out.println();
            out.println("== " + s.label() + " (" + s.type() + ")");
            if (s.result() instanceof SweepRunner.SweepResult sw) {
                printSweep(sw, out);
            } else if (s.stats() != null) {
                printStats(s.stats(), out);
            }
        }
        for (String n : r.notices()) {
            out.println("note: " + n);
        }
        out.println();
        out.println("run directory: " + r.runDirectory());
        if (!charts.isEmpty()) {
            out.println("charts: " + charts.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
        }
        if (r.status() == RunResult.Status.COMPLETED) {
            out.println(r.slosPassed() ? "SLOs: all passed" : "SLOs: FAILED (exit status 1)");
        }
    }

    /**
     * Prints the percentile table, tier, SLOs and errors of one set of statistics.
     *
     * @param s   statistics
     * @param out where to print
     */
    public static void printStats(StatsReport s, PrintWriter out) {
        out.printf(Locale.ROOT, "%-13s %6s %10s %10s %10s %10s %10s %9s%n", "metric", "n", "P50", "P90", "P95", "P99",
                "P99.9", "max");
        boolean flagged = false;
        for (String m : METRICS) {
            MetricSummary ms = s.summaries().get(m);
            if (ms == null || ms.count() == 0) {
                continue;
            }
            String[] cells = new String[5];
            double[] ps = {50, 90, 95, 99, 99.9};
            for (int i = 0; i < ps.length; i++) {
                var p = ms.p(ps[i]);
                boolean thin = p != null && !p.enoughSamples();
                flagged |= thin;
                cells[i] = Units.ms(ms.pMillis(ps[i])) + (thin ? "*" : "");
            }
            out.printf(Locale.ROOT, "%-13s %6d %10s %10s %10s %10s %10s %9s%n", NAMES.getOrDefault(m, m), ms.count(),
                    cells[0], cells[1], cells[2], cells[3], cells[4], Units.ms(ms.maxMillis()));
        }
        if (flagged) {
            out.println("* fewer than 10 samples above this percentile: an estimate near the maximum, not a measured tail");
        }
        MetricSummary tierMetric = s.summaries().get(s.tierMetric());
        if (s.tier() != null && tierMetric != null && tierMetric.count() > 0) {
            var p95 = tierMetric.p(95.0);
            out.printf(Locale.ROOT, "P95 %s %s (95%% CI %s–%s) → %s%n", NAMES.getOrDefault(s.tierMetric(), s.tierMetric()),
                    Units.ms(p95.valueMillis()), Units.ms(p95.lowerMillis()), Units.ms(p95.upperMillis()),
                    s.tier().name());
        }
        for (SloResult slo : s.sloResults()) {
            out.printf(Locale.ROOT, "SLO %s P%s ≤ %s: %s of %d requests met it → %s%n",
                    NAMES.getOrDefault(slo.slo().metric(), slo.slo().metric()), trim(slo.slo().percentile()),
                    Units.ms(slo.slo().thresholdNanos() / 1e6), Units.percent(slo.complianceRate()), slo.judged(),
                    slo.passed() ? "pass" : "FAIL");
        }
        out.printf(Locale.ROOT, "requests: %d sent, %d ok, %d failed, %d cancelled; %.1f req/s, %.0f output tokens/s%n",
                s.sent(), s.succeeded(), s.failed(), s.cancelled(), s.requestsPerSecond(), s.outputTokensPerSecond());
        if (!s.errorsByKind().isEmpty()) {
            out.println("errors: " + s.errorsByKind().entrySet().stream()
                    .map(e -> e.getKey().id() + " " + e.getValue()).collect(Collectors.joining(", ")));
        }
        for (String w : s.warnings()) {
            if (!w.contains("samples above it")) { // those are the starred cells above
                out.println("warning: " + w);
            }
        }
    }

    private static void printSweep(SweepRunner.SweepResult sw, PrintWriter out) {
        out.printf(Locale.ROOT, "%-10s %5s %22s %22s%n", "context", "ok", "P50 TTFT (95% CI)", "P95 TTFT (95% CI)");
        for (SweepRunner.SweepPoint p : sw.points()) {
            out.printf(Locale.ROOT, "%-10s %5s %22s %22s%n", p.contextTokens() + " tok", p.succeeded() + "/" + p.requests(),
                    Units.ms(p.p50TtftMs()) + " (" + Units.ms(p.p50LowerMs()) + "–" + Units.ms(p.p50UpperMs()) + ")",
                    Units.ms(p.p95TtftMs()) + " (" + Units.ms(p.p95LowerMs()) + "–" + Units.ms(p.p95UpperMs()) + ")");
        }
        out.println("fit: " + sw.fitMessage());
        if (sw.fitP95() != null) {
            out.printf(Locale.ROOT, "fit P95: α %.3f (95%% CI %.3f–%.3f), R² %.4f%n", sw.fitP95().alpha(),
                    sw.fitP95().alphaLower(), sw.fitP95().alphaUpper(), sw.fitP95().rSquared());
        }
        for (SweepRunner.Extrapolation e : sw.extrapolations()) {
            out.printf(Locale.ROOT, "extrapolated to %d tokens: P50 TTFT %s (band %s–%s), P95 %s%n", e.contextTokens(),
                    Units.ms(e.p50TtftMs()), Units.ms(e.p50LowerMs()), Units.ms(e.p50UpperMs()), Units.ms(e.p95TtftMs()));
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
