package org.latencylab.engine.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The one owner of a run directory's file names: every writer and reader of run directories takes them from here,
 * so a renamed or added file is changed in one place.
 *
 * <ul>
 *   <li>{@value #RUN_JSON} — spec, environment, summary and step results ({@link RunFiles} writes it,
 *       {@link RunDocument} reads it); written through {@value #RUN_JSON_TMP} and moved into place;</li>
 *   <li>{@value #REQUESTS_JSONL} — one line per finished request ({@link RequestLog});</li>
 *   <li>{@value #SUMMARY_CSV} — one row per step and metric;</li>
 *   <li>{@code *}{@value #HLOG_SUFFIX} — HdrHistogram interval logs of load and monitor steps;</li>
 *   <li>{@code *.png} chart images whose names start with one of {@link #CHART_PREFIXES};</li>
 *   <li>{@value #MONITOR_JSON_SUFFIX} files ({@code LABEL.json}) — a monitor step's state and live ranking;</li>
 *   <li>{@value #APP_JSON} — the desktop app's own data about a run (its title), never written by the engine.</li>
 * </ul>
 * {@value #REPORT_HTML} is the default name of an HTML report, which is written wherever the user says.
 *
 * <p>Stateless and thread-safe.
 */
public final class RunLayout {
    /** File name of the run description. */
    public static final String RUN_JSON = "run.json";
    /** Temporary file {@value #RUN_JSON} is written to before it is moved over the old one. */
    public static final String RUN_JSON_TMP = RUN_JSON + ".tmp";
    /** File name of the request log, one JSON object per finished request. */
    public static final String REQUESTS_JSONL = "requests.jsonl";
    /** File name of the CSV summary. */
    public static final String SUMMARY_CSV = "summary.csv";
    /** How the names of HdrHistogram interval logs end. */
    public static final String HLOG_SUFFIX = ".hlog";
    /** How a monitor step's state file ({@code LABEL.json}) ends. */
    public static final String MONITOR_JSON_SUFFIX = ".json";
    /** The desktop app's own data about a run (its title); the engine's files are never modified by the app. */
    public static final String APP_JSON = "app.json";
    /** Default file name of an HTML report. */
    public static final String REPORT_HTML = "report.html";
    /** Files whose presence means the directory already holds a run. */
    public static final List<String> RUN_MARKERS = List.of(RUN_JSON, REQUESTS_JSONL);
    /**
     * How the names of the chart images a run's charts are written to begin ({@code charts} module:
     * {@code ResultCharts}, {@code EndpointCharts}, {@code ServerBenchCharts}); a chart with a new name needs its
     * prefix here, or {@code --overwrite} leaves the earlier run's image of that chart behind.
     */
    public static final List<String> CHART_PREFIXES = List.of("cdf-", "baseline-cdf-", "ranking-", "sweep-fit",
            "load-over-time-", "grid-heatmap-", "transports-first-screen-", "pareto-", "batching-heatmap-");

    private RunLayout() {
    }

    /** @param dir a run directory @return its {@value #RUN_JSON} */
    public static Path runJson(Path dir) {
        return dir.resolve(RUN_JSON);
    }

    /** @param dir a run directory @return its {@value #REQUESTS_JSONL} */
    public static Path requests(Path dir) {
        return dir.resolve(REQUESTS_JSONL);
    }

    /** @param dir a run directory @return its {@value #SUMMARY_CSV} */
    public static Path summaryCsv(Path dir) {
        return dir.resolve(SUMMARY_CSV);
    }

    /** @param dir a run directory @return the app's {@value #APP_JSON} in it */
    public static Path appJson(Path dir) {
        return dir.resolve(APP_JSON);
    }

    /**
     * @param dir   a run directory
     * @param label a monitor step's label
     * @return that step's state file, {@code LABEL.json}
     */
    public static Path monitorState(Path dir, String label) {
        return dir.resolve(label + MONITOR_JSON_SUFFIX);
    }

    /**
     * @param dir a run directory
     * @return true when it holds a {@value #RUN_JSON} (a run directory, LatencyLab's or an imported one)
     */
    public static boolean isRunDirectory(Path dir) {
        return Files.isRegularFile(runJson(dir));
    }

    /**
     * @param fileName a file name (no directory)
     * @return true for the files a run writes: {@value #RUN_JSON} (and its temporary file), {@value #REQUESTS_JSONL},
     * {@value #SUMMARY_CSV}, HdrHistogram logs {@code *.hlog} and the chart images the {@code charts} module writes
     * ({@code .png} files whose names start with one of {@link #CHART_PREFIXES})
     */
    public static boolean isRunFile(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return n.equals(RUN_JSON) || n.equals(RUN_JSON_TMP) || n.equals(REQUESTS_JSONL) || n.equals(SUMMARY_CSV)
                || n.endsWith(HLOG_SUFFIX) || n.endsWith(".png") && CHART_PREFIXES.stream().anyMatch(n::startsWith);
    }

    /**
     * @param dir a run directory
     * @return its PNG images (charts the run drew), sorted by file name; empty when there are none
     * @throws UncheckedIOException when the directory cannot be listed
     */
    public static List<Path> images(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".png")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
