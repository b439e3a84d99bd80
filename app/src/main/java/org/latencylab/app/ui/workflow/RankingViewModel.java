package org.latencylab.app.ui.workflow;

import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.HtmlReport;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.run.RunViewModel;
import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.CompareEndpointsSpec;
import org.latencylab.engine.compare.EndpointRanking;
import org.latencylab.engine.compare.TargetEntry;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.SloBudget;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * State of the Rankings tab: which simulator profiles to rank, how many requests, the last ranking, the SLO
 * budget calculator and the report export. Runs go through the window's {@link RunViewModel}, so progress,
 * cancel (Esc) and history behave as for any run. UI thread only (JavaFX properties); testable without the toolkit.
 */
public final class RankingViewModel {
    /**
     * One line of the ranking table, formatted for display (units included).
     *
     * @param rank          1 = best
     * @param endpoint      endpoint (here the simulator profile) name
     * @param requests      successful requests
     * @param ttftP50       TTFT P50 with its 95 % interval, e.g. {@code 84.5 ms [80.5 ms, 87.9 ms]}
     * @param ttftP95       TTFT P95 with its interval
     * @param e2eP95        E2E P95 with its interval
     * @param tier          tier of the P95 TTFT, or "–"
     * @param sloAttainment share of requests meeting the SLO, e.g. {@code 95.0 %}, or "–"
     * @param errorRate     share of failed requests
     */
    public record Row(int rank, String endpoint, long requests, String ttftP50, String ttftP95, String e2eP95,
                      String tier, String sloAttainment, String errorRate) {
    }

    private final UiExecutor executor;
    private final RunViewModel run;
    private final Supplier<Path> runsDir;
    private final ObservableList<String> selected = FXCollections.observableArrayList();
    private final IntegerProperty requests = new SimpleIntegerProperty(30);
    private final IntegerProperty promptTokens = new SimpleIntegerProperty(512);
    private final StringProperty sloTtftMs = new SimpleStringProperty("300");
    private final IntegerProperty monitorIntervalSeconds = new SimpleIntegerProperty(10);
    private final IntegerProperty monitorMinutes = new SimpleIntegerProperty(60);
    private java.util.concurrent.ScheduledExecutorService poller;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper verdicts = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<EndpointRanking.Ranking> ranking = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final StringProperty slaP95 = new SimpleStringProperty("1200ms");
    private final StringProperty infraP95 = new SimpleStringProperty("180ms");
    private final StringProperty margin = new SimpleStringProperty("0.2");
    private final ReadOnlyStringWrapper modelSlo = new ReadOnlyStringWrapper("");
    private final ObjectProperty<Path> reportFile = new SimpleObjectProperty<>();
    private Runnable onImported = () -> { };
    private final StringProperty slaCells = new SimpleStringProperty(
            "e2e:p99:4000, ttft:p99:1500, output_tokens_per_s:min:20");
    private final ReadOnlyStringWrapper slaVerdict = new ReadOnlyStringWrapper("");

    /**
     * @param executor background work (report export)
     * @param run      the window's run view model
     * @param runsDir  where run directories go
     */
    public RankingViewModel(UiExecutor executor, RunViewModel run, Supplier<Path> runsDir) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.run = Objects.requireNonNull(run, "run");
        this.runsDir = Objects.requireNonNull(runsDir, "runsDir");
        run.lastResultProperty().addListener((o, a, r) -> show(r));
        slaP95.addListener((o, a, b) -> computeBudget());
        infraP95.addListener((o, a, b) -> computeBudget());
        margin.addListener((o, a, b) -> computeBudget());
        computeBudget();
    }

    /** @return simulator profiles chosen for the ranking (at least two to start) */
    public ObservableList<String> selectedProfiles() {
        return selected;
    }

    /** @return requests per endpoint */
    public IntegerProperty requestsProperty() {
        return requests;
    }

    /** @return prompt tokens of each request */
    public IntegerProperty promptTokensProperty() {
        return promptTokens;
    }

    /** @return TTFT threshold of the SLO attainment column, ms (blank = none) */
    public StringProperty sloTtftMsProperty() {
        return sloTtftMs;
    }

    /**
     * Starts the ranking: a {@code compare-endpoints} run over the selected profiles.
     *
     * @return true when started; false (with {@link #messageProperty()} saying why) when the input is incomplete
     */
    public boolean start() {
        return launch(false);
    }

    /**
     * Starts a {@code monitor} of the selected profiles (one probe per endpoint every
     * {@link #monitorIntervalSecondsProperty()} seconds for {@link #monitorMinutesProperty()} minutes); while it
     * runs the table is refreshed from its {@code monitor.json} every 2 s (the live view).
     *
     * @return true when started; false (with a message) when the input is incomplete
     */
    public boolean startMonitor() {
        return launch(true);
    }

    /** @return seconds between two probes of one endpoint in a monitor, &gt;= 1 */
    public IntegerProperty monitorIntervalSecondsProperty() {
        return monitorIntervalSeconds;
    }

    /** @return total monitoring time, minutes, &gt;= 1 */
    public IntegerProperty monitorMinutesProperty() {
        return monitorMinutes;
    }

    private boolean launch(boolean monitor) {
        if (selected.size() < (monitor ? 1 : 2)) {
            message.set(monitor ? "choose at least one endpoint to monitor" : "choose at least two endpoints to rank");
            return false;
        }
        if (run.runningProperty().get()) {
            message.set("a run is going on; wait for it or cancel it (Esc)");
            return false;
        }
        List<TargetEntry> entries = selected.stream().map(p -> TargetEntry.simulator(p, p)).toList();
        List<org.latencylab.engine.stats.Slo> slos;
        try {
            String t = sloTtftMs.get() == null ? "" : sloTtftMs.get().strip();
            slos = t.isEmpty() ? List.of()
                    : List.of(org.latencylab.engine.stats.Slo.ofMillis("ttft", 95.0, Double.parseDouble(t)));
            org.latencylab.engine.run.ExperimentSpec spec = monitor
                    ? new org.latencylab.engine.monitor.MonitorSpec(entries,
                    Duration.ofSeconds(Math.max(1, monitorIntervalSeconds.get())),
                    Duration.ofMinutes(Math.max(1, monitorMinutes.get())), promptTokens.get(), 16, true, slos, null, null,
                    "ttft")
                    : new CompareEndpointsSpec(entries, requests.get(), 1, promptTokens.get(), 16, true, true, 1, "ttft",
                    slos);
            RunSpec rs = new RunSpec(monitor ? "monitor" : "rank-endpoints", TargetSpec.simulator("zero-latency"), null,
                    null, List.of(spec), null, null, 42);
            message.set(monitor ? "monitoring " + String.join(", ", selected) + " for " + monitorMinutes.get()
                    + " min (live ranking below; Esc stops, and the same run can be resumed from the command line)…"
                    : "ranking " + String.join(", ", selected) + " (" + requests.get() + " requests each)…");
            rows.clear();
            run.start(rs, runsDir.get());
            if (monitor) {
                startPolling();
            }
            return true;
        } catch (IllegalArgumentException e) {
            message.set(e.getMessage().startsWith("For input") ? "SLO: '" + sloTtftMs.get() + "' is not a number of ms"
                    : e.getMessage());
            return false;
        }
    }

    /** Reads the running monitor's state file every 2 s and shows its live ranking. */
    private void startPolling() {
        stopPolling();
        poller = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "latencylab-monitor-view");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(() -> executor.onUi(() -> {
            Path dir = run.runDirectoryProperty().get();
            if (!run.runningProperty().get()) {
                return;
            }
            if (dir != null) {
                executor.submit("monitor state", () -> readState(
                        org.latencylab.engine.results.RunLayout.monitorState(dir, "monitor")), this::showLive,
                        (Throwable t) -> { });
            }
        }), 2, 2, java.util.concurrent.TimeUnit.SECONDS);
    }

    private void stopPolling() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
    }

    private static List<Row> readState(Path file) {
        org.latencylab.engine.monitor.LiveRanking live = org.latencylab.engine.monitor.LiveRanking.read(file);
        if (live == null) {
            return null;
        }
        java.util.List<Row> out = new java.util.ArrayList<>();
        for (org.latencylab.engine.monitor.LiveRanking.Endpoint e : live.endpoints()) {
            out.add(new Row(e.rank(), e.name() == null ? "" : e.name(), e.succeeded(), Units.ms(e.ttftMs().p50()),
                    Units.ms(e.ttftMs().p95()), Units.ms(e.e2eMs().p95()), e.tier() == null ? "–" : e.tier(),
                    Units.percent(e.slaAttainment()), Units.percent(e.errorRate())));
        }
        return out;
    }

    private void showLive(List<Row> live) {
        if (live != null && run.runningProperty().get()) {
            rows.setAll(live);
            verdicts.set("live from monitor.json (updated every few seconds; intervals and significance when the"
                    + " monitor ends)");
        }
    }

    private void show(RunResult r) {
        if (r == null) {
            return;
        }
        stopPolling();
        for (RunResult.StepOutcome s : r.steps()) {
            EndpointRanking.Ranking found = s.result() instanceof CompareEndpointsRunner.CompareResult c ? c.ranking()
                    : s.result() instanceof org.latencylab.engine.monitor.MonitorRunner.MonitorResult m ? m.ranking()
                    : null;
            if (found != null) {
                ranking.set(found);
                rows.setAll(found.rows().stream().map(RankingViewModel::row).toList());
                StringBuilder sb = new StringBuilder();
                for (EndpointRanking.NeighbourTest t : found.neighbours()) {
                    sb.append(String.format(Locale.ROOT, "%s vs %s: P95 TTFT differs by %s [%s, %s] → %s%n",
                            t.better(), t.worse(), Units.ms(t.difference().differenceMillis()),
                            Units.ms(t.difference().lowerMillis()), Units.ms(t.difference().upperMillis()),
                            t.significant() ? "significantly different" : "not significantly different"));
                }
                sb.append("Method: ").append(found.method());
                verdicts.set(sb.toString());
                message.set("ranked " + rows.size() + " endpoints; run directory " + r.runDirectory());
                return;
            }
        }
    }

    private static Row row(EndpointRanking.Row r) {
        return new Row(r.rank(), r.endpoint(), r.succeeded(), est(r.ttftP50()), est(r.ttftP95()), est(r.e2eP95()),
                r.tier() == null ? "–" : r.tier(), Units.percent(r.sloAttainment()), Units.percent(r.errorRate()));
    }

    private static String est(PercentileEstimate p) {
        return p == null ? "–" : Units.ms(p.valueMillis()) + " [" + Units.ms(p.lowerMillis()) + ", "
                + Units.ms(p.upperMillis()) + "]";
    }

    /** @return the ranking table, best first */
    public ObservableList<Row> rows() {
        return rows;
    }

    /** @return the last ranking (for the chart), or null */
    public ReadOnlyObjectProperty<EndpointRanking.Ranking> rankingProperty() {
        return ranking.getReadOnlyProperty();
    }

    /** @return which neighbours differ significantly, one line each, and the method */
    public ReadOnlyStringProperty verdictsProperty() {
        return verdicts.getReadOnlyProperty();
    }

    /** @return the last status or error message of this tab */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** @return SLA P95 of the budget calculator, a duration such as {@code 1200ms} */
    public StringProperty slaP95Property() {
        return slaP95;
    }

    /** @return infrastructure P95 of the budget calculator, a duration such as {@code 180ms} */
    public StringProperty infraP95Property() {
        return infraP95;
    }

    /** @return safety margin of the budget calculator, a fraction in [0, 1) */
    public StringProperty marginProperty() {
        return margin;
    }

    /** @return the model SLO ({@code (SLA_p95 − infra_p95) × (1 − margin)}) or why it cannot be computed */
    public ReadOnlyStringProperty modelSloProperty() {
        return modelSlo.getReadOnlyProperty();
    }

    private void computeBudget() {
        try {
            Duration sla = DurationText.parse(slaP95.get());
            Duration infra = DurationText.parse(infraP95.get());
            double m = Double.parseDouble(margin.get().strip());
            Duration model = SloBudget.modelSlo(sla, infra, m);
            modelSlo.set(String.format(Locale.ROOT, "model SLO (P95) = (%s − %s) × (1 − %s) = %s",
                    Units.ms(sla.toNanos() / 1e6), Units.ms(infra.toNanos() / 1e6), margin.get().strip(),
                    Units.ms(model.toNanos() / 1e6)));
        } catch (NumberFormatException e) {
            modelSlo.set("margin: '" + margin.get() + "' is not a number; write e.g. 0.2");
        } catch (IllegalArgumentException | NullPointerException e) {
            modelSlo.set(e.getMessage() == null ? "fill in SLA P95, infrastructure P95 and margin" : e.getMessage());
        }
    }

    /**
     * Writes the HTML report of the run on screen in the background.
     *
     * @param file the HTML file
     * @return false (with a message) when there is no finished run to report
     */
    public boolean exportReport(Path file) {
        Path dir = run.runDirectoryProperty().get();
        if (dir == null || run.runningProperty().get()) {
            message.set("no finished run on screen to report");
            return false;
        }
        message.set("writing " + file.getFileName() + "…");
        executor.submit("report", () -> HtmlReport.write(List.of(dir), 0, file), p -> {
            reportFile.set(p);
            message.set("report written: " + p);
        }, (Throwable t) -> message.set("report failed: " + UiExecutor.describe(t)));
        return true;
    }

    /** @return SLO matrix cells, comma-separated {@code METRIC:pNN:MAX_MS} or {@code output_tokens_per_s:min:N} */
    public StringProperty slaCellsProperty() {
        return slaCells;
    }

    /** @return the SLO matrix verdict of the run on screen: one line per step, pass/fail per cell */
    public ReadOnlyStringProperty slaVerdictProperty() {
        return slaVerdict.getReadOnlyProperty();
    }

    /**
     * Judges the run on screen against the SLO matrix in the background (reads its {@code run.json}).
     *
     * @return false (with the reason in the verdict) when the cells are malformed or no finished run is on screen
     */
    public boolean judgeSla() {
        org.latencylab.engine.sla.SlaMatrix matrix;
        try {
            matrix = new org.latencylab.engine.sla.SlaMatrix(java.util.Arrays.stream(slaCells.get().split(","))
                    .map(String::strip).filter(c -> !c.isEmpty()).map(org.latencylab.engine.sla.SlaMatrix.Cell::parse)
                    .toList());
        } catch (IllegalArgumentException e) {
            slaVerdict.set(e.getMessage());
            return false;
        }
        Path dir = run.runDirectoryProperty().get();
        if (dir == null || run.runningProperty().get()) {
            slaVerdict.set("no finished run on screen to judge");
            return false;
        }
        executor.submit("SLO matrix", () -> matrix.judge(org.latencylab.engine.results.RunDocument.read(dir,
                org.latencylab.engine.scenario.StepCatalog.types())), rows -> {
            StringBuilder sb = new StringBuilder();
            for (org.latencylab.engine.sla.SlaMatrix.Row row : rows) {
                sb.append(row.step()).append(row.passed() ? ": PASS" : ": FAIL");
                for (org.latencylab.engine.sla.SlaMatrix.Verdict v : row.verdicts()) {
                    String measured = v.cell().percentile() == null
                            ? (Double.isNaN(v.measured()) ? "–" : String.format(Locale.ROOT, "%.1f tok/s", v.measured()))
                            : Units.ms(v.measured());
                    sb.append(" · ").append(v.cell().label()).append(v.passed() ? " pass (" : " FAIL (")
                            .append(measured).append(')');
                }
                sb.append('\n');
            }
            slaVerdict.set(sb.toString().strip());
        }, (Throwable t) -> slaVerdict.set("SLO matrix failed: " + UiExecutor.describe(t)));
        return true;
    }

    /** @param action called on the UI thread after a result file was imported into the runs folder */
    public void setOnImported(Runnable action) {
        onImported = Objects.requireNonNull(action, "action");
    }

    /**
     * Imports another tool's result file (vLLM bench, GuideLLM, AIPerf; the tool is recognised from the file) into
     * the runs folder in the background, so it shows in the history like any run.
     *
     * @param file the result file
     */
    public void importResults(Path file) {
        message.set("importing " + file.getFileName() + "…");
        executor.submit("import", () -> {
            org.latencylab.engine.importer.ImportedRun r =
                    org.latencylab.engine.importer.ResultImporter.read(file, null);
            String name = "import-" + r.tool().id() + "-" + java.time.LocalDateTime.now().format(
                    java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
            return org.latencylab.engine.importer.ImportWriter.write(r, runsDir.get().resolve(name));
        }, dir -> {
            message.set("imported into " + dir + " (see the history)");
            onImported.run();
        }, (Throwable t) -> message.set("import failed: " + UiExecutor.describe(t)));
    }

    /** @return the last report written, or null */
    public ObjectProperty<Path> reportFileProperty() {
        return reportFile;
    }
}
