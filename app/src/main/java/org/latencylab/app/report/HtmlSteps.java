package org.latencylab.app.report;

import org.latencylab.engine.compare.BaselineRunner;
import org.latencylab.engine.compare.BootstrapDifference;
import org.latencylab.engine.compare.EndpointRanking;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.fit.PowerLawFit;
import org.latencylab.engine.load.LoadMode;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadTotals;
import org.latencylab.engine.monitor.MonitorRunner;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.stats.PercentileEstimate;

import java.util.List;
import java.util.Locale;

/**
 * The HTML report's sections of the step types that carry a result of their own, drawn from the typed step results
 * of {@code run.json} ({@link org.latencylab.engine.results.RunDocument.Step#result()}): a monitor's sessions, a
 * load step's line, a ranking, a gateway baseline, a context sweep with its fits. Stateless.
 */
final class HtmlSteps {
    private HtmlSteps() {
    }

    /** A monitor step: how long it monitored, in how many sessions, the gaps between them. */
    static void monitor(Html h, MonitorRunner.MonitorResult m) {
        List<String> gaps = m.gaps() == null ? List.of()
                : m.gaps().stream().map(g -> MonitorRunner.span(g.seconds())).toList();
        int sessions = m.sessions() == null ? 0 : m.sessions().size();
        h.a("<p>Monitored ").t(MonitorRunner.span(m.monitoredSeconds()))
                .t(" in " + sessions + " session(s)" + (gaps.isEmpty() ? "" : "; gaps between sessions: "
                        + String.join(", ", gaps)) + (m.complete()
                        ? "." : "; not complete (run it again into the same directory to resume)."))
                .a("</p>\n");
    }

    /**
     * The console's load line for a load step ({@link ConsoleReport#loadLine}, the same text): what it held to (open
     * loop: target rate; closed loop: streams and think time), the achieved rate and goodput in the measured window,
     * dropped and excluded requests and why it stopped.
     *
     * @param totals the step's totals
     * @param spec   the step's spec (a closed loop's concurrency and think time), or null
     * @return one line of text, rates in req/s
     */
    static String loadLine(LoadTotals totals, ExperimentSpec spec) {
        LoadSpec l = spec instanceof LoadSpec ls ? ls : null;
        boolean open = totals.mode() == LoadMode.OPEN;
        return ConsoleReport.loadLine(ConsoleReport.loadShape(open, totals.targetRateRps(),
                        l == null || l.concurrency() == null ? 0 : l.concurrency(), l == null ? null : l.thinkTime()),
                open, totals.achievedRateRps(), totals.goodputRps(), totals.goodput(), totals.measuredSeconds(),
                totals.dropped(), totals.excluded(), totals.stopReason() == null ? "" : totals.stopReason());
    }

    /** A load step's line, when its result has totals. */
    static void load(Html h, LoadResult r, ExperimentSpec spec) {
        if (r.totals() != null) {
            h.a("<p>").t(loadLine(r.totals(), spec)).a("</p>\n");
        }
    }

    /** A ranking of endpoints: the table, the neighbour tests and the method. */
    static void ranking(Html h, EndpointRanking.Ranking ranking) {
        String metric = (ranking.metric() == null ? "ttft" : ranking.metric()).toUpperCase(Locale.ROOT);
        h.a("<p>Ranking by P95 ").t(metric).a(" (lower is better).</p>\n<table><tr><th>rank</th><th class=\"l\">endpoint"
                + "</th><th>n</th><th>TTFT P50</th><th>TTFT P95</th><th>TTFT P99</th><th>E2E P50</th><th>E2E P95</th>"
                + "<th>E2E P99</th><th class=\"l\">tier</th><th>SLO attainment</th><th>error rate</th></tr>\n");
        for (EndpointRanking.Row row : ranking.rows()) {
            h.a("<tr><td>").t(Integer.toString(row.rank())).a("</td><td class=\"l\" title=\"")
                    .t(row.description() == null ? "" : row.description()).a("\">").t(text(row.endpoint()))
                    .a("</td><td>").t(Long.toString(row.succeeded())).a("</td>");
            for (PercentileEstimate p : List.of(row.ttftP50(), row.ttftP95(), row.ttftP99(), row.e2eP50(),
                    row.e2eP95(), row.e2eP99())) {
                h.a("<td>").t(estimate(p)).a("</td>");
            }
            h.a("<td class=\"l\">").t(row.tier() == null ? "–" : row.tier()).a("</td><td>")
                    .t(Units.percent(row.sloAttainment())).a("</td><td>")
                    .t(Units.percent(row.errorRate())).a("</td></tr>\n");
        }
        h.a("</table>\n<ul>");
        for (EndpointRanking.NeighbourTest n : ranking.neighbours()) {
            BootstrapDifference.Interval d = n.difference();
            h.a("<li>").t(n.better() + " vs " + n.worse() + ": P95 difference " + difference(d)
                    + ", Mann-Whitney p = " + String.format(Locale.ROOT, "%.3g", n.mannWhitneyP()) + " → ")
                    .a(n.significant() ? "<span class=\"pass\">significantly different</span>"
                            : "<span class=\"fail\">not significantly different</span>").a("</li>");
        }
        h.a("</ul>\n<p class=\"muted\">Method: ").t(text(ranking.method())).a("</p>\n");
    }

    /** A gateway baseline: the overhead per metric, unpaired and paired. */
    static void baseline(Html h, BaselineRunner.BaselineResult result) {
        h.a("<p>Gateway overhead: <b>").t(text(result.gateway())).a("</b> − <b>").t(text(result.direct()))
                .a("</b>, requests alternating; [95 % bootstrap interval].</p>\n<table><tr><th class=\"l\">metric</th>"
                        + "<th>direct P50</th><th>gateway P50</th><th>Δ P50</th><th>Δ P95</th><th>paired Δ P50</th>"
                        + "<th>paired Δ P95</th><th>pairs</th></tr>\n");
        for (BaselineRunner.Overhead o : result.overheads()) {
            h.a("<tr><td class=\"l\">").t(text(o.metric()).toUpperCase(Locale.ROOT)).a("</td><td>")
                    .t(estimate(o.directP50())).a("</td><td>").t(estimate(o.gatewayP50())).a("</td><td>")
                    .t(difference(o.p50Difference())).a("</td><td>").t(difference(o.p95Difference()))
                    .a("</td><td>").t(EndpointsReport.signed(o.pairedP50Nanos() / 1e6)).a("</td><td>")
                    .t(EndpointsReport.signed(o.pairedP95Nanos() / 1e6)).a("</td><td>")
                    .t(Integer.toString(o.pairs())).a("</td></tr>\n");
        }
        h.a("</table>\n");
    }

    /** A context-length sweep: TTFT per length with intervals, the power-law fits and their extrapolations. */
    static void sweep(Html h, SweepRunner.SweepResult result) {
        h.a("<table><tr><th class=\"l\">context</th><th>ok</th><th>P50 TTFT [95 % interval]</th>"
                + "<th>P95 TTFT [95 % interval]</th></tr>\n");
        for (SweepRunner.SweepPoint p : result.points()) {
            h.a("<tr><td class=\"l\">").t(p.contextTokens() + " tokens").a("</td><td>")
                    .t(p.succeeded() + "/" + p.requests()).a("</td><td>")
                    .t(interval(p.p50TtftMs(), p.p50LowerMs(), p.p50UpperMs()) + (p.p50Measured() ? "" : "*"))
                    .a("</td><td>")
                    .t(interval(p.p95TtftMs(), p.p95LowerMs(), p.p95UpperMs()) + (p.p95Measured() ? "" : "*"))
                    .a("</td></tr>\n");
        }
        h.a("</table>\n<p><b>Fit:</b> ").t(text(result.fitMessage())).a("</p>\n");
        if (result.fitP50() != null) {
            h.a("<p>").t(SweepRunner.caveat(result.fitP50().withOffset())).a(".</p>\n");
        }
        PowerLawFit f = result.fitP95();
        if (f != null) {
            boolean quantile = f.estimator() == PowerLawFit.Estimator.LOG_QUANTILE;
            String law = PowerLawFit.formula("TTFT", "ms", f.withOffset() ? f.c() : 0, f.a(), f.alpha());
            h.a("<p><b>Fit of P95:</b> ").t(String.format(Locale.ROOT, "P95 %s (α %s95 %% CI %.3f–%.3f), %s %.4f%s",
                    law, quantile ? "bootstrap " : "", f.alphaLower(), f.alphaUpper(),
                    quantile ? "pseudo-R¹" : "R²", f.rSquared(),
                    quantile ? "; quantile regression over every request (pseudo-R¹ = 1 − weighted absolute"
                            + " residuals of the fit ÷ those of a constant, Koenker–Machado 1999)" : "; per-length P95"))
                    .a("</p>\n");
        }
        List<SweepRunner.Extrapolation> extrapolations = result.extrapolations();
        if (extrapolations != null && !extrapolations.isEmpty()) {
            h.a("<p><b>Extrapolated</b> beyond the measured lengths (a model, not a measurement):</p><ul>");
            String centre = result.fitP50() != null && result.fitP50().withOffset() ? "mean" : "P50";
            for (SweepRunner.Extrapolation e : extrapolations) {
                h.a("<li>").t(String.format(Locale.ROOT, "%d tokens: %s TTFT %s (95 %% confidence band of the fitted"
                                + " curve %s–%s), P95 %s", e.contextTokens(), centre, Units.ms(e.p50TtftMs()),
                        Units.ms(e.p50LowerMs()), Units.ms(e.p50UpperMs()), Units.ms(e.p95TtftMs()))).a("</li>");
            }
            h.a("</ul>\n");
        }
    }

    private static String interval(double value, double lower, double upper) {
        return Units.ms(value) + " [" + Units.ms(lower) + ", " + Units.ms(upper) + "]";
    }

    private static String estimate(PercentileEstimate p) {
        if (p == null) {
            return "–";
        }
        return Units.ms(p.valueNanos() / 1e6) + " [" + Units.ms(p.lowerNanos() / 1e6) + ", "
                + Units.ms(p.upperNanos() / 1e6) + "]";
    }

    private static String difference(BootstrapDifference.Interval d) {
        long v = d == null ? 0 : d.differenceNanos();
        long lo = d == null ? 0 : d.lowerNanos();
        long up = d == null ? 0 : d.upperNanos();
        return EndpointsReport.signed(v / 1e6) + " [" + EndpointsReport.signed(lo / 1e6) + ", "
                + EndpointsReport.signed(up / 1e6) + "]";
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }
}
