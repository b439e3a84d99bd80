package org.latencylab.app.report;

import javafx.scene.layout.Region;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.MetricNames;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.export.ChartExportException;
import org.latencylab.charts.export.ChartImages;
import org.latencylab.charts.results.ResultCharts;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.compare.RunComparison;
import org.latencylab.engine.lens.MetricDefinition;
import org.latencylab.engine.lens.MetricLens;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.stats.MetricSummary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A self-contained HTML report of one run or a comparison of several: summary, metric definitions (LatencyLab's
 * and, through the lens, vLLM bench's, GuideLLM's and AIPerf's), environment, trust check and notices, percentile
 * tables with intervals, rankings of multi-endpoint steps, a difference table against a baseline run, and charts
 * embedded as base64 PNG (the run's own chart files plus CDFs drawn for the report). One file, no external
 * resources, so it can be mailed or attached to a ticket. Tables are read from each run's {@code run.json}: the
 * report shows what the run concluded and recomputes nothing, except the lens, whose purpose is to recompute
 * under other tools' definitions.
 *
 * <p>A short inline script marks {@code <body data-images-ok="K/N">} once the page has loaded (K of N images
 * decoded), so a headless browser can check the page ({@code .ci/check-report}). Not thread-safe per call
 * (blocking: renders charts offscreen); call it off the JavaFX thread.
 */
public final class HtmlReport {
    /** Width of charts drawn for the report, pixels. */
    public static final int CHART_WIDTH_PX = 1100;
    /** Height of charts drawn for the report, pixels. */
    public static final int CHART_HEIGHT_PX = 620;

    private final Html html = new Html();

    private HtmlReport() {
    }

    /**
     * Writes the report.
     *
     * @param runDirs  run directories (LatencyLab runs or imported ones), at least one
     * @param baseline index of the baseline run for the difference table (0 = the first)
     * @param out      the HTML file to write (parent directories are created)
     * @return {@code out}
     * @throws IllegalArgumentException when a directory is not a run directory, the baseline is out of range, or
     *                                  {@code out} is a directory or lies below a file
     * @throws UncheckedIOException     when a file cannot be read or written
     * @throws IllegalStateException    when a chart cannot be rendered
     */
    public static Path write(List<Path> runDirs, int baseline, Path out) {
        checkTarget(out);
        List<RunDocument> runs = RunComparison.load(runDirs, StepCatalog.types());
        List<RunComparison.Row> diffs = RunComparison.differences(runs, baseline);
        List<List<RequestRecord>> records = new ArrayList<>();
        for (RunDocument r : runs) {
            records.add(r.requests());
        }
        HtmlReport h = new HtmlReport();
        h.document(runs, records, diffs, baseline);
        try {
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            Files.writeString(out, h.html.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * @param key   an {@code environment} field of {@code run.json}
     * @param value its value ({@link RunDocument.Environment#fields()})
     * @return the value as shown: {@code clock_origin_epoch_ms} as an ISO-8601 UTC time and the whole milliseconds,
     *         {@code http_path} with what it means ({@code direct-http1 (LatencyLab's own HTTP/1.1 exchange)}),
     *         anything else as its text
     */
    static String envValue(String key, Object value) {
        if (key.equals("clock_origin_epoch_ms") && value instanceof Number n) {
            long ms = (long) Math.floor(n.doubleValue());
            return java.time.Instant.ofEpochMilli(ms) + " (" + ms + " ms since 1970-01-01 UTC)";
        }
        if (key.equals("http_path") && value instanceof String id) {
            try {
                return id + " (" + org.latencylab.engine.api.HttpPath.fromId(id).description() + ")";
            } catch (IllegalArgumentException unknown) {
                return id; // a newer run's path: shown as written
            }
        }
        return String.valueOf(value);
    }

    /**
     * Checks that {@code out} can be created as a file before any work is done: creates its folder when missing and
     * a temporary file in it, which is deleted at once.
     *
     * @param out the report file
     * @throws IllegalArgumentException when {@code out} is a directory, a parent of it is a file, or its folder cannot
     *                                  be created or written (the message names that path and says why in words)
     */
    public static void checkTarget(Path out) {
        Path abs = out.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) {
            throw new IllegalArgumentException("cannot write report: " + out + " is a directory; give a file name,"
                    + " e.g. " + out.resolve(org.latencylab.engine.results.RunLayout.REPORT_HTML));
        }
        for (Path p = abs.getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new IllegalArgumentException("cannot write report: " + p + " is a file, not a folder");
                }
                break;
            }
        }
        // the folder is made and test-written as a run directory is: a report that cannot be written fails now, not
        // after its charts were drawn
        Path dir = abs.getParent();
        if (dir != null) {
            try {
                org.latencylab.engine.results.RunDirectory.prepareToResume(dir);
            } catch (org.latencylab.engine.results.RunDirectory.RunDirectoryException e) {
                throw new IllegalArgumentException("cannot write report " + out + ": " + e.getMessage(), e);
            }
        }
    }

    private void document(List<RunDocument> runs, List<List<RequestRecord>> records,
                          List<RunComparison.Row> diffs, int baseline) {
        String title = runs.size() == 1 ? "LatencyLab report — " + runs.get(0).name()
                : "LatencyLab comparison — " + runs.size() + " runs";
        a("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").t(title).a("</title>\n<style>")
                .a("body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:1200px;padding:0 1.5em;")
                .a("color:#1d2430;line-height:1.4}h1{font-size:1.6em}h2{border-bottom:1px solid #ccd;padding-bottom:.2em;")
                .a("margin-top:1.8em}table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.9em;display:block;max-width:100%;overflow-x:auto}")
                .a("th,td{border:1px solid #d5d9e0;padding:.25em .55em;text-align:right;vertical-align:top;white-space:nowrap}")
                .a("th{background:#eef1f6}td.l,th.l{text-align:left;white-space:normal}.pass{color:#17692b;font-weight:600}")
                .a(".fail{color:#a11;font-weight:600}.muted{color:#667}img{max-width:100%;border:1px solid #dde;margin:.4em 0}")
                .a("code{background:#f3f4f7;padding:0 .2em}</style></head>\n<body>\n<h1>").t(title).a("</h1>\n");
        a("<p class=\"muted\">Generated ").t(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString()).a(" by LatencyLab ").t(version())
                .a(". Times in milliseconds unless marked; [a, b] is the 95 % confidence interval of a percentile"
                        + " (order statistics; * = fewer than 10 samples above it).</p>\n");
        summary(runs);
        definitions();
        for (int i = 0; i < runs.size(); i++) {
            run(i, runs.get(i), records.get(i));
        }
        if (runs.size() > 1) {
            comparison(runs, records, diffs, baseline);
        }
        a("<script>window.addEventListener('load',function(){var im=document.images,k=0;for(var i=0;i<im.length;i++)")
                .a("{if(im[i].complete&&im[i].naturalWidth>0)k++;}document.body.setAttribute('data-images-ok',k+'/'+im.length);});")
                .a("</script>\n</body></html>\n");
    }

    /**
     * The tier a run's summary row shows: a tier judges one step's requests, so a run of several steps (a probe and a
     * sweep, say) shows "per step" rather than a tier of all its requests pooled, and a sweep "per length".
     */
    private static String runTier(RunDocument run) {
        if (run.steps().size() > 1) {
            return "per step";
        }
        if (run.steps().size() == 1) {
            RunDocument.Step st = run.steps().get(0);
            if (st.tier() == null) {
                return "sweep".equals(st.type()) ? "per length" : "–";
            }
            return st.tier();
        }
        return run.summary() == null || run.summary().tier() == null ? "–" : run.summary().tier();
    }

    private void summary(List<RunDocument> runs) {
        a("<h2>Summary</h2>\n<table><tr><th>#</th><th class=\"l\">run</th><th class=\"l\">source</th>"
                + "<th class=\"l\">endpoint</th><th class=\"l\">status</th><th class=\"l\">started</th><th>sent</th>"
                + "<th>succeeded</th><th>failed</th><th>TTFT P95</th><th>E2E P95</th><th class=\"l\">tier</th>"
                + "<th class=\"l\">SLOs</th></tr>\n");
        for (int i = 0; i < runs.size(); i++) {
            RunDocument r = runs.get(i);
            RunDocument.Summary s = r.summary();
            a("<tr><td>").a(Integer.toString(i + 1)).a("</td><td class=\"l\">").t(r.name()).a("</td><td class=\"l\">")
                    .t(r.sourceTool()).a("</td><td class=\"l\">").t(orDash(r.endpoint()))
                    .a("</td><td class=\"l\">").t(orDash(r.status())).a("</td><td class=\"l\">")
                    .t(orDash(r.startedAt()).replaceFirst("\\.\\d+Z$", "Z")).a("</td><td>")
                    .t(s == null ? "–" : Long.toString(s.sent())).a("</td><td>")
                    .t(s == null ? "–" : Long.toString(s.succeeded())).a("</td><td>")
                    .t(s == null ? "–" : Long.toString(s.failed())).a("</td><td>")
                    .t(Units.ms(RunComparison.percentileMs(r, "ttft", 95))).a("</td><td>")
                    .t(Units.ms(RunComparison.percentileMs(r, "e2e", 95)))
                    .a("</td><td class=\"l\">").t(runTier(r)).a("</td><td class=\"l\">");
            boolean anySlo = false;
            List<String> perStep = new ArrayList<>();
            for (RunDocument.Step st : r.steps()) {
                anySlo |= st.summary() != null && !st.summary().slos().isEmpty();
                // SLOs a step carries itself (a ranking's attainment column, a load step's goodput thresholds,
                // a server bench's load)
                if (st.ownSlos()) {
                    perStep.add(st.label() + " (" + st.type() + ")");
                }
            }
            if (!anySlo && !perStep.isEmpty()) {
                a("judged per step: ").t(String.join(", ", perStep));
            } else if (!anySlo) {
                a("none set");
            } else {
                boolean ok = Boolean.TRUE.equals(r.slosPassed());
                a("<span class=\"").a(ok ? "pass\">passed" : "fail\">FAILED").a("</span>");
            }
            a("</td></tr>\n");
        }
        a("</table>\n<p>TTFT and E2E P95 here pool the measured requests of all a run's steps; tiers and SLOs are"
                + " judged per step (per context length in a sweep): see each run's steps below.</p>\n");
        for (RunDocument r : runs) {
            if (!r.missingMetrics().isEmpty()) {
                a("<p>").t(r.name()).a(" was imported from <b>").t(r.sourceTool()).a("</b>")
                        .t(" (" + r.imported().sourceFile() + "); it lacks: ")
                        .t(String.join(", ", r.missingMetrics())).a(".</p>\n<ul>");
                for (String n : r.imported().notes()) {
                    a("<li>").t(n).a("</li>");
                }
                a("</ul>\n");
            }
        }
    }

    private void definitions() {
        a("<h2>Definitions</h2>\n<table><tr><th class=\"l\">term</th><th class=\"l\">LatencyLab's definition</th></tr>\n");
        // metrics by id: the term is the name every output uses (MetricNames) with the id of run.json and scenarios
        String[][] metricDefs = {
                {"ttft", "time to first token: send → the first event carrying generated text of any kind (answer,"
                        + " reasoning, tool-call arguments); role-only events, empty strings, comments, pings and"
                        + " usage-only events do not count"},
                {"time_to_first_content", "send → the first answer (non-reasoning) text"},
                {"ttfb", "send → response headers"},
                {"e2e", "send → end of the stream (end marker or close)"},
                {"tpot", "(E2E − TTFT) / (output tokens − 1)"},
                {"itl", "each gap between consecutive token-bearing events"},
                {"itl_per_token", "each ITL divided by the tokens its event carried"},
                {"ttft_from_intended", "TTFT counted from the request's intended start in the schedule instead of"
                        + " its actual send, so a client that fell behind (coordinated omission) cannot hide its delay"},
                {"e2e_from_intended", "E2E counted from the request's intended start in the schedule"},
                {"dispatch_lag", "actual send − intended start: how far the client fell behind its own schedule"}};
        for (String[] d : metricDefs) {
            a("<tr><td class=\"l\"><b>").t(MetricNames.name(d[0])).a("</b> (<code>").t(d[0]).a("</code>)</td>"
                    + "<td class=\"l\">").t(d[1]).a("</td></tr>\n");
        }
        String[][] defs = {
                {"tier", "judged on P95 of the tier metric: Tier-0 ≤ 80 ms, Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s,"
                        + " Tier-3 ≤ 4.5 s, Tier-4 above (default table)"},
                {"SLO", "at least P % of requests have METRIC ≤ X ms; failed requests count as misses"},
                {"percentile", "nearest rank over successful requests, with a distribution-free 95 % interval"}};
        for (String[] d : defs) {
            a("<tr><td class=\"l\"><b>").t(d[0]).a("</b></td><td class=\"l\">").t(d[1]).a("</td></tr>\n");
        }
        a("</table>\n<p>Other tools define the same names differently (the lens tables below recompute them):</p>\n"
                + "<table><tr><th class=\"l\">tool</th><th class=\"l\">TTFT stops at</th><th class=\"l\">ITL</th>"
                + "<th class=\"l\">TPOT</th><th class=\"l\">source</th></tr>\n");
        for (MetricDefinition d : MetricDefinition.values()) {
            a("<tr><td class=\"l\">").t(d.displayName()).a("</td><td class=\"l\">").t(d.ttftRule())
                    .a("</td><td class=\"l\">").t(d.itlRule()).a("</td><td class=\"l\">").t(d.tpotRule())
                    .a("</td><td class=\"l\"><code>").t(d.source()).a("</code></td></tr>\n");
        }
        a("</table>\n");
    }

    private void run(int index, RunDocument r, List<RequestRecord> records) {
        a("<h2>Run ").a(Integer.toString(index + 1)).a(": ").t(r.name()).a("</h2>\n");
        if (r.environment() != null) {
            a("<p><b>Environment:</b> ");
            List<String> parts = new ArrayList<>();
            r.environment().fields().forEach((k, v) -> parts.add(k + " " + envValue(k, v)));
            t(String.join(" · ", parts)).a("</p>\n");
        }
        a("<p><b>Trust check:</b> ");
        if (r.trust() != null) {
            RunDocument.Trust tr = r.trust();
            t(tr.message() + String.format(java.util.Locale.ROOT, " (hiccup P50 %s / P99 %s / max %s ms; dispatch lag"
                            + " P99 %s ms; CPU %s ms per request; rule: %s)", num(tr.hiccupP50Ms()),
                    num(tr.hiccupP99Ms()), num(tr.hiccupMaxMs()), num(tr.dispatchLagP99Ms()),
                    num(tr.cpuPerRequestMs()), tr.rule() == null ? "–" : tr.rule()));
        } else {
            t(r.sourceTool().equals(RunDocument.LATENCYLAB)
                    ? "this run carries no trust check of the client (it predates the hiccup meter); see the dispatch"
                    + " lag below for open-loop steps"
                    : "not available: the numbers were measured by " + r.sourceTool());
        }
        a("</p>\n");
        List<String> notices = new ArrayList<>(r.notices());
        if (r.summary() != null) {
            notices.addAll(r.summary().warnings());
        }
        if (!notices.isEmpty()) {
            a("<details><summary>").t(notices.size() + (notices.size() == 1 ? " notice or warning" : " notices and warnings")).a("</summary><ul>");
            notices.stream().limit(40).forEach(n -> a("<li>").t(n).a("</li>"));
            a("</ul></details>\n");
        }
        long judgedSteps = r.steps().stream().filter(st -> st.trust() != null).count();
        for (RunDocument.Step st : r.steps()) {
            step(r, st, judgedSteps);
        }
        if (!records.isEmpty()) {
            lens(records);
        }
        List<Path> pngs = r.images();
        if (pngs.isEmpty() && records.stream().anyMatch(RequestRecord::succeeded)) {
            chart("TTFT distribution — " + r.name(),
                    () -> org.latencylab.charts.results.EndpointCharts.cdfs("TTFT distribution — " + r.name(),
                            java.util.Map.of(r.name(), records), false, ChartTheme.LIGHT));
        }
        for (Path p : pngs) {
            try {
                image(p.getFileName().toString(), Files.readAllBytes(p));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + p + ": " + e.getMessage(), e);
            }
        }
    }

    private void step(RunDocument r, RunDocument.Step st, long judgedSteps) {
        a("<h3>Step ").t(st.label()).a(" (").t(st.type()).a(")</h3>\n");
        if (judgedSteps > 1 && st.trust() != null) { // with one step its check is the run's, above
            a("<p><b>Trust check, this step:</b> ").t(st.trust().message()).a("</p>\n");
        }
        org.latencylab.engine.compare.EndpointRanking.Ranking ranking = null;
        if (st.result() instanceof org.latencylab.engine.monitor.MonitorRunner.MonitorResult m) {
            if (m.sessions() != null) {
                HtmlSteps.monitor(html, m);
            }
            ranking = m.ranking();
        }
        if (st.result() instanceof LoadResult l) {
            HtmlSteps.load(html, l, st.spec());
        }
        if (st.result() instanceof org.latencylab.engine.compare.CompareEndpointsRunner.CompareResult c) {
            ranking = c.ranking();
        }
        if (ranking != null) {
            HtmlSteps.ranking(html, ranking);
        }
        boolean baseline = st.result() instanceof org.latencylab.engine.compare.BaselineRunner.BaselineResult b
                && b.overheads() != null;
        if (baseline) {
            HtmlSteps.baseline(html, (org.latencylab.engine.compare.BaselineRunner.BaselineResult) st.result());
        }
        SweepRunner.SweepResult sweep = st.result() instanceof SweepRunner.SweepResult sw && sw.points() != null
                && sw.fitMessage() != null ? sw : null;
        if (sweep != null) { // per length first: TTFT of all lengths pooled says nothing about any of them
            HtmlSteps.sweep(html, sweep);
            a("<p>Tier: ").t(TierStatement.of(st)).a("</p>\n");
        }
        if (st.summary() != null && ranking == null && !baseline) {
            if (sweep != null) {
                a("<p>All context lengths pooled, for the metrics that do not grow with the prompt (TPOT, ITL);"
                        + " TTFT per length is above.</p>\n");
                percentiles(st.summary(), null, true, false);
            } else {
                // a step's tier is qualified by its own trust check, else by the run's (as on the console)
                RunDocument.Trust check = st.trust() != null ? st.trust() : r.trust();
                percentiles(st.summary(), TierStatement.of(st), false, check != null && check.saturated());
            }
        }
    }

    private static boolean growsWithPrompt(String metricId) {
        try {
            return org.latencylab.engine.stats.Metric.fromId(metricId).growsWithPrompt();
        } catch (IllegalArgumentException e) {
            return false; // a summary field that is no metric of ours is shown as it is
        }
    }

    /**
     * @param tier            the step's tier statement ({@link TierStatement}), or null to show none
     * @param lengthsPooled   a sweep's table of all lengths: leave out the metrics that grow with the prompt
     * @param clientSaturated the trust check found the client saturated: the tier is as measured, not a verdict
     */
    private void percentiles(RunDocument.Summary summary, String tier, boolean lengthsPooled, boolean clientSaturated) {
        a("<table><tr><th class=\"l\">metric</th><th>n</th><th>P50</th><th>P90</th><th>P95</th><th>P99</th>"
                + "<th>max</th></tr>\n");
        summary.metrics().forEach((id, m) -> {
            if (m.count() == 0 || lengthsPooled && growsWithPrompt(id)) {
                return;
            }
            a("<tr><td class=\"l\" title=\"").t(id).a("\">").t(MetricNames.name(id)).a("</td><td>")
                    .t(Long.toString(m.count())).a("</td>");
            for (double p : new double[]{50, 90, 95, 99}) {
                a("<td>").t(pct(m, p)).a("</td>");
            }
            a("<td>").t(Units.ms(m.maxMs())).a("</td></tr>\n");
        });
        a("</table>\n");
        // the console's line and note (ConsoleReport), from the same figures as run.json keeps them
        long cancelled = summary.cancelled();
        a("<p>").t(ConsoleReport.requestsLine(summary.sent(), summary.succeeded(), summary.failed(), cancelled,
                summary.requestsPerS(), summary.outputTokensPerS(), summary.wallSpanS())).a("</p>\n");
        if (cancelled > 0 && summary.succeeded() > 0) {
            a("<p>Note: ").t(ConsoleReport.cancelledNote(cancelled)).a(".</p>\n");
        }
        String resent = ConsoleReport.resentLine(summary.resent(), summary.sent(), zeroIfNaN(summary.resendWastedMs()));
        if (resent != null) {
            a("<p>").t(resent).a("</p>\n");
        }
        String connects = ConsoleReport.connectsLine(summary.connected(), summary.sent(),
                zeroIfNaN(summary.connectMsMean()));
        if (connects != null) {
            a("<p>").t(connects).a("</p>\n");
        }
        if (tier != null && summary.tier() != null) { // the console's and the window's statement (TierStatement)
            a("<p>Tier: ").t(tier + (clientSaturated ? " " + TierStatement.SATURATED : "")).a("</p>\n");
        }
        for (RunDocument.SloVerdict slo : summary.slos()) {
            a("<p>SLO P").t(num(slo.percentile())).a(" ").t(MetricNames.name(orEmpty(slo.metric()))).a(" ≤ ")
                    .t(Units.threshold(slo.maxMs())).a(": ")
                    .t(slo.judged() == 0 ? ConsoleReport.NO_REQUEST_TO_JUDGE
                            : "compliance " + Units.percent(slo.compliance()))
                    .a(" <span class=\"").a(slo.passed() ? "pass\">passed" : "fail\">failed").a("</span></p>\n");
        }
    }

    private static double zeroIfNaN(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String orDash(String s) {
        return s == null ? "–" : s;
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String pct(RunDocument.MetricStats metric, double p) {
        return metric.percentile(p).map(e -> Units.ms(e.valueMs()) + " [" + Units.ms(e.lowerMs()) + ", "
                + Units.ms(e.upperMs()) + "]" + (e.enoughSamples() ? "" : "*")).orElse("–");
    }

    private void lens(List<RequestRecord> records) {
        Map<MetricDefinition, MetricLens.View> views = MetricLens.apply(records);
        if (views.get(MetricDefinition.LATENCYLAB).ttft().count() == 0) {
            return;
        }
        boolean lengths = records.stream().mapToInt(RequestRecord::contextTokens).filter(n -> n > 0).distinct()
                .count() > 1;
        a("<p><b>Metric-definition lens</b>: the same requests under each tool's definitions (P50 / P95")
                .t(lengths ? "; every step and context length pooled: compare the rows with each other, not with"
                        + " one length's figures" : "").a("). ")
                .t(MetricLens.requestsWithEarlyChunk(records) + " request(s) had a role-only first chunk before"
                        + " their first token.").a("</p>\n<table><tr><th class=\"l\">definitions of</th><th>TTFT</th>"
                        + "<th>ITL</th><th>TPOT</th><th>E2E</th></tr>\n");
        for (MetricLens.View v : views.values()) {
            a("<tr><td class=\"l\">").t(v.definition().displayName()).a("</td><td>").t(p5095(v.ttft())).a("</td><td>")
                    .t(p5095(v.itl())).a("</td><td>").t(p5095(v.tpot())).a("</td><td>").t(p5095(v.e2e()))
                    .a("</td></tr>\n");
        }
        a("</table>\n");
    }

    private static String p5095(MetricSummary s) {
        return s.count() == 0 ? "–" : Units.ms(s.pMillis(50)) + " / " + Units.ms(s.pMillis(95));
    }

    private void comparison(List<RunDocument> runs, List<List<RequestRecord>> records,
                            List<RunComparison.Row> diffs, int baseline) {
        a("<h2>Comparison</h2>\n<p>Difference of each run against the baseline, run ").a(Integer.toString(baseline + 1))
                .a(" (").t(runs.get(baseline).name()).a("): value, Δ ms and Δ %. Each tool's numbers follow its own"
                        + " definitions (see the lens).</p>\n<table><tr><th class=\"l\">metric</th>");
        List<String> labels = RunComparison.labels(runs, false); // same-named runs told apart by start time
        for (int i = 0; i < runs.size(); i++) {
            a("<th>").t((i + 1) + ". " + labels.get(i) + (i == baseline ? " (baseline)" : "")).a("</th>");
        }
        a("</tr>\n");
        for (RunComparison.Row row : diffs) {
            if (row.valuesMs().stream().allMatch(v -> Double.isNaN(v))) {
                continue;
            }
            a("<tr><td class=\"l\">").t("P" + (int) row.percentile() + " " + row.metric().toUpperCase(Locale.ROOT))
                    .a("</td>");
            for (int i = 0; i < runs.size(); i++) {
                double v = row.valuesMs().get(i);
                a("<td>").t(Units.ms(v) + (row.thin().get(i) ? "*" : ""));
                if (i != baseline && !Double.isNaN(row.deltaMs().get(i))) {
                    a("<br><span class=\"muted\">").t(EndpointsReport.signed(row.deltaMs().get(i))
                            + String.format(Locale.ROOT, " (%+.1f %%)", row.deltaPct().get(i))).a("</span>");
                }
                a("</td>");
            }
            a("</tr>\n");
        }
        a("</table>\n");
        if (diffs.stream().anyMatch(row -> row.thin().contains(true))) {
            a("<p>* fewer than 10 samples above this percentile in that run: an estimate near its maximum, so a"
                    + " difference against it says little.</p>\n");
        }
        for (boolean e2e : new boolean[]{false, true}) {
            String name = e2e ? "E2E" : "TTFT";
            List<SampleSet> sets = new ArrayList<>();
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            for (int i = 0; i < runs.size(); i++) {
                // measured requests only, as every summary: a load step's warm-up and cool-down stay out
                SampleSet s = org.latencylab.charts.results.EndpointCharts.samples((i + 1) + ". "
                        + labels.get(i), records.get(i).stream().filter(RequestRecord::measured).toList(),
                        e2e ? RequestRecord::e2eNanos : RequestRecord::ttftNanos);
                if (s.size() > 0) {
                    sets.add(s);
                    for (double v : s.values()) {
                        lo = Math.min(lo, v);
                        hi = Math.max(hi, v);
                    }
                }
            }
            if (sets.isEmpty()) {
                continue;
            }
            boolean logX = lo > 0 && hi / lo > 10;
            String title = name + " distribution of every run";
            chart(title, () -> {
                CdfChart c = new CdfChart(title, Quantity.of(name, "ms"), CdfChart.YScale.PERCENTILE, logX,
                        ChartTheme.LIGHT);
                c.update(sets);
                return c.chart();
            });
        }
    }

    private void chart(String alt, Supplier<? extends Region> factory) {
        try {
            Path tmp = Files.createTempFile("latencylab-report", ".png");
            try {
                ChartImages.writePng(factory, CHART_WIDTH_PX, CHART_HEIGHT_PX, 1.0, tmp);
                image(alt, Files.readAllBytes(tmp));
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (ChartExportException e) {
            throw new IllegalStateException("chart '" + alt + "' could not be rendered: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a temporary chart file: " + e.getMessage(), e);
        }
    }

    private void image(String alt, byte[] png) {
        a("<figure><img alt=\"").t(alt).a("\" src=\"data:image/png;base64,").a(Base64.getEncoder().encodeToString(png))
                .a("\"><figcaption class=\"muted\">").t(alt).a("</figcaption></figure>\n");
    }

    private static String version() {
        String v = HtmlReport.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    private HtmlReport a(String raw) {
        html.a(raw);
        return this;
    }

    /** Appends text with the five HTML-special characters escaped (all a text node or attribute needs). */
    private HtmlReport t(String text) {
        html.t(text);
        return this;
    }

    /** @return a trust figure with two decimals, or "–" when it was not measured */
    private static String num(Double v) {
        return v == null || Double.isNaN(v) ? "–" : String.format(java.util.Locale.ROOT, "%.2f", v);
    }
}
