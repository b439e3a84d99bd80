package org.latencylab.engine.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.api.HttpPath;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StepResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A run directory as its {@code run.json} describes it, read once, typed and format-checked: what the console,
 * the HTML report, {@code compare}, the SLO matrix, the window's history and its rankings show. LatencyLab's own
 * runs (formats 1 to {@value RunFiles#FORMAT}) and runs imported from other tools ({@link Imported}) read alike.
 * Nothing here is recomputed: every figure is the one the run concluded with. The requests themselves stay on disk
 * and are streamed on demand ({@link #forEachRequest}).
 *
 * <p>A field an older format lacks reads as {@code null} (objects, texts), {@code NaN} (figures) or empty (lists,
 * maps); the record documentation says which. Field names and units are those of {@link RunFiles}.
 *
 * <p>Immutable; thread-safe. Reading ({@link #read}) blocks on disk.
 *
 * @param dir          the run directory
 * @param format       the {@code run.json} format number, 1 to {@value RunFiles#FORMAT}
 * @param name         run name (the directory's name when the file has none)
 * @param status       {@code running | completed | cancelled | failed | interrupted}, or null when not written
 * @param failure      why the run failed, or null
 * @param startedAt    {@code started_at} as written (ISO-8601), or null
 * @param durationS    the run's duration in seconds, NaN when not written (a run still running)
 * @param endpoint     the endpoint as described by the run, or null
 * @param environment  the machine and clock the run ran on, or null (imported runs)
 * @param imported     where an imported run came from, or null for LatencyLab's own runs
 * @param spec         the spec the run ran with (header values never stored), or null for an imported run
 * @param summary      every measured request pooled, or null (a run that did not finish)
 * @param steps        the steps, in the order they ran
 * @param slosPassed   whether every SLO passed, or null when not written
 * @param notices      all of the run's notices
 * @param trust        the run's trust check, or null when none was made
 */
public record RunDocument(Path dir, int format, String name, String status, String failure, String startedAt,
                          double durationS, String endpoint, Environment environment, Imported imported,
                          RunSpec spec, Summary summary, List<Step> steps, Boolean slosPassed, List<String> notices,
                          Trust trust) {
    /** The {@code source_tool} of LatencyLab's own runs. */
    public static final String LATENCYLAB = "latencylab";

    /** Copies the lists. */
    public RunDocument {
        steps = List.copyOf(steps);
        notices = List.copyOf(notices);
    }

    /**
     * Reads a run directory's {@code run.json}.
     *
     * @param dir   a run directory (LatencyLab's or an imported one)
     * @param types the step types (from the composition root, {@code StepCatalog.types()})
     * @return the typed document
     * @throws IllegalArgumentException when {@code dir} is no run directory, {@code run.json} is not JSON (the
     *                                  message reads {@code FILE: line L, column C: words}), has no valid
     *                                  {@code format} or a newer one, or a field is malformed (the message names
     *                                  file and field)
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public static RunDocument read(Path dir, StepTypes types) {
        return RunDocumentReader.read(dir, types);
    }

    /**
     * Reads a {@code run.json} given as text, as {@link #read} reads the file (for tests and tools).
     *
     * @param dir   the run directory the text describes (named in messages, and where requests are looked for)
     * @param json  the content of a {@code run.json}
     * @param types the step types
     * @return the typed document
     * @throws IllegalArgumentException as {@link #read}
     */
    public static RunDocument parse(Path dir, String json, StepTypes types) {
        return RunDocumentReader.parse(dir, json, types);
    }

    /** @return the tool that measured the run: {@value #LATENCYLAB}, or an imported run's {@code source_tool} */
    public String sourceTool() {
        return imported == null ? LATENCYLAB : imported.sourceTool();
    }

    /** @return the metrics an imported run cannot have (empty for LatencyLab's runs) */
    public List<String> missingMetrics() {
        return imported == null ? List.of() : imported.missingMetrics();
    }

    /** @return {@link #startedAt} as an instant, or null when absent or not ISO-8601 */
    public Instant startedInstant() {
        try {
            return startedAt == null ? null : Instant.parse(startedAt);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * @param metric     metric id, e.g. {@code ttft}
     * @param percentile percent, e.g. 95
     * @return that percentile of the run's pooled summary, if the run has it
     */
    public Optional<Percentile> percentile(String metric, double percentile) {
        return summary == null ? Optional.empty() : summary.percentile(metric, percentile);
    }

    /** @return whether {@code requests.jsonl} is there */
    public boolean hasRequests() {
        return Files.isRegularFile(RunLayout.requests(dir));
    }

    /**
     * Streams the run's {@code requests.jsonl}, line by line (nothing when the file is absent).
     *
     * @param each receives every request, in file order
     * @throws IllegalArgumentException     when a line is malformed (the message names file and line)
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public void forEachRequest(Consumer<RequestRecord> each) {
        if (hasRequests()) {
            RequestLog.forEach(RunLayout.requests(dir), each);
        }
    }

    /**
     * @return every request of {@code requests.jsonl} (empty when the file is absent); for large runs prefer
     *         {@link #forEachRequest}
     * @throws IllegalArgumentException     as {@link #forEachRequest}
     * @throws java.io.UncheckedIOException as {@link #forEachRequest}
     */
    public List<RequestRecord> requests() {
        List<RequestRecord> out = new ArrayList<>();
        forEachRequest(out::add);
        return out;
    }

    /** @return the PNG images in the run directory, sorted by name ({@link RunLayout#images}) */
    public List<Path> images() {
        return RunLayout.images(dir);
    }

    /**
     * Where an imported run came from ({@code source_tool, source_file, missing_metrics, notes,
     * spec.imported_from}).
     *
     * @param sourceTool     the tool's id, e.g. {@code vllm-bench}
     * @param sourceFile     the imported file's name
     * @param missingMetrics metrics the tool does not record
     * @param notes          how the tool's fields were read
     * @param importedFrom   the tool's display name
     */
    public record Imported(String sourceTool, String sourceFile, List<String> missingMetrics, List<String> notes,
                           String importedFrom) {
        /** Copies the lists. */
        public Imported {
            missingMetrics = List.copyOf(missingMetrics);
            notes = List.copyOf(notes);
        }
    }

    /**
     * The machine and clock a run ran on ({@code environment}); a field older runs lack is null.
     *
     * @param latencylabVersion        LatencyLab's version ({@code dev} from a build tree)
     * @param javaVersion              {@code java.version}
     * @param javaVendor               {@code java.vendor}
     * @param os                       operating system name and version
     * @param arch                     {@code os.arch}
     * @param cpus                     available processors
     * @param clock                    the clock the times come from
     * @param httpPath                 which code measured the requests ({@link HttpPath} id), or null
     * @param clockOriginNanotime      the absolute {@link System#nanoTime()} every request time is relative to
     * @param clockOriginEpochMs       wall clock at that instant, ms since the epoch (microsecond fraction)
     * @param clockOriginUncertaintyMs how far apart the two readings may be, ms
     */
    public record Environment(@JsonProperty("latencylab_version") String latencylabVersion,
                              @JsonProperty("java_version") String javaVersion,
                              @JsonProperty("java_vendor") String javaVendor,
                              @JsonProperty("os") String os,
                              @JsonProperty("arch") String arch,
                              @JsonProperty("cpus") Integer cpus,
                              @JsonProperty("clock") String clock,
                              @JsonProperty("http_path") String httpPath,
                              @JsonProperty("clock_origin_nanotime") Long clockOriginNanotime,
                              @JsonProperty("clock_origin_epoch_ms") Double clockOriginEpochMs,
                              @JsonProperty("clock_origin_uncertainty_ms") Double clockOriginUncertaintyMs) {
        /**
         * @return the fields present, in the order {@link RunFiles} writes them: {@code run.json} name → value
         *         (numbers as Java prints them; {@code clock_origin_epoch_ms} as a number for the caller to format)
         */
        public Map<String, Object> fields() {
            Map<String, Object> out = new LinkedHashMap<>();
            put(out, "latencylab_version", latencylabVersion);
            put(out, "java_version", javaVersion);
            put(out, "java_vendor", javaVendor);
            put(out, "os", os);
            put(out, "arch", arch);
            put(out, "cpus", cpus);
            put(out, "clock", clock);
            put(out, "http_path", httpPath);
            put(out, "clock_origin_nanotime", clockOriginNanotime);
            put(out, "clock_origin_epoch_ms", clockOriginEpochMs);
            put(out, "clock_origin_uncertainty_ms", clockOriginUncertaintyMs);
            return Collections.unmodifiableMap(out);
        }

        private static void put(Map<String, Object> out, String key, Object value) {
            if (value != null) {
                out.put(key, value);
            }
        }
    }

    /**
     * A trust check as recorded ({@link RunFiles#trust}); a figure that could not be measured is NaN.
     *
     * @param saturated             whether the client was found saturated
     * @param message               the verdict in words ("" when not written)
     * @param rule                  the rule it was judged by, or null
     * @param trustedUpToPercentile percentile up to which latencies are trustworthy, NaN when none succeeded
     * @param hiccupP50Ms           hiccup meter P50, ms
     * @param hiccupP99Ms           hiccup meter P99, ms
     * @param hiccupMaxMs           hiccup meter maximum, ms
     * @param hiccupSamples         hiccup samples taken
     * @param dispatchLagP99Ms      dispatch lag P99, ms
     * @param cpuPerRequestMs       client CPU per request, ms
     * @param processCpuLoad        the client's share of all CPU cores, 0 to 1
     * @param runQueueWaitMs        request threads' run-queue wait per time slice, ms
     */
    public record Trust(@JsonProperty("saturated") boolean saturated,
                        @JsonProperty("message") String message,
                        @JsonProperty("rule") String rule,
                        @JsonProperty("trusted_up_to_percentile") Double trustedUpToPercentile,
                        @JsonProperty("hiccup_p50_ms") Double hiccupP50Ms,
                        @JsonProperty("hiccup_p99_ms") Double hiccupP99Ms,
                        @JsonProperty("hiccup_max_ms") Double hiccupMaxMs,
                        @JsonProperty("hiccup_samples") long hiccupSamples,
                        @JsonProperty("dispatch_lag_p99_ms") Double dispatchLagP99Ms,
                        @JsonProperty("cpu_per_request_ms") Double cpuPerRequestMs,
                        @JsonProperty("process_cpu_load") Double processCpuLoad,
                        @JsonProperty("run_queue_wait_ms") Double runQueueWaitMs) {
        /** Absent or null figures become NaN, an absent message "". */
        public Trust {
            message = message == null ? "" : message;
            trustedUpToPercentile = nan(trustedUpToPercentile);
            hiccupP50Ms = nan(hiccupP50Ms);
            hiccupP99Ms = nan(hiccupP99Ms);
            hiccupMaxMs = nan(hiccupMaxMs);
            dispatchLagP99Ms = nan(dispatchLagP99Ms);
            cpuPerRequestMs = nan(cpuPerRequestMs);
            processCpuLoad = nan(processCpuLoad);
            runQueueWaitMs = nan(runQueueWaitMs);
        }
    }

    /**
     * One percentile of a metric with its distribution-free confidence interval.
     *
     * @param p                percent, e.g. 95
     * @param valueMs          the estimate, ms
     * @param lowerMs          lower end of the interval, ms (NaN when not written)
     * @param upperMs          upper end, ms (NaN when not written)
     * @param confidence       actual coverage of the interval (NaN when not written)
     * @param targetConfidence coverage aimed at (NaN when not written)
     * @param enoughSamples    false when fewer than 10 samples lie above it (an estimate near the maximum); true
     *                         when not written (imported and older runs)
     */
    public record Percentile(@JsonProperty("p") double p,
                             @JsonProperty("value_ms") Double valueMs,
                             @JsonProperty("lower_ms") Double lowerMs,
                             @JsonProperty("upper_ms") Double upperMs,
                             @JsonProperty("confidence") Double confidence,
                             @JsonProperty("target_confidence") Double targetConfidence,
                             @JsonProperty("enough_samples") Boolean enoughSamples) {
        /** Absent figures become NaN, an absent sample verdict true. */
        public Percentile {
            valueMs = nan(valueMs);
            lowerMs = nan(lowerMs);
            upperMs = nan(upperMs);
            confidence = nan(confidence);
            targetConfidence = nan(targetConfidence);
            enoughSamples = enoughSamples == null || enoughSamples;
        }
    }

    /**
     * The statistics of one metric ({@code metrics.NAME} of a summary); a metric with no value has only a count.
     *
     * @param count       values, 0 when none
     * @param meanMs      mean, ms (NaN when absent)
     * @param stddevMs    standard deviation, ms (NaN when absent)
     * @param minMs       minimum, ms (NaN when absent)
     * @param maxMs       maximum, ms (NaN when absent)
     * @param percentiles the percentiles, ascending as written
     * @param warnings    sample-size warnings
     */
    public record MetricStats(@JsonProperty("count") long count,
                              @JsonProperty("mean_ms") Double meanMs,
                              @JsonProperty("stddev_ms") Double stddevMs,
                              @JsonProperty("min_ms") Double minMs,
                              @JsonProperty("max_ms") Double maxMs,
                              @JsonProperty("percentiles") List<Percentile> percentiles,
                              @JsonProperty("warnings") List<String> warnings) {
        /** Absent figures become NaN, absent lists empty. */
        public MetricStats {
            meanMs = nan(meanMs);
            stddevMs = nan(stddevMs);
            minMs = nan(minMs);
            maxMs = nan(maxMs);
            percentiles = percentiles == null ? List.of() : List.copyOf(percentiles);
            warnings = warnings == null ? List.of() : List.copyOf(warnings);
        }

        /** @param p percent @return that percentile, if written (compared to within 1e-9) */
        public Optional<Percentile> percentile(double p) {
            return percentiles.stream().filter(e -> Math.abs(e.p() - p) < 1e-9).findFirst();
        }
    }

    /**
     * One SLO's verdict.
     *
     * @param metric     metric id
     * @param percentile percent
     * @param maxMs      the threshold, ms (NaN when absent)
     * @param judged     requests judged, -1 when not written (older runs)
     * @param met        requests that met it
     * @param compliance met ÷ judged, NaN when nothing was judged
     * @param passed     whether the SLO passed
     */
    public record SloVerdict(@JsonProperty("metric") String metric,
                             @JsonProperty("percentile") double percentile,
                             @JsonProperty("max_ms") Double maxMs,
                             @JsonProperty("judged") Long judged,
                             @JsonProperty("met") long met,
                             @JsonProperty("compliance") Double compliance,
                             @JsonProperty("passed") boolean passed) {
        /** Absent figures become NaN, an absent judged count -1. */
        public SloVerdict {
            maxMs = nan(maxMs);
            judged = judged == null ? -1 : judged;
            compliance = nan(compliance);
        }
    }

    /**
     * A summary of requests ({@code summary} of the run, a step or a part); counts absent in older formats are 0,
     * figures NaN, maps and lists empty.
     *
     * @param sent                 requests sent
     * @param succeeded            requests that succeeded
     * @param failed               requests that failed
     * @param cancelled            requests cancelled
     * @param errorsByKind         failed requests by error kind id
     * @param errorsByParty        failed requests by whose failure (server, network, client)
     * @param connected            requests that opened their connection inside their measured time
     * @param connectMsMean        their mean connect time, ms
     * @param resent               requests sent once more after their pooled connection failed
     * @param resentByReason       those by reason id
     * @param resendWastedMs       time lost to those re-sends, ms
     * @param outputTokens         output tokens
     * @param outputTokensBySource output tokens by where the count came from
     * @param wallSpanS            first start to last end, seconds
     * @param requestsPerS         requests per second of wall time
     * @param outputTokensPerS     output tokens per second of wall time
     * @param goodputRps           requests per second that met every SLO
     * @param tierMetric           the metric the tier is judged on
     * @param tier                 the tier, or null (a sweep's pooled summary, nothing judged)
     * @param slos                 SLO verdicts
     * @param metrics              metric id → statistics, in the order written
     * @param warnings             sample-size and other warnings
     */
    public record Summary(@JsonProperty("sent") long sent,
                          @JsonProperty("succeeded") long succeeded,
                          @JsonProperty("failed") long failed,
                          @JsonProperty("cancelled") long cancelled,
                          @JsonProperty("errors_by_kind") Map<String, Long> errorsByKind,
                          @JsonProperty("errors_by_party") Map<String, Long> errorsByParty,
                          @JsonProperty("connected") long connected,
                          @JsonProperty("connect_ms_mean") Double connectMsMean,
                          @JsonProperty("resent") long resent,
                          @JsonProperty("resent_by_reason") Map<String, Long> resentByReason,
                          @JsonProperty("resend_wasted_ms") Double resendWastedMs,
                          @JsonProperty("output_tokens") long outputTokens,
                          @JsonProperty("output_tokens_by_source") Map<String, Long> outputTokensBySource,
                          @JsonProperty("wall_span_s") Double wallSpanS,
                          @JsonProperty("requests_per_s") Double requestsPerS,
                          @JsonProperty("output_tokens_per_s") Double outputTokensPerS,
                          @JsonProperty("goodput_rps") Double goodputRps,
                          @JsonProperty("tier_metric") String tierMetric,
                          @JsonProperty("tier") String tier,
                          @JsonProperty("slos") List<SloVerdict> slos,
                          @JsonProperty("metrics") Map<String, MetricStats> metrics,
                          @JsonProperty("warnings") List<String> warnings) {
        /** Absent figures become NaN, absent maps and lists empty; map order is kept. */
        public Summary {
            errorsByKind = copy(errorsByKind);
            errorsByParty = copy(errorsByParty);
            resentByReason = copy(resentByReason);
            outputTokensBySource = copy(outputTokensBySource);
            connectMsMean = nan(connectMsMean);
            resendWastedMs = nan(resendWastedMs);
            wallSpanS = nan(wallSpanS);
            requestsPerS = nan(requestsPerS);
            outputTokensPerS = nan(outputTokensPerS);
            goodputRps = nan(goodputRps);
            slos = slos == null ? List.of() : List.copyOf(slos);
            metrics = copy(metrics);
            warnings = warnings == null ? List.of() : List.copyOf(warnings);
        }

        /** @param metric metric id @return its statistics, if the summary has the metric */
        public Optional<MetricStats> metric(String metric) {
            return Optional.ofNullable(metrics.get(metric));
        }

        /**
         * @param metric     metric id
         * @param percentile percent
         * @return that percentile, if written
         */
        public Optional<Percentile> percentile(String metric, double percentile) {
            return metric(metric).flatMap(m -> m.percentile(percentile));
        }
    }

    /**
     * One step as recorded ({@code steps[i]}).
     *
     * @param label      step label
     * @param type       step type, e.g. {@code probe}, {@code import} for an imported run's steps
     * @param tier       the step's tier, or null (a sweep is judged per length; imported steps)
     * @param spec       what the step was asked to do, or null (imported steps)
     * @param result     the step's own result record (a {@code LoadResult}, a sweep's fits…), or null when the
     *                   step has none or its type is unknown to this LatencyLab
     * @param summary    the step's measured requests pooled, or null
     * @param parts      part label → summary (a sweep's lengths, a ranking's endpoints), in the order written
     * @param trust      the step's own trust check, or null
     * @param notices    the notices raised while the step ran
     * @param ownSlos    whether the step's spec carries SLOs of its own (a ranking's attainment, a load step's
     *                   goodput thresholds, a server bench's load)
     */
    public record Step(String label, String type, String tier, ExperimentSpec spec, StepResult result,
                       Summary summary, Map<String, Summary> parts, Trust trust, List<String> notices,
                       boolean ownSlos) {
        /** Copies the collections. */
        public Step {
            parts = copy(parts);
            notices = List.copyOf(notices);
        }
    }

    static double nan(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static <K, V> Map<K, V> copy(Map<K, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
}
