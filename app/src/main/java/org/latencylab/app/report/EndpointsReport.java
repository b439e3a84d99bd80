package org.latencylab.app.report;

import org.latencylab.engine.compare.BaselineRunner;
import org.latencylab.engine.compare.BootstrapDifference;
import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.EndpointRanking;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.monitor.MonitorRunner;
import org.latencylab.engine.stats.PercentileEstimate;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Console tables of the multi-endpoint steps: the ranking of {@code compare-endpoints} and {@code monitor}
 * (P50/P95/P99 of TTFT and E2E with 95 % intervals, tier, SLO attainment, error rate, and which neighbours are not
 * significantly different) and the overhead table of {@code baseline}. Thread-safe (stateless).
 */
public final class EndpointsReport {
    private EndpointsReport() {
    }

    /** @param result a step result @return true when this class prints it */
    public static boolean handles(StepResult result) {
        return result instanceof CompareEndpointsRunner.CompareResult || result instanceof MonitorRunner.MonitorResult
                || result instanceof BaselineRunner.BaselineResult;
    }

    /**
     * @param result a result for which {@link #handles} is true
     * @param out    where to print
     */
    public static void print(StepResult result, PrintWriter out) {
        if (result instanceof CompareEndpointsRunner.CompareResult c) {
            printRanking(c.ranking(), out);
            if (!c.slos().isEmpty()) {
                out.println("SLO attainment: share of requests with " + String.join(" and ", c.slos()));
            }
        } else if (result instanceof MonitorRunner.MonitorResult m) {
            out.printf(Locale.ROOT, "monitored %s in %d session(s)%s%s; state in %s%n",
                    MonitorRunner.span(m.monitoredSeconds()), m.sessions().size(),
                    m.gaps().isEmpty() ? "" : ", gaps " + m.gaps().stream().map(g -> MonitorRunner.span(g.seconds())).toList(),
                    m.complete() ? "" : " (not complete: run it again with the same --out to resume)", m.stateFile());
            printRanking(m.ranking(), out);
        } else if (result instanceof BaselineRunner.BaselineResult b) {
            printBaseline(b, out);
        }
    }

    /** @param r a ranking @param out where to print */
    public static void printRanking(EndpointRanking.Ranking r, PrintWriter out) {
        out.printf(Locale.ROOT, "ranking by P95 %s (lower is better); [95 %% interval]%n", r.metric().toUpperCase(Locale.ROOT));
        out.printf(Locale.ROOT, "%-4s %-18s %6s %-28s %-28s %-28s %-8s %8s %7s%n", "rank", "endpoint", "n",
                "TTFT P50", "TTFT P95", "E2E P95", "tier", "SLO att.", "errors");
        for (EndpointRanking.Row row : r.rows()) {
            out.printf(Locale.ROOT, "%-4d %-18s %6d %-28s %-28s %-28s %-8s %8s %7s%n", row.rank(), row.endpoint(),
                    row.succeeded(), est(row.ttftP50()), est(row.ttftP95()), est(row.e2eP95()),
                    row.tier() == null ? "–" : row.tier(), Units.percent(row.sloAttainment()),
                    Units.percent(row.errorRate()));
        }
        for (EndpointRanking.NeighbourTest t : r.neighbours()) {
            BootstrapDifference.Interval d = t.difference();
            out.printf(Locale.ROOT, "  %s vs %s: P95 difference %s [%s, %s], Mann-Whitney p = %.3g → %s%n", t.better(),
                    t.worse(), signed(d.differenceMillis()), signed(d.lowerMillis()), signed(d.upperMillis()),
                    t.mannWhitneyP(), t.significant() ? "significantly different" : "NOT significantly different");
        }
        out.println("method: " + r.method());
    }

    private static void printBaseline(BaselineRunner.BaselineResult b, PrintWriter out) {
        out.printf(Locale.ROOT, "gateway overhead: %s − %s (paired rounds; [95 %% bootstrap interval])%n", b.gateway(),
                b.direct());
        out.printf(Locale.ROOT, "%-6s %-12s %-12s %-30s %-30s %-22s%n", "metric", "direct P50", "gateway P50",
                "Δ P50", "Δ P95", "paired Δ P50 / P95");
        for (BaselineRunner.Overhead o : b.overheads()) {
            out.printf(Locale.ROOT, "%-6s %-12s %-12s %-30s %-30s %-22s%n", o.metric().toUpperCase(Locale.ROOT),
                    Units.ms(o.directP50().valueMillis()), Units.ms(o.gatewayP50().valueMillis()), diff(o.p50Difference()),
                    diff(o.p95Difference()), signed(o.pairedP50Nanos() / 1e6) + " / " + signed(o.pairedP95Nanos() / 1e6));
        }
    }

    private static String est(PercentileEstimate p) {
        if (p == null) {
            return "–";
        }
        return Units.ms(p.valueMillis()) + " [" + Units.ms(p.lowerMillis()) + ", " + Units.ms(p.upperMillis()) + "]"
                + (p.enoughSamples() ? "" : "*");
    }

    private static String diff(BootstrapDifference.Interval d) {
        return signed(d.differenceMillis()) + " [" + signed(d.lowerMillis()) + ", " + signed(d.upperMillis()) + "]";
    }

    /** @param ms milliseconds, any sign @return e.g. {@code +4.12 ms} or {@code −0.31 ms} */
    static String signed(double ms) {
        if (!Double.isFinite(ms)) {
            return "–";
        }
        return (ms < 0 ? "−" : "+") + Units.ms(Math.abs(ms));
    }
}
