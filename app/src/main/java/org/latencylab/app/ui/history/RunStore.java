package org.latencylab.app.ui.history;

import org.latencylab.engine.results.RunLayout;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The run directories under one folder. Blocking (disk): call it off the UI thread. Thread-safe (no state besides
 * the folder; concurrent renames of the same run are last-writer-wins).
 */
public final class RunStore {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path runsDir;

    /** @param runsDir folder holding run directories (need not exist yet) */
    public RunStore(Path runsDir) {
        this.runsDir = Objects.requireNonNull(runsDir, "runsDir");
    }

    /** @return the folder */
    public Path runsDir() {
        return runsDir;
    }

    /**
     * @return every directory with a readable {@code run.json}, newest first; unreadable ones are skipped
     * @throws UncheckedIOException when the folder exists but cannot be listed
     */
    public List<RunEntry> list() {
        if (!Files.isDirectory(runsDir)) {
            return List.of();
        }
        List<RunEntry> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(runsDir)) {
            for (Path dir : s.filter(Files::isDirectory).toList()) {
                RunEntry e = read(dir);
                if (e != null) {
                    out.add(e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + runsDir + ": " + e.getMessage(), e);
        }
        out.sort(Comparator.comparing((RunEntry e) -> e.startedAt() == null ? Instant.EPOCH : e.startedAt())
                .reversed().thenComparing(e -> e.directory().getFileName().toString(), Comparator.reverseOrder()));
        return out;
    }

    /**
     * @param dir a run directory
     * @return its entry, or null when it has no readable {@code run.json}
     */
    public RunEntry read(Path dir) {
        if (!RunLayout.isRunDirectory(dir)) {
            return null;
        }
        RunDocument n;
        try {
            n = RunDocument.read(dir, StepCatalog.types());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return null;
        }
        String title = n.name();
        Path app = RunLayout.appJson(dir);
        if (Files.isRegularFile(app)) {
            try {
                String t = JSON.readValue(app.toFile(), AppData.class).title();
                if (t != null && !t.isBlank()) {
                    title = t;
                }
            } catch (IOException e) {
                // an unreadable title file: the run's own name is shown
            }
        }
        List<String> kinds = new ArrayList<>();
        if (n.spec() != null) {
            n.spec().experiments().forEach(ex -> kinds.add(ex.type()));
        }
        if (kinds.isEmpty()) {
            n.steps().forEach(st -> kinds.add(st.type()));
        }
        return new RunEntry(dir, title, n.name(), n.status() == null ? "unknown" : n.status(), n.startedInstant(),
                n.endpoint() == null ? "" : n.endpoint(), String.join("+", kinds),
                n.summary() == null ? -1 : n.summary().sent());
    }

    /**
     * The app's own data about a run, kept in {@value RunLayout#APP_JSON}.
     *
     * @param title the run's display title, or null
     */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
    public record AppData(@com.fasterxml.jackson.annotation.JsonProperty("title") String title) {
    }

    /**
     * Opens a run as the engine concluded it (its own tier table, SLOs and statistics settings). A run whose
     * {@code run.json} still says {@code running} (the process was killed) is recovered first: its
     * {@code run.json} and {@code summary.csv} are rebuilt from {@code requests.jsonl} with status
     * {@code interrupted}, as {@code latencylab summarize} does.
     *
     * @param dir run directory
     * @return the engine's result model
     * @throws IllegalArgumentException when a file is malformed or of a newer format (the message says which)
     * @throws UncheckedIOException     when a file cannot be read or written
     */
    public RunResult open(Path dir) {
        return StepCatalog.reader().recover(dir);
    }

    /**
     * Judges a saved run with other settings than those it ran with (an explicit user action; the result says so).
     *
     * @param dir      run directory
     * @param settings tier table, tier metric and SLOs to judge with
     * @return the re-judged result model (nothing is written)
     * @throws IllegalArgumentException as {@link #open}, or when the settings do not fit the run
     * @throws UncheckedIOException     when a file cannot be read
     */
    public RunResult rejudge(Path dir, StatsSettings settings) {
        return StepCatalog.reader().rejudge(dir, settings);
    }

    /**
     * Sets a run's display title (kept in {@value RunLayout#APP_JSON}).
     *
     * @param dir   run directory
     * @param title new title; not blank
     * @throws IllegalArgumentException when the title is blank
     * @throws UncheckedIOException     when the file cannot be written
     */
    public void rename(Path dir, String title) {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("a run title must not be blank");
        }
        Path app = RunLayout.appJson(dir);
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(app.toFile(), new AppData(title.strip()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + app + ": " + e.getMessage(), e);
        }
    }

    /**
     * Deletes a run directory and everything in it.
     *
     * @param dir run directory; must be inside this store's folder
     * @throws IllegalArgumentException when {@code dir} is not directly inside the runs folder
     * @throws UncheckedIOException     when a file cannot be deleted
     */
    public void delete(Path dir) {
        if (!Objects.equals(dir.toAbsolutePath().normalize().getParent(), runsDir.toAbsolutePath().normalize())) {
            throw new IllegalArgumentException(dir + " is not a run directory of " + runsDir);
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
