package org.latencylab.engine.results;

import org.latencylab.engine.csv.CsvWriter;

import org.latencylab.engine.api.Nanos;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.api.Endpoint;
import com.fasterxml.jackson.databind.JsonNode;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code run.json} (atomically) and {@code summary.csv} of a run directory.
 *
 * <p>{@code run.json} (format {@value #FORMAT}): {@code format, name, status (running | completed | cancelled |
 * failed | interrupted), failure, started_at, duration_s, endpoint, environment {latencylab_version, java_version,
 * java_vendor, os, arch, cpus, clock, http_path (which code measured the requests to the run's endpoint:
 * {@code direct-http1}, {@code okhttp} or {@code grpc}, see {@link org.latencylab.engine.api.HttpPath}),
 * clock_origin_nanotime, clock_origin_epoch_ms, clock_origin_uncertainty_ms},
 * spec {target, client, stats {tierMetric, tiers, slos} (what the run is judged with),
 * tokenizer, corpus, seed, experiments}, summary} and {@code steps [{label, type, tier (absent for a sweep, which is
 * judged per length), spec, result, summary, parts {LABEL: summary}, trust (the step's own check), notices (those
 * raised while the step ran; absent when none)}]}, {@code slos_passed}, {@code notices} (all of the run's),
 * {@code trust {saturated, message, rule, ...}} ({@link #trust}) when a trust check was made. Format 1 (before phases were data) is read the same way; readers refuse newer formats
 * ({@link #readRunJson}). A {@code summary} holds {@code sent, succeeded, failed, cancelled, errors_by_kind,
 * errors_by_party (failed requests by whose failure: server, network, client; absent when none failed), resent,
 * resent_by_reason, resend_wasted_ms (requests sent once more after their pooled connection failed before any
 * response byte; absent when none was), connected, connect_ms_mean (requests that opened their connection inside
 * their measured time, and their mean connect time; absent when none did), output_tokens, output_tokens_by_source, requests_per_s, output_tokens_per_s, goodput_rps, tier, tier_metric,
 * slos [{metric, percentile, max_ms, judged, met, compliance (null when nothing was judged), passed}], metrics {NAME: {count, mean_ms,
 * stddev_ms, min_ms, max_ms, percentiles [{p, value_ms, lower_ms, upper_ms, confidence (actual coverage of the
 * interval), target_confidence, enough_samples}], warnings}}, warnings}. All times in milliseconds unless the name says otherwise.
 *
 * <p>Clock origin: {@code environment.clock_origin_nanotime} is the absolute {@link System#nanoTime()} value that
 * every nanosecond time in {@code requests.jsonl} is relative to (absolute = relative + origin; on Linux the
 * {@code CLOCK_MONOTONIC} shared by all processes of the machine, so server logs and other tools' stamps can be joined
 * with it); {@code clock_origin_epoch_ms} is the wall clock at that instant in milliseconds since the epoch (with a
 * microsecond fraction); the two readings were taken back to back and agree within {@code
 * clock_origin_uncertainty_ms} (plus the wall clock's own error against true time). See {@link ClockOrigin}.
 *
 * <p>Thread-safe (stateless; the shared mapper is thread-safe).
 */
public final class RunFiles {
    /** Version of the run.json format written; readers accept this and every older one. */
    public static final int FORMAT = 2;

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
     * @param origin    the run's clock origin (written as {@code environment.clock_origin_*}), or null
     * @return the {@code run.json} content of a run that has started
     */
    public static ObjectNode started(RunSpec spec, Instant startedAt, ClockOrigin origin) {
        return started(spec, startedAt, origin, null);
    }

    /**
     * @param spec      the run spec
     * @param startedAt wall-clock start
     * @param origin    the run's clock origin (written as {@code environment.clock_origin_*}), or null
     * @param httpPath  which code measures the requests to the run's endpoint ({@code environment.http_path}), or
     *                  null when not known yet
     * @return the {@code run.json} content of a run that has started
     */
    public static ObjectNode started(RunSpec spec, Instant startedAt, ClockOrigin origin,
                                     org.latencylab.engine.api.HttpPath httpPath) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("format", FORMAT);
        o.put("name", spec.name());
        o.put("status", "running");
        o.put("started_at", startedAt.toString());
        o.set("environment", environment(origin, httpPath));
        o.set("spec", spec(spec));
        return o;
    }

    /**
     * @param r a finished run
     * @return the complete {@code run.json} content
     */
    public static ObjectNode finished(RunResult r) {
        ObjectNode o = started(r.spec(), r.startedAt(), r.clockOrigin(), r.httpPath());
        o.put("status", r.status().id());
        if (r.failure() != null) {
            o.put("failure", r.failure());
        }
        o.put("duration_s", Nanos.toSeconds(r.duration().toNanos()));
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
            if (s.stepTier() != null) {
                st.put("tier", s.stepTier().name());
            }
            st.set("spec", MAPPER.valueToTree(s.spec()));
            st.set("result", MAPPER.valueToTree(s.result()));
            if (s.stats() != null) {
                ObjectNode sum = summary(s.stats());
                if (s.stepTier() == null) {
                    sum.remove("tier"); // a sweep is judged per length (its parts), never pooled
                }
                st.set("summary", sum);
            }
            if (!s.parts().isEmpty()) {
                ObjectNode parts = st.putObject("parts");
                s.parts().forEach((label, stats) -> parts.set(label, summary(stats)));
            }
            if (s.trust() != null) {
                st.set("trust", trust(s.trust()));
            }
            if (!s.notices().isEmpty()) {
                ArrayNode sn = st.putArray("notices"); // also in the run's notices, which hold every one
                s.notices().forEach(sn::add);
            }
        }
        ArrayNode n = o.putArray("notices");
        r.notices().forEach(n::add);
        if (r.trust() != null) {
            o.set("trust", trust(r.trust()));
        }
        return o;
    }

    /**
     * Reads a {@code run.json} and checks its format.
     *
     * @param dir run directory
     * @return its content
     * @throws UncheckedIOException     when the file is unreadable
     * @throws IllegalArgumentException when it is missing, is not JSON ({@code FILE: line L, column C: words}), has
     *                                  no valid {@code format}, or a format newer than
     *                                  {@value #FORMAT} (the message names the file and says what to do)
     */
    public static ObjectNode readRunJson(Path dir) {
        Path file = RunLayout.runJson(dir);
        return RunDocumentReader.checked(file, RunDocumentReader.tree(file));
    }

    /**
     * Reads the {@code spec} of a {@code run.json} back into a {@link RunSpec}. Header values are never stored
     * (they may hold secrets), so a read endpoint has header names without values; it describes the run, it is
     * not meant to send requests.
     *
     * @param file  what to name in errors
     * @param spec  the {@code spec} object
     * @param name  the run name
     * @param types the step types
     * @return the spec
     * @throws IllegalArgumentException when a field is missing or malformed (the message names file and field)
     */
    public static RunSpec readSpec(String file, JsonNode spec, String name, StepTypes types) {
        try {
            JsonNode t = spec.path("target");
            TargetSpec target;
            if (t.has("builtin")) {
                target = new TargetSpec(null, t.path("profile").asText("llama-8b-class"),
                        t.path("stamping").asBoolean(false));
            } else {
                Map<String, String> headers = new java.util.LinkedHashMap<>();
                t.path("header_names").forEach(h -> headers.put(h.asText(), ""));
                target = TargetSpec.of(new Endpoint(t.path("name").asText("endpoint"),
                        Protocol.fromId(t.path("protocol").asText()), t.path("baseUrl").asText(null),
                        t.path("model").asText(""), t.hasNonNull("apiKeyEnv") ? t.get("apiKeyEnv").asText() : null,
                        headers, t.path("verifyTls").asBoolean(true)));
            }
            JsonNode c = spec.path("client");
            ClientOptions d = ClientOptions.DEFAULTS;
            ClientOptions client = new ClientOptions(dur(c, "connectTimeout", d.connectTimeout()),
                    dur(c, "firstByteTimeout", d.firstByteTimeout()), dur(c, "idleTimeout", d.idleTimeout()),
                    dur(c, "totalTimeout", d.totalTimeout()), c.path("maxRetries").asInt(d.maxRetries()),
                    dur(c, "retryBaseDelay", d.retryBaseDelay()), d.keepText(), d.includeUsage(),
                    c.path("coldConnections").asBoolean(d.coldConnections()), c.path("trace").asBoolean(false));
            StatsSettings stats = spec.has("stats") ? MAPPER.treeToValue(spec.get("stats"), StatsSettings.class)
                    : StatsSettings.DEFAULTS;
            List<ExperimentSpec> experiments = new ArrayList<>();
            JsonNode ex = spec.path("experiments");
            for (int i = 0; i < ex.size(); i++) {
                experiments.add(types.spec(file, "spec.experiments[" + i + "]", ex.get(i)));
            }
            return new RunSpec(name, target, client, stats, experiments, spec.path("tokenizer").asText(null),
                    spec.path("corpus").asText(null), spec.path("seed").asLong(42));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": field 'spec.stats': " + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith(file) ? e
                    : new IllegalArgumentException(file + ": field 'spec': " + e.getMessage(), e);
        }
    }

    private static Duration dur(JsonNode n, String field, Duration dflt) {
        return n.hasNonNull(field) ? DurationText.parse(n.get(field).asText()) : dflt;
    }

    /**
     * @param t a trust check
     * @return its {@code run.json} form: {@code saturated, message, rule, trusted_up_to_percentile, hiccup_p50_ms,
     * hiccup_p99_ms, hiccup_max_ms, hiccup_samples, dispatch_lag_p99_ms, cpu_per_request_ms, process_cpu_load,
     * run_queue_wait_ms};
     * a figure that could not be measured is {@code null}; {@code trusted_up_to_percentile} is left out when no
     * request succeeded (no latency to qualify)
     */
    public static ObjectNode trust(TrustCheck t) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("saturated", t.saturated());
        o.put("message", t.message());
        o.put("rule", TrustCheck.RULE);
        if (!Double.isNaN(t.trustedUpToPercentile())) {
            o.put("trusted_up_to_percentile", t.trustedUpToPercentile());
        }
        o.put("hiccup_p50_ms", t.hiccupP50Ms());
        o.put("hiccup_p99_ms", t.hiccupP99Ms());
        o.put("hiccup_max_ms", t.hiccupMaxMs());
        o.put("hiccup_samples", t.hiccupSamples());
        putFinite(o, "dispatch_lag_p99_ms", t.dispatchLagP99Ms());
        putFinite(o, "cpu_per_request_ms", t.cpuPerRequestMs());
        putFinite(o, "process_cpu_load", t.processCpuLoad());
        putFinite(o, "run_queue_wait_ms", t.runQueueWaitMs());
        return o;
    }

    private static void putFinite(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, v);
        } else {
            o.putNull(field);
        }
    }

    /**
     * Writes {@code run.json} atomically: to a temporary file in the same directory, then moved over the old one.
     *
     * @param dir  run directory
     * @param json content
     * @throws UncheckedIOException when writing fails
     */
    public static void writeRunJson(Path dir, ObjectNode json) {
        Path target = RunLayout.runJson(dir);
        Path tmp = dir.resolve(RunLayout.RUN_JSON_TMP);
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
        Path file = RunLayout.summaryCsv(dir);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            CsvWriter w = CsvWriter.to(out, CsvWriter.LineEnd.LF);
            w.row("step", "metric", "count", "mean_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "p99_9_ms", "max_ms",
                    "p95_lower_ms", "p95_upper_ms");
            for (RunResult.StepOutcome s : r.steps()) {
                csvRows(w, s.label(), s.stats());
                for (Map.Entry<String, StatsReport> p : s.parts().entrySet()) {
                    csvRows(w, p.getKey(), p.getValue());
                }
            }
            csvRows(w, "all", r.overall());
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void csvRows(CsvWriter w, String step, StatsReport report) throws IOException {
        if (report == null) {
            return;
        }
        for (Map.Entry<String, MetricSummary> e : report.summaries().entrySet()) {
            MetricSummary m = e.getValue();
            if (m.count() == 0) {
                continue;
            }
            PercentileEstimate p95 = m.p(95.0);
            // a grid cell's step label ({@code rate=200,contextTokens=512}) holds commas: the writer quotes it
            w.row(step, e.getKey(), Long.toString(m.count()), num(m.meanMillis()), num(m.pMillis(50)),
                    num(m.pMillis(90)), num(m.pMillis(95)), num(m.pMillis(99)), num(m.pMillis(99.9)),
                    num(m.maxMillis()), num(p95.lowerMillis()), num(p95.upperMillis()));
        }
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
        if (!s.errorsByParty().isEmpty()) {
            ObjectNode ep = o.putObject("errors_by_party");
            s.errorsByParty().forEach((k, v) -> ep.put(k.id(), v));
        }
        if (s.connectedRequests() > 0) {
            o.put("connected", s.connectedRequests());
            o.put("connect_ms_mean", Nanos.toMillis(s.connectNanosTotal()) / s.connectedRequests());
        }
        if (s.resent() > 0) {
            o.put("resent", s.resent());
            ObjectNode rr = o.putObject("resent_by_reason");
            s.resentByReason().forEach((k, v) -> rr.put(k.id(), v));
            o.put("resend_wasted_ms", Nanos.toMillis(s.resendWastedNanos()));
        }
        o.put("output_tokens", s.outputTokens());
        ObjectNode src = o.putObject("output_tokens_by_source");
        s.outputTokensBySource().forEach((k, v) -> src.put(k.id(), v));
        o.put("wall_span_s", Nanos.toSeconds(s.wallSpanNanos()));
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
            so.put("max_ms", Nanos.toMillis(r.slo().thresholdNanos()));
            so.put("judged", r.judged());
            so.put("met", r.met());
            putFinite(so, "compliance", r.complianceRate()); // null when no request could be judged
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
        if (c.coldConnections()) {
            co.put("coldConnections", true);
        }
        if (c.trace()) {
            co.put("trace", true);
        }
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

    private static ObjectNode environment(ClockOrigin origin, org.latencylab.engine.api.HttpPath httpPath) {
        ObjectNode o = MAPPER.createObjectNode();
        String v = RunFiles.class.getPackage().getImplementationVersion();
        o.put("latencylab_version", v == null ? "dev" : v);
        o.put("java_version", System.getProperty("java.version"));
        o.put("java_vendor", System.getProperty("java.vendor"));
        o.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        o.put("arch", System.getProperty("os.arch"));
        o.put("cpus", Runtime.getRuntime().availableProcessors());
        o.put("clock", "System.nanoTime (monotonic)");
        if (httpPath != null) {
            o.put("http_path", httpPath.id()); // which code took the stamps: direct-http1, okhttp or grpc
        }
        if (origin != null) {
            // requests.jsonl times + clock_origin_nanotime = absolute System.nanoTime() (CLOCK_MONOTONIC on Linux)
            o.put("clock_origin_nanotime", origin.nanoTime());
            o.put("clock_origin_epoch_ms", java.math.BigDecimal.valueOf(origin.epochMicros(), 3));
            o.put("clock_origin_uncertainty_ms", origin.uncertaintyNanos() / 1e6);
        }
        return o;
    }
}
