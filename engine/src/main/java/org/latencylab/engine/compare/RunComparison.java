package org.latencylab.engine.compare;

import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.results.StepTypes;
import org.latencylab.engine.stats.LatencyCdf;

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

    private RunComparison() {
    }

    /**
     * The TTFT and E2E distributions of a run's successful measured requests (warm-up and cool-down left out), read
     * from its {@code requests.jsonl}, for overlaid CDF charts. Works alike for LatencyLab's runs and imported ones
     * (whose records carry their tool's timings). Blocking (disk).
     *
     * @param run a run
     * @return {@code "ttft"} and {@code "e2e"} → every value in ms, sorted ascending ({@link LatencyCdf#exact()});
     *         empty distributions when the run has no {@code requests.jsonl}
     * @throws IllegalArgumentException when a line of the file is malformed (the message names the file)
     * @throws java.io.UncheckedIOException when the file cannot be read
     */
    public static Map<String, LatencyCdf> distributions(RunDocument run) {
        List<Double> ttft = new ArrayList<>();
        List<Double> e2e = new ArrayList<>();
        run.forEachRequest(r -> {
            if (r.succeeded() && r.measured()) {
                if (r.ttftNanos() >= 0) {
                    ttft.add(Nanos.toMillis(r.ttftNanos()));
                }
                if (r.e2eNanos() >= 0) {
                    e2e.add(Nanos.toMillis(r.e2eNanos()));
                }
            }
        });
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
    public static List<String> labels(List<RunDocument> runs, boolean alwaysTime) {
        List<String> names = runs.stream().map(RunDocument::name).toList();
        List<String> timed = new ArrayList<>();
        for (RunDocument r : runs) {
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
    private static String startText(RunDocument r) {
        java.time.Instant t = r.startedInstant();
        return t == null ? "start unknown" : "started " + java.time.format.DateTimeFormatter.ofPattern(
                "yyyy-MM-dd HH:mm:ss 'UTC'", java.util.Locale.ROOT).withZone(java.time.ZoneOffset.UTC).format(t);
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
     * @param dirs  run directories, at least 1
     * @param types the step types (from the composition root, {@code StepCatalog.types()})
     * @return the runs in the given order
     * @throws IllegalArgumentException when a directory has no readable {@code run.json} of a format this
     *                                  LatencyLab reads (the message names it; see {@link RunDocument#read})
     */
    public static List<RunDocument> load(List<Path> dirs, StepTypes types) {
        if (dirs.isEmpty()) {
            throw new IllegalArgumentException("give at least one run directory");
        }
        return dirs.stream().map(d -> RunDocument.read(d, types)).toList();
    }

    /**
     * @param run        a run
     * @param metric     metric id
     * @param percentile percent
     * @return the percentile's value in ms from the run's pooled summary, or NaN when the run has none
     */
    public static double percentileMs(RunDocument run, String metric, double percentile) {
        return run.percentile(metric, percentile).map(RunDocument.Percentile::valueMs).orElse(Double.NaN);
    }

    /**
     * @param run        a run
     * @param metric     metric id
     * @param percentile percent
     * @return false when the run's summary marks the percentile as resting on fewer than 10 samples above it (an
     *         estimate near the maximum); true otherwise, also when the run does not say (imported runs)
     */
    public static boolean enoughSamples(RunDocument run, String metric, double percentile) {
        return run.percentile(metric, percentile).map(RunDocument.Percentile::enoughSamples).orElse(true);
    }

    /**
     * @param runs     the runs
     * @param baseline index of the baseline run in {@code runs}
     * @return one row per metric and percentile ({@link #METRICS} × {@link #PERCENTILES})
     * @throws IllegalArgumentException when the baseline index is out of range
     */
    public static List<Row> differences(List<RunDocument> runs, int baseline) {
        if (baseline < 0 || baseline >= runs.size()) {
            throw new IllegalArgumentException("baseline must be a run number from 1 to " + runs.size() + ", was "
                    + (baseline + 1));
        }
        List<Row> rows = new ArrayList<>();
        for (String m : METRICS) {
            for (double p : PERCENTILES) {
                double base = percentileMs(runs.get(baseline), m, p);
                List<Double> v = new ArrayList<>();
                List<Double> d = new ArrayList<>();
                List<Double> pct = new ArrayList<>();
                List<Boolean> thin = new ArrayList<>();
                for (RunDocument r : runs) {
                    thin.add(!enoughSamples(r, m, p));
                    double x = percentileMs(r, m, p);
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
