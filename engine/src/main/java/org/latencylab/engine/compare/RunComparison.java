package org.latencylab.engine.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.stats.LatencyCdf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares any number of finished runs (LatencyLab's own or imported) on the summaries their {@code run.json}
 * holds: a table of percentiles per run and the difference of each against a chosen baseline run. Nothing is
 * recomputed: each run is shown as it concluded. Stateless and thread-safe.
 */
public final class RunComparison {
    /** Metrics compared by default. */
    public static final List<String> METRICS = List.of("ttft", "e2e", "tpot", "itl");
    /** Percentiles compared by default. */
    public static final List<Double> PERCENTILES = List.of(50.0, 95.0, 99.0);
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunComparison() {
    }

    /**
     * One run as compared.
     *
     * @param dir            the run directory
     * @param name           run name
     * @param sourceTool     tool that produced it ({@code latencylab} for LatencyLab's own runs)
     * @param missingMetrics metrics the run cannot have (imported runs), else empty
     * @param runJson        the whole {@code run.json}
     */
    public record RunInfo(Path dir, String name, String sourceTool, List<String> missingMetrics, JsonNode runJson) {
        /** @return the run's pooled summary ({@code summary} of {@code run.json}), or a missing node */
        public JsonNode summary() {
            return runJson.path("summary");
        }

        /**
         * @param metric     metric id
         * @param percentile percent
         * @return the percentile's value in ms, or NaN when the run has none
         */
        public double percentileMs(String metric, double percentile) {
            return percentile(metric, percentile).path("value_ms").asDouble(Double.NaN);
        }

        /**
         * @param metric     metric id
         * @param percentile percent
         * @return false when the run's summary marks the percentile as resting on fewer than 10 samples above it
         *         ({@code enough_samples: false}: an estimate near the maximum); true otherwise, also when the run
         *         does not say (imported runs)
         */
        public boolean enoughSamples(String metric, double percentile) {
            return percentile(metric, percentile).path("enough_samples").asBoolean(true);
        }

        /** @return the summary's entry of that metric and percentile, or a missing node */
        private JsonNode percentile(String metric, double percentile) {
            for (JsonNode e : summary().path("metrics").path(metric).path("percentiles")) {
                if (Math.abs(e.path("p").asDouble() - percentile) < 1e-9) {
                    return e;
                }
            }
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
    }

    /**
     * The TTFT and E2E distributions of a run's successful measured requests (warm-up and cool-down left out), read
     * from its {@code requests.jsonl}, for overlaid CDF charts. Works alike for LatencyLab's runs and imported ones
     * (whose records carry their tool's timings). Blocking (disk).
     *
     * @param run a run as {@link #load} read it
     * @return {@code "ttft"} and {@code "e2e"} → every value in ms, sorted ascending ({@link LatencyCdf#exact()});
     *         empty distributions when the run has no {@code requests.jsonl}
     * @throws IllegalArgumentException when a line of the file is malformed (the message names the file)
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static Map<String, LatencyCdf> distributions(RunInfo run) {
        Path log = run.dir().resolve(RequestLog.FILE_NAME);
        List<Double> ttft = new ArrayList<>();
        List<Double> e2e = new ArrayList<>();
        if (Files.isRegularFile(log)) {
            RequestLog.forEach(log, r -> {
                if (r.succeeded() && r.measured()) {
                    if (r.ttftNanos() >= 0) {
                        ttft.add(Nanos.toMillis(r.ttftNanos()));
                    }
                    if (r.e2eNanos() >= 0) {
                        e2e.add(Nanos.toMillis(r.e2eNanos()));
                    }
                }
            });
        }
        Map<String, LatencyCdf> out = new LinkedHashMap<>();
        out.put("ttft", sorted("ttft", ttft));
        out.put("e2e", sorted("e2e", e2e));
        return out;
    }

    private static LatencyCdf sorted(String metric, List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return new LatencyCdf(metric, v.length, v, true);
    }

    /**
     * Labels that tell the runs apart, for legends and table heads: a run's name alone when no other run has it
     * (unless {@code alwaysTime}), else the name with its start time ({@code started_at} of {@code run.json}, UTC, to
     * the second), and when even that is shared (e.g. a copied run directory) also the directory's name.
     *
     * @param runs       the runs, in order
     * @param alwaysTime whether every label carries the start time (a legend of runs that differ only in time)
     * @return one label per run, in the same order; distinct unless two runs share name, time and directory name
     */
    public static List<String> labels(List<RunInfo> runs, boolean alwaysTime) {
        List<String> names = runs.stream().map(RunInfo::name).toList();
        List<String> timed = new ArrayList<>();
        for (RunInfo r : runs) {
            boolean shared = java.util.Collections.frequency(names, r.name()) > 1;
            timed.add(shared || alwaysTime ? r.name() + " · " + startText(r) : r.name());
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            out.add(java.util.Collections.frequency(timed, timed.get(i)) > 1
                    ? timed.get(i) + " · " + runs.get(i).dir().getFileName() : timed.get(i));
        }
        return out;
    }

    /** @return {@code started 2026-11-30 09:12:05 UTC}, or {@code start unknown} */
    private static String startText(RunInfo r) {
        try {
            java.time.Instant t = java.time.Instant.parse(r.runJson().path("started_at").asText(""));
            return "started " + java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
                    java.util.Locale.ROOT).withZone(java.time.ZoneOffset.UTC).format(t);
        } catch (java.time.format.DateTimeParseException e) {
            return "start unknown";
        }
    }

    /**
     * One line of the difference table.
     *
     * @param metric     metric id
     * @param percentile percent
     * @param valuesMs   the value of each run, ms (NaN = not measured)
     * @param deltaMs    value − baseline value, ms, per run (NaN when either is missing; 0 for the baseline)
     * @param deltaPct   that difference in percent of the baseline value
     * @param thin       per run, true when its value rests on fewer than 10 samples above it (an estimate near the
     *                   maximum, shown with {@code *}; a difference involving it says little)
     */
    public record Row(String metric, double percentile, List<Double> valuesMs, List<Double> deltaMs,
                      List<Double> deltaPct, List<Boolean> thin) {
    }

    /**
     * @param dirs run directories, at least 1
     * @return the runs in the given order
     * @throws IllegalArgumentException when a directory has no readable {@code run.json} of format 1 (the message
     *                                  names it)
     */
    public static List<RunInfo> load(List<Path> dirs) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("give at least one run directory");
        }
        List<RunInfo> out = new ArrayList<>();
        for (Path d : dirs) {
            Path f = d.resolve(RunFiles.RUN_JSON);
            if (!Files.isRegularFile(f)) {
                throw new IllegalArgumentException(d + ": not a run directory (no " + RunFiles.RUN_JSON + ")");
            }
            JsonNode n;
            try {
                n = JSON.readTree(f.toFile());
            } catch (IOException e) {
                if (e instanceof com.fasterxml.jackson.core.JsonProcessingException
                        || e instanceof java.io.CharConversionException) {
                    throw org.latencylab.engine.results.ReadErrors.badInput(f, e);
                }
                throw new UncheckedIOException(org.latencylab.engine.results.ReadErrors.describe(f, e), e);
            }
            if (n.path("format").asInt(-1) != RunFiles.FORMAT) {
                throw new IllegalArgumentException(f + ": field 'format' must be " + RunFiles.FORMAT + ", was "
                        + n.path("format"));
            }
            List<String> missing = new ArrayList<>();
            n.path("missing_metrics").forEach(m -> missing.add(m.asText()));
            out.add(new RunInfo(d, n.path("name").asText(d.getFileName().toString()),
                    n.path("source_tool").asText("latencylab"), List.copyOf(missing), n));
        }
        return out;
    }

    /**
     * @param runs     the runs
     * @param baseline index of the baseline run in {@code runs}
     * @return one row per metric and percentile ({@link #METRICS} × {@link #PERCENTILES})
     * @throws IllegalArgumentException when the baseline index is out of range
     */
    public static List<Row> differences(List<RunInfo> runs, int baseline) {
        if (baseline < 0 || baseline >= runs.size()) {
            throw new IllegalArgumentException("baseline must be a run number from 1 to " + runs.size() + ", was "
                    + (baseline + 1));
        }
        List<Row> rows = new ArrayList<>();
        for (String m : METRICS) {
            for (double p : PERCENTILES) {
                double base = runs.get(baseline).percentileMs(m, p);
                List<Double> v = new ArrayList<>();
                List<Double> d = new ArrayList<>();
                List<Double> pct = new ArrayList<>();
                List<Boolean> thin = new ArrayList<>();
                for (RunInfo r : runs) {
                    thin.add(!r.enoughSamples(m, p));
                    double x = r.percentileMs(m, p);
                    v.add(x);
                    double delta = Double.isNaN(x) || Double.isNaN(base) ? Double.NaN : x - base;
                    d.add(delta);
                    pct.add(Double.isNaN(delta) || base == 0 ? Double.NaN : 100 * delta / base);
                }
                rows.add(new Row(m, p, v, d, pct, thin));
            }
        }
        return rows;
    }
}
