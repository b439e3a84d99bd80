package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.StepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Opens a run directory as the engine's result model: reads {@code run.json} (format checked) for the spec, the
 * settings the run was judged with and the steps' results, and reads {@code requests.jsonl} once, line by line,
 * into a {@link RunModel} — the same code that summarised the requests while the run went on, so a reopened run
 * shows exactly the numbers, tiers and SLO verdicts it concluded with. Also recovers a run whose process died
 * ({@code run.json} still says {@code running}): status {@link RunResult.Status#INTERRUPTED}, the gap noted, and
 * re-judges a run with other settings when asked to (an explicit action, noted in the result).
 *
 * <p>Blocking (disk). Thread-safe: no state besides the step types.
 */
public final class RunReader {
    private static final ObjectMapper RESULTS = RunFiles.mapper().copy()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final StepTypes types;

    /** @param types the step types (from the composition root, {@code StepCatalog.types()}) */
    public RunReader(StepTypes types) {
        this.types = Objects.requireNonNull(types, "types");
    }

    /**
     * Opens a run directory, judged with the settings the run ran with.
     *
     * @param dir a run directory
     * @return its result model; a run whose {@code run.json} still says {@code running} is returned as
     *         {@link RunResult.Status#INTERRUPTED} with a notice (nothing is written: see {@link #recover})
     * @throws IllegalArgumentException          when {@code run.json} or a request line is malformed or newer than
     *                                           this reader (the message names file and field or line)
     * @throws java.io.UncheckedIOException      when a file cannot be read
     */
    public RunResult open(Path dir) {
        return read(dir, null);
    }

    /**
     * Opens a run directory and judges it with other settings than those it ran with (an explicit user action);
     * the result carries a notice saying so.
     *
     * @param dir      a run directory
     * @param settings tier table, tier metric and SLOs to judge with
     * @return the re-judged result model
     * @throws IllegalArgumentException     as {@link #open}, or when the settings do not fit the run (e.g. a TTFT
     *                                      SLO on a non-streaming step)
     * @throws java.io.UncheckedIOException as {@link #open}
     */
    public RunResult rejudge(Path dir, StatsSettings settings) {
        return read(dir, Objects.requireNonNull(settings, "settings"));
    }

    /**
     * Rebuilds {@code run.json} and {@code summary.csv} of a run whose process died while it ran ({@code run.json}
     * says {@code running}) from its {@code requests.jsonl}: status {@code interrupted}, the gap noted. A run that
     * ended normally is only read.
     *
     * @param dir a run directory
     * @return the result model
     * @throws IllegalArgumentException     as {@link #open}
     * @throws java.io.UncheckedIOException when a file cannot be read or written
     */
    public RunResult recover(Path dir) {
        ObjectNode before = RunFiles.readRunJson(dir);
        RunResult r = read(dir, null);
        if ("running".equals(before.path("status").asText())) {
            ObjectNode after = RunFiles.finished(r);
            after.set("spec", before.get("spec")); // the spec as written when the run started, header names and all
            if (before.has("environment")) {
                after.set("environment", before.get("environment"));
            }
            RunFiles.writeRunJson(dir, after);
            RunFiles.writeSummaryCsv(dir, r);
        }
        return r;
    }

    private RunResult read(Path dir, StatsSettings rejudge) {
        ObjectNode root = RunFiles.readRunJson(dir);
        String file = dir.resolve(RunLayout.RUN_JSON).toString();
        String name = root.path("name").asText(dir.getFileName().toString());
        RunSpec ran = RunFiles.readSpec(file, root.path("spec"), name, types);
        RunSpec spec = rejudge == null ? ran : new RunSpec(ran.name(), ran.target(), ran.client(), rejudge,
                ran.experiments(), ran.tokenizer(), ran.corpus(), ran.seed());
        List<String> labels = spec.stepLabels();
        Map<String, ExperimentSpec> byLabel = new HashMap<>();
        for (int i = 0; i < labels.size(); i++) {
            byLabel.put(labels.get(i), spec.experiments().get(i));
        }
        Map<String, StepResult> results = new HashMap<>();
        for (JsonNode st : root.path("steps")) {
            String label = st.path("label").asText();
            Class<? extends StepResult> cls = types.resultType(st.path("type").asText());
            if (cls != null && st.hasNonNull("result")) {
                try {
                    results.put(label, RESULTS.treeToValue(st.get("result"), cls));
                } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ": field 'steps[" + label + "].result': "
                            + ReadErrors.words(e), e);
                }
            }
        }
        List<String> notices = new ArrayList<>();
        root.path("notices").forEach(n -> notices.add(n.asText()));
        RunResult.Status status = RunResult.status(root.path("status").asText("running"));

        RunModel model = new RunModel(spec, 0, false);
        Set<String> seen = new HashSet<>();
        long[] lastEnd = {0};
        long[] count = {0};
        Path log = dir.resolve(RunLayout.REQUESTS_JSONL);
        if (Files.isRegularFile(log)) {
            RequestLog.forEach(log, r -> {
                String step = r.step().isEmpty() ? legacyStep(r, labels) : r.step();
                ExperimentSpec e = byLabel.get(step);
                if (e == null) {
                    throw new IllegalArgumentException(log + ": request " + r.id() + " belongs to step '" + step
                            + "', which " + RunLayout.RUN_JSON + " does not list (steps: " + labels + ")");
                }
                if (!step.equals(model.currentStep())) {
                    if (model.currentStep() != null) {
                        model.finishStep(results.get(model.currentStep()));
                    }
                    model.startStep(step, e);
                    seen.add(step);
                }
                model.add(r);
                count[0]++;
                if (r.endNanos() != RequestRecord.UNSET) {
                    lastEnd[0] = Math.max(lastEnd[0], r.endNanos());
                }
            });
        }
        if (model.currentStep() != null) {
            model.finishStep(results.get(model.currentStep()));
        }
        for (JsonNode st : root.path("steps")) { // steps that ran without a single request
            String label = st.path("label").asText();
            if (!seen.contains(label) && byLabel.containsKey(label)) {
                model.startStep(label, byLabel.get(label));
                model.finishStep(results.get(label));
            }
        }
        Duration duration = root.has("duration_s")
                ? Duration.ofNanos(Math.round(root.get("duration_s").asDouble() * Nanos.PER_SECOND))
                : Duration.ofNanos(lastEnd[0]);
        if (status == RunResult.Status.RUNNING) {
            status = RunResult.Status.INTERRUPTED;
            notices.add("interrupted: the process ended while the run was going (killed or crashed); rebuilt from "
                    + count[0] + " requests in " + RunLayout.REQUESTS_JSONL + " (the last ended "
                    + String.format(java.util.Locale.ROOT, "%.1f", Nanos.toSeconds(lastEnd[0]))
                    + " s after the start); requests in flight at that moment and the results of unfinished steps"
                    + " (fits, load totals) are lost");
        }
        if (rejudge != null) {
            notices.add("re-judged with the current settings, not those the run ran with (" + describe(ran.stats())
                    + ")");
        }
        Instant started = null;
        try {
            started = Instant.parse(root.path("started_at").asText(""));
        } catch (java.time.format.DateTimeParseException ignored) {
            // unknown start
        }
        // each step's own trust check, as recorded (steps judged before steps had one read as not judged)
        java.util.Map<String, TrustCheck> stepTrust = new java.util.HashMap<>();
        // and the notices each step raised (runs from before they were kept per step have them only run-level)
        java.util.Map<String, List<String>> stepNotices = new java.util.HashMap<>();
        for (JsonNode st : root.path("steps")) {
            TrustCheck t = trust(st.get("trust"));
            if (t != null) {
                stepTrust.put(st.path("label").asText(), t);
            }
            List<String> raised = new ArrayList<>();
            st.path("notices").forEach(n -> raised.add(n.asText()));
            if (!raised.isEmpty()) {
                stepNotices.put(st.path("label").asText(), raised);
            }
        }
        List<RunResult.StepOutcome> steps = model.steps().stream()
                .map(o -> stepTrust.containsKey(o.label()) ? o.withTrust(stepTrust.get(o.label())) : o)
                .map(o -> o.withNotices(stepNotices.get(o.label()))).toList();
        return new RunResult(name, status, root.hasNonNull("failure") ? root.get("failure").asText() : null, dir,
                started, duration, root.path("endpoint").asText(spec.target().describe()), spec, steps,
                model.overall(), notices, origin(root.path("environment")), trust(root.get("trust")),
                httpPath(root.path("environment")));
    }

    private static String describe(StatsSettings s) {
        return "tier on " + s.tierMetric() + (s.tiers().isEmpty() ? ", default tier table" : ", own tier table")
                + (s.slos().isEmpty() ? ", no SLO" : ", " + s.slos().size() + " SLO(s)");
    }

    /**
     * Format 1 lines have no {@code step}: a request belongs to the step whose label it carries, or whose label
     * starts it followed by {@code -} (a sweep's {@code sweep-2048}).
     */
    private static String legacyStep(RequestRecord r, List<String> labels) {
        String best = "";
        for (String l : labels) {
            if ((r.label().equals(l) || r.label().startsWith(l + "-")) && l.length() > best.length()) {
                best = l;
            }
        }
        return best;
    }

    /** @return the HTTP path a run recorded in {@code environment}, or null (older runs have none) */
    private static org.latencylab.engine.api.HttpPath httpPath(JsonNode env) {
        return env.hasNonNull("http_path") ? org.latencylab.engine.api.HttpPath.fromId(env.get("http_path").asText())
                : null;
    }

    /** @return the clock origin a run recorded in {@code environment}, or null (older runs have none) */
    private static ClockOrigin origin(JsonNode env) {
        if (!env.hasNonNull("clock_origin_nanotime") || !env.hasNonNull("clock_origin_epoch_ms")) {
            return null;
        }
        return new ClockOrigin(env.get("clock_origin_nanotime").asLong(),
                Math.round(env.get("clock_origin_epoch_ms").asDouble() * 1000),
                Math.round(env.path("clock_origin_uncertainty_ms").asDouble(0) * 1e6));
    }

    /**
     * @param t a recorded trust check
     * @return its {@code trusted_up_to_percentile}, or NaN when it is absent or null (no request succeeded, so no
     *         latency was qualified)
     */
    private static double trustedUpTo(JsonNode t) {
        JsonNode v = t.get("trusted_up_to_percentile");
        return v == null || !v.isNumber() ? Double.NaN : v.asDouble();
    }

    /** @return the trust check a run recorded ({@link RunFiles#trust} wrote it), or null */
    private static TrustCheck trust(JsonNode t) {
        if (t == null || !t.isObject()) {
            return null;
        }
        String message = t.path("message").asText("");
        return new TrustCheck(t.path("hiccup_p50_ms").asDouble(0), t.path("hiccup_p99_ms").asDouble(0),
                t.path("hiccup_max_ms").asDouble(0), t.path("hiccup_samples").asLong(0),
                t.path("dispatch_lag_p99_ms").asDouble(Double.NaN), t.path("cpu_per_request_ms").asDouble(Double.NaN),
                t.path("process_cpu_load").asDouble(Double.NaN), trustedUpTo(t),
                t.path("saturated").asBoolean(), message.isBlank() ? "no message recorded" : message,
                t.path("run_queue_wait_ms").asDouble(Double.NaN));
    }
}
