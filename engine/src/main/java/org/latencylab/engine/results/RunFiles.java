package org.latencylab.engine.results;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.experiment.ExperimentSpec;
import org.latencylab.engine.experiment.RunResult;
import org.latencylab.engine.experiment.RunSpec;
import org.latencylab.engine.scenario.DurationText;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.SloResult;
import org.latencylab.engine.stats.StatsReport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code run.json} (atomically) and {@code summary.csv} of a run directory.
 *
 * <p>{@code run.json} (format 1): {@code format, name, status, failure, started_at, duration_s, endpoint,
 * environment {latencylab_version, java_version, java_vendor, os, arch, cpus}, spec {target, client, tier_metric,
 * tiers, slos, tokenizer, corpus, seed, experiments}, summary} and {@code steps [{label, type, spec, result,
 * summary, parts {LABEL: summary}}]}, {@code slos_passed}, {@code notices}. A {@code summary} holds {@code sent, succeeded, failed, cancelled, errors_by_kind,
 * output_tokens, output_tokens_by_source, requests_per_s, output_tokens_per_s, goodput_rps, tier, tier_metric,
 * slos [{metric, percentile, max_ms, judged, met, compliance, passed}], metrics {NAME: {count, mean_ms,
 * stddev_ms, min_ms, max_ms, percentiles [{p, value_ms, lower_ms, upper_ms, confidence (actual coverage of the
 * interval), target_confidence, enough_samples}], warnings}}, warnings}. All times in milliseconds unless the name says otherwise.
 *
 * <p>Thread-safe (stateless; the shared mapper is thread-safe).
 */
public final class RunFiles {
    /** File name of the run description. */
    public static final String RUN_JSON = "run.json";
    /** File name of the CSV summary. */
    public static final String SUMMARY_CSV = "summary.csv";
    /** Version of the run.json format. */
    public static final int FORMAT = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new SimpleModule("latencylab-durations").addSerializer(Duration.class,
                    new JsonSerializer<>() {
                        @Override
                        public void serialize(Duration d, JsonGenerator g, SerializerProvider p) throws IOException {
                            g.writeString(DurationText.format(d));
                        }
                    }));

    private RunFiles() {
    }

    /** @return the JSON mapper used for run files (indenting, durations as {@code "15s"}) */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * @param spec      the run spec
     * @param startedAt wall-clock start
     * @return the {@code run.json} content of a run that has started
     */
    public static ObjectNode started(RunSpec spec, Instant startedAt) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("format", FORMAT);
        o.put("name", spec.name());
        o.put("status", "running");
        o.put("started_at", startedAt.toString());
        o.set("environment", environment());
        o.set("spec", spec(spec));
        return o;
    }

    /**
     * @param r a finished run
     * @return the complete {@code run.json} content
     */
    public static ObjectNode finished(RunResult r) {
        ObjectNode o = started(r.spec(), r.startedAt());
        o.put("status", r.status().id());
        if (r.failure() != null) {
            o.put("failure", r.failure());
        }
        o.put("duration_s", r.duration().toNanos() / 1e9);
        o.put("endpoint", r.endpointDescription());
        o.put("slos_passed", r.slosPassed());
        if (r.overall() != null) {
            o.set("summary", summary(r.overall()));
        }
        ArrayNode steps = o.putArray("steps");
        for (RunResult.StepOutcome s : r.steps()) {
            ObjectNode st = steps.addObject();
            st.put("label", s.label());
            st.put("type", s.type());
            st.set("spec", MAPPER.valueToTree(s.spec()));
            st.set("result", MAPPER.valueToTree(s.result()));
            if (s.stats() != null) {
                st.set("summary", summary(s.stats()));
            }
            if (!s.parts().isEmpty()) {
                ObjectNode parts = st.putObject("parts");
                s.parts().forEach((label, stats) -> parts.set(label, summary(stats)));
            }
        }
        ArrayNode n = o.putArray("notices");
        r.notices().forEach(n::add);
        return o;
    }

    /**
     * Writes {@code run.json} atomically: to a temporary file in the same directory, then moved over the old one.
     *
     * @param dir  run directory
     * @param json content
     * @throws UncheckedIOException when writing fails
     */
    public static void writeRunJson(Path dir, ObjectNode json) {
        Path target = dir.resolve(RUN_JSON);
        Path tmp = dir.resolve(RUN_JSON + ".tmp");
        try {
            MAPPER.writeValue(tmp.toFile(), json);
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code summary.csv}: columns {@code step,metric,count,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p99_9_ms,
     * max_ms,p95_lower_ms,p95_upper_ms}; one row per step and metric, followed by the rows of each part of the
     * step (e.g. {@code sweep-2048}) when it has several, then the rows of {@code all} (every measured request).
     * Numbers use a dot as decimal separator whatever the locale.
     *
     * @param dir run directory
     * @param r   the finished run
     * @throws UncheckedIOException when writing fails
     */
    public static void writeSummaryCsv(Path dir, RunResult r) {
        Path file = dir.resolve(SUMMARY_CSV);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("step,metric,count,mean_ms,p50_ms,p90_ms,p95_ms,p99_ms,p99_9_ms,max_ms,p95_lower_ms,p95_upper_ms\n");
            for (RunResult.StepOutcome s : r.steps()) {
                csvRows(w, s.label(), s.stats());
                for (Map.Entry<String, StatsReport> p : s.parts().entrySet()) {
                    csvRows(w, p.getKey(), p.getValue());
                }
            }
            csvRows(w, "all", r.overall());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void csvRows(Writer w, String step, StatsReport report) throws IOException {
        if (report == null) {
            return;
        }
        for (Map.Entry<String, MetricSummary> e : report.summaries().entrySet()) {
            MetricSummary m = e.getValue();
            if (m.count() == 0) {
                continue;
            }
            PercentileEstimate p95 = m.p(95.0);
            w.write(String.join(",", csvField(step), e.getKey(), Long.toString(m.count()), num(m.meanMillis()),
                    num(m.pMillis(50)), num(m.pMillis(90)), num(m.pMillis(95)), num(m.pMillis(99)),
                    num(m.pMillis(99.9)), num(m.maxMillis()), num(p95.lowerMillis()), num(p95.upperMillis())));
            w.write('\n');
        }
    }

    /** RFC 4180: a field holding a comma or quote (a grid cell's {@code rate=200,contextTokens=512}) is quoted. */
    private static String csvField(String v) {
        return v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }

    private static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "";
    }

    /**
     * @param s statistics
     * @return the JSON form described in the class documentation
     */
    public static ObjectNode summary(StatsReport s) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("sent", s.sent());
        o.put("succeeded", s.succeeded());
        o.put("failed", s.failed());
        o.put("cancelled", s.cancelled());
        ObjectNode ek = o.putObject("errors_by_kind");
        s.errorsByKind().forEach((k, v) -> ek.put(k.id(), v));
        o.put("output_tokens", s.outputTokens());
        ObjectNode src = o.putObject("output_tokens_by_source");
        s.outputTokensBySource().forEach((k, v) -> src.put(k.id(), v));
        o.put("wall_span_s", s.wallSpanNanos() / 1e9);
        o.put("requests_per_s", s.requestsPerSecond());
        o.put("output_tokens_per_s", s.outputTokensPerSecond());
        o.put("goodput_rps", s.goodputRps());
        o.put("tier_metric", s.tierMetric());
        if (s.tier() != null) {
            o.put("tier", s.tier().name());
        }
        ArrayNode slos = o.putArray("slos");
        for (SloResult r : s.sloResults()) {
            ObjectNode so = slos.addObject();
            so.put("metric", r.slo().metric());
            so.put("percentile", r.slo().percentile());
            so.put("max_ms", r.slo().thresholdNanos() / 1e6);
            so.put("judged", r.judged());
            so.put("met", r.met());
            so.put("compliance", r.complianceRate());
            so.put("passed", r.passed());
        }
        ObjectNode metrics = o.putObject("metrics");
        for (Map.Entry<String, MetricSummary> e : s.summaries().entrySet()) {
            MetricSummary m = e.getValue();
            ObjectNode mo = metrics.putObject(e.getKey());
            mo.put("count", m.count());
            if (m.count() == 0) {
                continue;
            }
            mo.put("mean_ms", m.meanMillis());
            mo.put("stddev_ms", m.stdDevMillis());
            mo.put("min_ms", m.minMillis());
            mo.put("max_ms", m.maxMillis());
            ArrayNode ps = mo.putArray("percentiles");
            for (PercentileEstimate p : m.percentiles()) {
                ObjectNode po = ps.addObject();
                po.put("p", p.percentile());
                po.put("value_ms", p.valueMillis());
                po.put("lower_ms", p.lowerMillis());
                po.put("upper_ms", p.upperMillis());
                po.put("confidence", p.confidence());
                po.put("target_confidence", p.targetConfidence());
                po.put("enough_samples", p.enoughSamples());
            }
            ArrayNode w = mo.putArray("warnings");
            m.warnings().forEach(w::add);
        }
        ArrayNode w = o.putArray("warnings");
        s.warnings().forEach(w::add);
        return o;
    }

    private static ObjectNode spec(RunSpec spec) {
        ObjectNode o = MAPPER.createObjectNode();
        ObjectNode t = o.putObject("target");
        if (spec.target().isSimulator()) {
            t.put("builtin", "sim");
            t.put("profile", spec.target().simProfile());
            t.put("stamping", spec.target().simStamping());
        } else {
            Endpoint e = spec.target().endpoint();
            t.put("name", e.name());
            t.put("protocol", e.protocol().id());
            t.put("baseUrl", e.baseUrl());
            t.put("model", e.model());
            if (e.apiKeyEnv() != null) {
                t.put("apiKeyEnv", e.apiKeyEnv()); // the variable's name only, never its value
            }
            t.put("verifyTls", e.verifyTls());
            ArrayNode hn = t.putArray("header_names"); // values may hold secrets: names only
            e.headers().keySet().forEach(hn::add);
        }
        ClientOptions c = spec.client();
        ObjectNode co = o.putObject("client");
        co.put("connectTimeout", DurationText.format(c.connectTimeout()));
        co.put("firstByteTimeout", DurationText.format(c.firstByteTimeout()));
        co.put("idleTimeout", DurationText.format(c.idleTimeout()));
        co.put("totalTimeout", DurationText.format(c.totalTimeout()));
        co.put("maxRetries", c.maxRetries());
        co.put("retryBaseDelay", DurationText.format(c.retryBaseDelay()));
        o.set("stats", MAPPER.valueToTree(spec.stats()));
        o.put("tokenizer", spec.tokenizer());
        o.put("corpus", spec.corpus());
        o.put("seed", spec.seed());
        ArrayNode ex = o.putArray("experiments");
        for (ExperimentSpec e : spec.experiments()) {
            ObjectNode eo = ex.addObject();
            eo.put("type", e.type());
            eo.setAll((ObjectNode) MAPPER.valueToTree(e));
        }
        return o;
    }

    private static ObjectNode environment() {
        ObjectNode o = MAPPER.createObjectNode();
        String v = RunFiles.class.getPackage().getImplementationVersion();
        o.put("latencylab_version", v == null ? "dev" : v);
        o.put("java_version", System.getProperty("java.version"));
        o.put("java_vendor", System.getProperty("java.vendor"));
        o.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        o.put("arch", System.getProperty("os.arch"));
        o.put("cpus", Runtime.getRuntime().availableProcessors());
        o.put("clock", "System.nanoTime (monotonic)");
        return o;
    }
}
