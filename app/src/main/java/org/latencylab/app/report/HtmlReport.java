package org.latencylab.app.report;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.latencylab.engine.results.RequestLog;
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
import java.util.stream.Stream;

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

    private final StringBuilder html = new StringBuilder();

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
        List<RunComparison.RunInfo> runs = RunComparison.load(runDirs);
        List<RunComparison.Row> diffs = RunComparison.differences(runs, baseline);
        List<List<RequestRecord>> records = new ArrayList<>();
        for (RunComparison.RunInfo r : runs) {
            Path log = r.dir().resolve(RequestLog.FILE_NAME);
            records.add(Files.exists(log) ? RequestLog.read(log) : List.of());
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
     * @param value its value
     * @return the value as shown: {@code clock_origin_epoch_ms} (read back as a double, which would print as
     *         {@code 1.7E12}) as an ISO-8601 UTC time and the whole milliseconds, {@code http_path} with what it
     *         means ({@code direct-http1 (LatencyLab's own HTTP/1.1 exchange)}), anything else as its text
     */
    static String envValue(String key, JsonNode value) {
        if (key.equals("clock_origin_epoch_ms") && value.isNumber()) {
            long ms = (long) Math.floor(value.asDouble());
            return java.time.Instant.ofEpochMilli(ms) + " (" + ms + " ms since 1970-01-01 UTC)";
        }
        if (key.equals("http_path") && value.isTextual()) {
            try {
                return value.asText() + " (" + org.latencylab.engine.api.HttpPath.fromId(value.asText()).description()
                        + ")";
            } catch (IllegalArgumentException unknown) {
                return value.asText(); // a newer run's path: shown as written
            }
        }
        return value.asText();
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
                    + " e.g. " + out.resolve("report.html"));
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

    private void document(List<RunComparison.RunInfo> runs, List<List<RequestRecord>> records,
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
    private static String runTier(JsonNode runJson, JsonNode summary) {
        JsonNode steps = runJson.path("steps");
        if (steps.size() > 1) {
            return "per step";
        }
        if (steps.size() == 1) {
            JsonNode st = steps.get(0);
            if (!st.hasNonNull("tier")) {
                return "sweep".equals(st.path("type").asText()) ? "per length" : "–";
            }
            return st.path("tier").asText();
        }
        return summary.path("tier").asText("–");
    }

    private void summary(List<RunComparison.RunInfo> runs) {
        a("<h2>Summary</h2>\n<table><tr><th>#</th><th class=\"l\">run</th><th class=\"l\">source</th>"
                + "<th class=\"l\">endpoint</th><th class=\"l\">status</th><th class=\"l\">started</th><th>sent</th>"
                + "<th>succeeded</th><th>failed</th><th>TTFT P95</th><th>E2E P95</th><th class=\"l\">tier</th>"
                + "<th class=\"l\">SLOs</th></tr>\n");
        for (int i = 0; i < runs.size(); i++) {
            RunComparison.RunInfo r = runs.get(i);
            JsonNode j = r.runJson();
            JsonNode s = r.summary();
            a("<tr><td>").a(Integer.toString(i + 1)).a("</td><td class=\"l\">").t(r.name()).a("</td><td class=\"l\">")
                    .t(r.sourceTool()).a("</td><td class=\"l\">").t(j.path("endpoint").asText("–"))
                    .a("</td><td class=\"l\">").t(j.path("status").asText("–")).a("</td><td class=\"l\">")
                    .t(j.path("started_at").asText("–").replaceFirst("\\.\\d+Z$", "Z")).a("</td><td>").t(s.path("sent").asText("–")).a("</td><td>")
                    .t(s.path("succeeded").asText("–")).a("</td><td>").t(s.path("failed").asText("–")).a("</td><td>")
                    .t(Units.ms(r.percentileMs("ttft", 95))).a("</td><td>").t(Units.ms(r.percentileMs("e2e", 95)))
                    .a("</td><td class=\"l\">").t(runTier(j, s)).a("</td><td class=\"l\">");
            boolean anySlo = false;
            List<String> perStep = new ArrayList<>();
            for (JsonNode st : j.path("steps")) {
                anySlo |= st.path("summary").path("slos").size() > 0;
                // SLOs a step carries itself (a ranking's attainment column, a load step's goodput thresholds,
                // a server bench's load): the spec's own slos or its load's
                if (st.path("spec").path("slos").size() > 0 || st.path("spec").path("load").path("slos").size() > 0) {
                    perStep.add(st.path("label").asText("?") + " (" + st.path("type").asText("?") + ")");
                }
            }
            if (!anySlo && !perStep.isEmpty()) {
                a("judged per step: ").t(String.join(", ", perStep));
            } else if (!anySlo) {
                a("none set");
            } else {
                boolean ok = j.path("slos_passed").asBoolean(false);
                a("<span class=\"").a(ok ? "pass\">passed" : "fail\">FAILED").a("</span>");
            }
            a("</td></tr>\n");
        }
        a("</table>\n<p>TTFT and E2E P95 here pool the measured requests of all a run's steps; tiers and SLOs are"
                + " judged per step (per context length in a sweep): see each run's steps below.</p>\n");
        for (RunComparison.RunInfo r : runs) {
            if (!r.missingMetrics().isEmpty()) {
                a("<p>").t(r.name()).a(" was imported from <b>").t(r.sourceTool()).a("</b>")
                        .t(" (" + r.runJson().path("source_file").asText("") + "); it lacks: ")
                        .t(String.join(", ", r.missingMetrics())).a(".</p>\n<ul>");
                for (JsonNode n : r.runJson().path("notes")) {
                    a("<li>").t(n.asText()).a("</li>");
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

    private void run(int index, RunComparison.RunInfo r, List<RequestRecord> records) {
        JsonNode j = r.runJson();
        a("<h2>Run ").a(Integer.toString(index + 1)).a(": ").t(r.name()).a("</h2>\n");
        JsonNode env = j.path("environment");
        if (env.isObject()) {
            a("<p><b>Environment:</b> ");
            List<String> parts = new ArrayList<>();
            env.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + envValue(e.getKey(), e.getValue())));
            t(String.join(" · ", parts)).a("</p>\n");
        }
        a("<p><b>Trust check:</b> ");
        if (j.has("trust")) {
            JsonNode tr = j.get("trust");
            t(tr.path("message").asText("")
                    + String.format(java.util.Locale.ROOT, " (hiccup P50 %s / P99 %s / max %s ms; dispatch lag P99 %s ms;"
                            + " CPU %s ms per request; rule: %s)", num(tr, "hiccup_p50_ms"), num(tr, "hiccup_p99_ms"),
                            num(tr, "hiccup_max_ms"), num(tr, "dispatch_lag_p99_ms"), num(tr, "cpu_per_request_ms"),
                            tr.path("rule").asText("–")));
        } else {
            t(r.sourceTool().equals("latencylab")
                    ? "this run carries no trust check of the client (it predates the hiccup meter); see the dispatch"
                    + " lag below for open-loop steps"
                    : "not available: the numbers were measured by " + r.sourceTool());
        }
        a("</p>\n");
        List<String> notices = new ArrayList<>();
        j.path("notices").forEach(n -> notices.add(n.asText()));
        j.path("summary").path("warnings").forEach(n -> notices.add(n.asText()));
        if (!notices.isEmpty()) {
            a("<details><summary>").t(notices.size() + (notices.size() == 1 ? " notice or warning" : " notices and warnings")).a("</summary><ul>");
            notices.stream().limit(40).forEach(n -> a("<li>").t(n).a("</li>"));
            a("</ul></details>\n");
        }
        int judgedSteps = 0;
        for (JsonNode st : j.path("steps")) {
            judgedSteps += st.path("trust").isObject() ? 1 : 0;
        }
        for (JsonNode st : j.path("steps")) {
            a("<h3>Step ").t(st.path("label").asText()).a(" (").t(st.path("type").asText()).a(")</h3>\n");
            if (judgedSteps > 1 && st.path("trust").isObject()) { // with one step its check is the run's, above
                a("<p><b>Trust check, this step:</b> ").t(st.path("trust").path("message").asText()).a("</p>\n");
            }
            JsonNode ranking = st.path("result").path("ranking");
            JsonNode sessions = st.path("result").path("sessions");
            if (sessions.isArray()) {
                List<String> gaps = new ArrayList<>();
                st.path("result").path("gaps").forEach(g -> gaps.add(
                        org.latencylab.engine.monitor.MonitorRunner.span(g.path("seconds").asDouble())));
                a("<p>Monitored ").t(org.latencylab.engine.monitor.MonitorRunner.span(
                                st.path("result").path("monitoredSeconds").asDouble()))
                        .t(" in " + sessions.size() + " session(s)" + (gaps.isEmpty() ? "" : "; gaps between sessions: "
                                + String.join(", ", gaps)) + (st.path("result").path("complete").asBoolean()
                                ? "." : "; not complete (run it again into the same directory to resume)."))
                        .a("</p>\n");
            }
            JsonNode totals = st.path("result").path("totals");
            if (totals.isObject() && totals.has("achievedRateRps")) {
                a("<p>").t(loadLine(totals, st.path("spec"))).a("</p>\n");
            }
            if (ranking.isObject()) {
                ranking(ranking);
            }
            JsonNode overheads = st.path("result").path("overheads");
            if (overheads.isArray()) {
                baseline(st.path("result"));
            }
            boolean isSweep = st.path("result").path("points").isArray() && st.path("result").has("fitMessage");
            if (isSweep) { // per length first: TTFT of all lengths pooled says nothing about any of them
                sweep(st.path("result"));
            }
            if (st.has("summary") && !ranking.isObject() && !overheads.isArray()) {
                if (isSweep) {
                    a("<p>All context lengths pooled, for the metrics that do not grow with the prompt (TPOT, ITL);"
                            + " TTFT per length is above.</p>\n");
                    percentiles(st.get("summary"), true, false);
                } else {
                    // a step's tier is qualified by its own trust check, else by the run's (as on the console)
                    JsonNode check = st.path("trust").isObject() ? st.path("trust") : j.path("trust");
                    percentiles(st.get("summary"), false, check.path("saturated").asBoolean(false));
                }
            }
        }
        if (!records.isEmpty()) {
            lens(records);
        }
        List<Path> pngs;
        try (Stream<Path> s = Files.list(r.dir())) {
            pngs = s.filter(p -> p.getFileName().toString().endsWith(".png")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + r.dir() + ": " + e.getMessage(), e);
        }
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

    private static boolean growsWithPrompt(String metricId) {
        try {
            return org.latencylab.engine.stats.Metric.fromId(metricId).growsWithPrompt();
        } catch (IllegalArgumentException e) {
            return false; // a summary field that is no metric of ours is shown as it is
        }
    }

    /**
     * @param lengthsPooled   a sweep's table of all lengths: leave out the metrics that grow with the prompt
     * @param clientSaturated the trust check found the client saturated: the tier is as measured, not a verdict
     */
    private void percentiles(JsonNode summary, boolean lengthsPooled, boolean clientSaturated) {
        a("<table><tr><th class=\"l\">metric</th><th>n</th><th>P50</th><th>P90</th><th>P95</th><th>P99</th>"
                + "<th>max</th></tr>\n");
        summary.path("metrics").fields().forEachRemaining(e -> {
            JsonNode m = e.getValue();
            if (m.path("count").asLong() == 0 || lengthsPooled && growsWithPrompt(e.getKey())) {
                return;
            }
            a("<tr><td class=\"l\" title=\"").t(e.getKey()).a("\">").t(MetricNames.name(e.getKey())).a("</td><td>")
                    .t(m.path("count").asText()).a("</td>");
            for (double p : new double[]{50, 90, 95, 99}) {
                a("<td>").t(pct(m, p)).a("</td>");
            }
            a("<td>").t(Units.ms(m.path("max_ms").asDouble(Double.NaN))).a("</td></tr>\n");
        });
        a("</table>\n");
        // the console's line and note (ConsoleReport), from the same figures as run.json keeps them
        long cancelled = summary.path("cancelled").asLong();
        a("<p>").t(ConsoleReport.requestsLine(summary.path("sent").asLong(), summary.path("succeeded").asLong(),
                summary.path("failed").asLong(), cancelled, summary.path("requests_per_s").asDouble(),
                summary.path("output_tokens_per_s").asDouble(), summary.path("wall_span_s").asDouble(Double.NaN)))
                .a("</p>\n");
        if (cancelled > 0 && summary.path("succeeded").asLong() > 0) {
            a("<p>Note: ").t(ConsoleReport.cancelledNote(cancelled)).a(".</p>\n");
        }
        String resent = ConsoleReport.resentLine(summary.path("resent").asLong(), summary.path("sent").asLong(),
                summary.path("resend_wasted_ms").asDouble());
        if (resent != null) {
            a("<p>").t(resent).a("</p>\n");
        }
        String connects = ConsoleReport.connectsLine(summary.path("connected").asLong(), summary.path("sent").asLong(),
                summary.path("connect_ms_mean").asDouble());
        if (connects != null) {
            a("<p>").t(connects).a("</p>\n");
        }
        if (summary.hasNonNull("tier")) {
            StringBuilder line = new StringBuilder();
            line.append(summary.path("tier").asText()).append(" on P95 ")
                    .append(MetricNames.name(summary.path("tier_metric").asText()));
            if (clientSaturated) {
                line.append(" as measured, not a verdict on the server: the client was saturated (see its trust"
                        + " check)");
            }
            a("<p>").t(line.toString()).a("</p>\n");
        }
        for (JsonNode slo : summary.path("slos")) {
            boolean ok = slo.path("passed").asBoolean();
            a("<p>SLO P").t(num(slo.path("percentile").asDouble())).a(" ").t(MetricNames.name(slo.path("metric").asText())).a(" ≤ ")
                    .t(Units.threshold(slo.path("max_ms").asDouble(Double.NaN))).a(": ")
                    .t(slo.path("judged").asLong(-1) == 0 ? ConsoleReport.NO_REQUEST_TO_JUDGE
                            : "compliance " + Units.percent(slo.path("compliance").asDouble(Double.NaN)))
                    .a(" <span class=\"").a(ok ? "pass\">passed" : "fail\">failed").a("</span></p>\n");
        }
    }

    /** A context-length sweep: TTFT per length with intervals, the power-law fits and their extrapolations. */
    private void sweep(JsonNode result) {
        a("<table><tr><th class=\"l\">context</th><th>ok</th><th>P50 TTFT [95 % interval]</th>"
                + "<th>P95 TTFT [95 % interval]</th></tr>\n");
        for (JsonNode p : result.path("points")) {
            a("<tr><td class=\"l\">").t(p.path("contextTokens").asText() + " tokens").a("</td><td>")
                    .t(p.path("succeeded").asText() + "/" + p.path("requests").asText()).a("</td><td>")
                    .t(interval(p, "p50") + (p.path("p50Measured").asBoolean(true) ? "" : "*")).a("</td><td>")
                    .t(interval(p, "p95") + (p.path("p95Measured").asBoolean(true) ? "" : "*")).a("</td></tr>\n");
        }
        a("</table>\n<p><b>Fit:</b> ").t(result.path("fitMessage").asText()).a("</p>\n");
        if (result.path("fitP50").isObject()) {
            a("<p>").t(org.latencylab.engine.experiment.SweepRunner.caveat(result.path("fitP50")
                    .path("withOffset").asBoolean())).a(".</p>\n");
        }
        JsonNode f = result.path("fitP95");
        if (f.isObject()) {
            boolean quantile = "LOG_QUANTILE".equals(f.path("estimator").asText());
            String law = org.latencylab.engine.fit.PowerLawFit.formula("TTFT", "ms",
                    f.path("withOffset").asBoolean() ? f.path("c").asDouble() : 0, f.path("a").asDouble(),
                    f.path("alpha").asDouble());
            a("<p><b>Fit of P95:</b> ").t(String.format(Locale.ROOT, "P95 %s (α %s95 %% CI %.3f–%.3f), %s %.4f%s",
                    law, quantile ? "bootstrap " : "", f.path("alphaLower").asDouble(),
                    f.path("alphaUpper").asDouble(), quantile ? "pseudo-R¹" : "R²", f.path("rSquared").asDouble(),
                    quantile ? "; quantile regression over every request (pseudo-R¹ = 1 − weighted absolute"
                            + " residuals of the fit ÷ those of a constant, Koenker–Machado 1999)" : "; per-length P95"))
                    .a("</p>\n");
        }
        JsonNode extrapolations = result.path("extrapolations");
        if (extrapolations.isArray() && !extrapolations.isEmpty()) {
            a("<p><b>Extrapolated</b> beyond the measured lengths (a model, not a measurement):</p><ul>");
            String centre = result.path("fitP50").path("withOffset").asBoolean() ? "mean" : "P50";
            for (JsonNode e : extrapolations) {
                a("<li>").t(String.format(Locale.ROOT, "%d tokens: %s TTFT %s (95 %% confidence band of the fitted"
                        + " curve %s–%s), P95 %s",
                        e.path("contextTokens").asInt(), centre, Units.ms(e.path("p50TtftMs").asDouble()),
                        Units.ms(e.path("p50LowerMs").asDouble()), Units.ms(e.path("p50UpperMs").asDouble()),
                        Units.ms(e.path("p95TtftMs").asDouble()))).a("</li>");
            }
            a("</ul>\n");
        }
    }

    private static String interval(JsonNode point, String p) {
        return Units.ms(point.path(p + "TtftMs").asDouble()) + " [" + Units.ms(point.path(p + "LowerMs").asDouble())
                + ", " + Units.ms(point.path(p + "UpperMs").asDouble()) + "]";
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String pct(JsonNode metric, double p) {
        for (JsonNode e : metric.path("percentiles")) {
            if (Math.abs(e.path("p").asDouble() - p) < 1e-9) {
                return Units.ms(e.path("value_ms").asDouble()) + " [" + Units.ms(e.path("lower_ms").asDouble()) + ", "
                        + Units.ms(e.path("upper_ms").asDouble()) + "]" + (e.path("enough_samples").asBoolean(true) ? "" : "*");
            }
        }
        return "–";
    }

    private void ranking(JsonNode ranking) {
        String metric = ranking.path("metric").asText("ttft").toUpperCase(Locale.ROOT);
        a("<p>Ranking by P95 ").t(metric).a(" (lower is better).</p>\n<table><tr><th>rank</th><th class=\"l\">endpoint"
                + "</th><th>n</th><th>TTFT P50</th><th>TTFT P95</th><th>TTFT P99</th><th>E2E P50</th><th>E2E P95</th>"
                + "<th>E2E P99</th><th class=\"l\">tier</th><th>SLO attainment</th><th>error rate</th></tr>\n");
        for (JsonNode row : ranking.path("rows")) {
            a("<tr><td>").t(row.path("rank").asText()).a("</td><td class=\"l\" title=\"").t(row.path("description")
                    .asText()).a("\">").t(row.path("endpoint").asText()).a("</td><td>").t(row.path("succeeded").asText())
                    .a("</td>");
            for (String f : List.of("ttftP50", "ttftP95", "ttftP99", "e2eP50", "e2eP95", "e2eP99")) {
                a("<td>").t(estimate(row.path(f))).a("</td>");
            }
            a("<td class=\"l\">").t(row.path("tier").asText("–")).a("</td><td>")
                    .t(Units.percent(row.path("sloAttainment").asDouble(Double.NaN))).a("</td><td>")
                    .t(Units.percent(row.path("errorRate").asDouble(Double.NaN))).a("</td></tr>\n");
        }
        a("</table>\n<ul>");
        for (JsonNode n : ranking.path("neighbours")) {
            JsonNode d = n.path("difference");
            boolean sig = n.path("significant").asBoolean();
            a("<li>").t(n.path("better").asText() + " vs " + n.path("worse").asText() + ": P95 difference "
                    + EndpointsReport.signed(d.path("differenceNanos").asDouble() / 1e6) + " ["
                    + EndpointsReport.signed(d.path("lowerNanos").asDouble() / 1e6) + ", "
                    + EndpointsReport.signed(d.path("upperNanos").asDouble() / 1e6) + "], Mann-Whitney p = "
                    + String.format(Locale.ROOT, "%.3g", n.path("mannWhitneyP").asDouble()) + " → ")
                    .a(sig ? "<span class=\"pass\">significantly different</span>"
                            : "<span class=\"fail\">not significantly different</span>").a("</li>");
        }
        a("</ul>\n<p class=\"muted\">Method: ").t(ranking.path("method").asText()).a("</p>\n");
    }

    private static String estimate(JsonNode p) {
        if (!p.isObject()) {
            return "–";
        }
        return Units.ms(p.path("valueNanos").asDouble() / 1e6) + " [" + Units.ms(p.path("lowerNanos").asDouble() / 1e6)
                + ", " + Units.ms(p.path("upperNanos").asDouble() / 1e6) + "]";
    }

    private void baseline(JsonNode result) {
        a("<p>Gateway overhead: <b>").t(result.path("gateway").asText()).a("</b> − <b>").t(result.path("direct").asText())
                .a("</b>, requests alternating; [95 % bootstrap interval].</p>\n<table><tr><th class=\"l\">metric</th>"
                        + "<th>direct P50</th><th>gateway P50</th><th>Δ P50</th><th>Δ P95</th><th>paired Δ P50</th>"
                        + "<th>paired Δ P95</th><th>pairs</th></tr>\n");
        for (JsonNode o : result.path("overheads")) {
            a("<tr><td class=\"l\">").t(o.path("metric").asText().toUpperCase(Locale.ROOT)).a("</td><td>")
                    .t(estimate(o.path("directP50"))).a("</td><td>").t(estimate(o.path("gatewayP50"))).a("</td><td>")
                    .t(interval(o.path("p50Difference"))).a("</td><td>").t(interval(o.path("p95Difference")))
                    .a("</td><td>").t(EndpointsReport.signed(o.path("pairedP50Nanos").asDouble() / 1e6)).a("</td><td>")
                    .t(EndpointsReport.signed(o.path("pairedP95Nanos").asDouble() / 1e6)).a("</td><td>")
                    .t(o.path("pairs").asText()).a("</td></tr>\n");
        }
        a("</table>\n");
    }

    private static String interval(JsonNode d) {
        return EndpointsReport.signed(d.path("differenceNanos").asDouble() / 1e6) + " ["
                + EndpointsReport.signed(d.path("lowerNanos").asDouble() / 1e6) + ", "
                + EndpointsReport.signed(d.path("upperNanos").asDouble() / 1e6) + "]";
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

    private void comparison(List<RunComparison.RunInfo> runs, List<List<RequestRecord>> records,
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
        html.append(raw);
        return this;
    }

    /** Appends text with the five HTML-special characters escaped (all a text node or attribute needs). */
    private HtmlReport t(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> html.append("&lt;");
                case '>' -> html.append("&gt;");
                case '&' -> html.append("&amp;");
                case '"' -> html.append("&quot;");
                case '\'' -> html.append("&#39;");
                default -> html.append(c);
            }
        }
        return this;
    }

    /** @return a trust figure of {@code run.json} with two decimals, or "–" when absent or null */
    private static String num(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? "–" : String.format(java.util.Locale.ROOT, "%.2f", v.asDouble());
    }

    /**
     * The console's load line for a load step read from {@code run.json} ({@link ConsoleReport#loadLine}, the same
     * text): what it held to (open loop: target rate; closed loop: streams and think time), the achieved rate and
     * goodput in the measured window, dropped and excluded requests and why it stopped.
     *
     * @param totals the step's {@code result.totals}
     * @param spec   the step's {@code spec} (a closed loop's concurrency and think time)
     * @return one line of text, rates in req/s
     */
    static String loadLine(JsonNode totals, JsonNode spec) {
        boolean open = "open".equals(totals.path("mode").asText());
        java.time.Duration think = null;
        if (spec.hasNonNull("thinkTime")) {
            try {
                think = org.latencylab.engine.run.DurationText.parse(spec.path("thinkTime").asText());
            } catch (IllegalArgumentException e) {
                think = null; // not a duration of ours: the shape without it
            }
        }
        String stop = totals.path("stopReason").asText("");
        return ConsoleReport.loadLine(ConsoleReport.loadShape(open, totals.path("targetRateRps").asDouble(),
                        spec.path("concurrency").asInt(0), think), open, totals.path("achievedRateRps").asDouble(),
                totals.path("goodputRps").asDouble(), totals.path("goodput").asLong(),
                totals.path("measuredSeconds").asDouble(),
                totals.path("dropped").asLong(), totals.path("excluded").asLong(), stop);
    }
}
