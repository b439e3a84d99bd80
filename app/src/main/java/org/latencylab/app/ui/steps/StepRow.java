package org.latencylab.app.ui.steps;

import org.latencylab.app.report.TierStatement;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.results.MetricGlossary;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.stats.SloResult;
import org.latencylab.engine.stats.StatsReport;

import java.util.Locale;

/**
 * One step of a finished run as a row of the steps table: the step's own summary as the engine concluded it (never
 * recomputed here). Immutable and thread-safe.
 *
 * @param label    step label, e.g. {@code load} or {@code sweep2}
 * @param type     step type: {@code probe}, {@code sweep}, {@code load}, {@code grid}
 * @param requests measured requests of the step (warmup and cooldown left out), e.g. {@code "1 980 (3 failed)"}
 * @param p50      P50 of the step's tier metric with its unit, or "–"
 * @param p95      P95 of the step's tier metric with its unit, or "–"
 * @param rate     load steps: target and achieved rate in req/s; grids: cells run; else "–"
 * @param tier     the step's tier statement ({@link TierStatement}), or "–"
 * @param slo      SLO verdicts ({@code PASS}/{@code FAIL} with compliance), "not judged" for sweeps and grids, or
 *                 "no SLO"
 */
public record StepRow(String label, String type, String requests, String p50, String p95, String rate, String tier,
                      String slo) {

    /**
     * @param s a finished step
     * @return its row
     */
    public static StepRow of(RunResult.StepOutcome s) {
        StatsReport r = s.stats();
        String requests = String.format(Locale.ROOT, "%d", r.sent())
                + (r.failed() > 0 ? " (" + r.failed() + " failed)" : "")
                + (r.cancelled() > 0 ? " (" + r.cancelled() + " cancelled)" : "");
        String metric = r.tierMetric();
        String p50 = r.summary(metric).filter(m -> m.count() > 0).map(m -> MetricGlossary.displayName(metric) + " "
                + Units.ms(m.pMillis(50.0))).orElse("–");
        String p95 = r.summary(metric).filter(m -> m.count() > 0).map(m -> Units.ms(m.pMillis(95.0))).orElse("–");
        String rate = "–";
        if (s.result() instanceof LoadResult l && l.totals() != null) {
            rate = l.totals().targetRateRps() > 0
                    ? String.format(Locale.ROOT, "%.1f of %.1f req/s", l.totals().achievedRateRps(),
                    l.totals().targetRateRps())
                    : String.format(Locale.ROOT, "%.1f req/s", l.totals().achievedRateRps());
        } else if (s.result() instanceof GridResult g) {
            rate = g.cells().size() + " of " + g.rowValues().size() * g.columnValues().size() + " cells";
        }
        String tier = TierStatement.of(s); // the header's, the console's and the report's words
        String slo;
        if (r.sloResults().isEmpty()) {
            slo = "sweep".equals(s.type()) || "grid".equals(s.type()) ? "not judged" : "no SLO";
        } else {
            StringBuilder b = new StringBuilder();
            for (SloResult x : r.sloResults()) {
                if (!b.isEmpty()) {
                    b.append("; ");
                }
                b.append(x.passed() ? "PASS " : "FAIL ").append(Units.percent(x.complianceRate()));
            }
            slo = b.toString();
        }
        return new StepRow(s.label(), s.type(), requests, p50, p95, rate, tier, slo);
    }
}
