package org.latencylab.app.ui;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.endpoint.EndpointsViewModel;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.app.ui.history.CompareViewModel;
import org.latencylab.app.ui.history.HistoryViewModel;
import org.latencylab.app.ui.history.RunEntry;
import org.latencylab.app.ui.history.RunStore;
import org.latencylab.app.ui.results.ResultsViewModel;
import org.latencylab.app.ui.run.RunViewModel;
import org.latencylab.app.ui.settings.AppDirectories;
import org.latencylab.app.ui.settings.AppSettings;
import org.latencylab.app.ui.settings.SettingsStore;
import org.latencylab.app.ui.settings.SettingsViewModel;
import org.latencylab.app.ui.settings.Theme;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.app.ui.steps.SavedSteps;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.app.ui.steps.StepsViewModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The window's state: owns the view models of every part, loads and saves the settings, starts runs. Holds no
 * JavaFX nodes. Not thread-safe: call it on the UI thread (disk and network work goes through the
 * {@link UiExecutor}).
 */
public final class MainViewModel {
    private final UiExecutor executor;
    private final AppDirectories dirs;
    private final SettingsStore store;
    private final EndpointsViewModel endpoints;
    private final ExperimentViewModel experiment = new ExperimentViewModel();
    private final ResultsViewModel results;
    private final RunViewModel run;
    private final org.latencylab.app.ui.workflow.RankingViewModel ranking;
    private final HistoryViewModel history;
    private final CompareViewModel compare;
    private final org.latencylab.app.ui.lens.DefinitionsViewModel definitions;
    private final SettingsViewModel settingsVm;
    private final ObjectProperty<Theme> theme = new SimpleObjectProperty<>(Theme.LIGHT);
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final StepsViewModel steps = new StepsViewModel();
    private final org.latencylab.app.ui.serverbench.ServerBenchViewModel serverBench =
            new org.latencylab.app.ui.serverbench.ServerBenchViewModel();
    private long viewed;
    private AppSettings settings = AppSettings.DEFAULTS;
    private boolean loaded;

    /**
     * @param executor  background work and UI hand-off
     * @param dirs      config and data folders
     * @param launcher  starts runs (the engine in the app)
     * @param env       environment lookup (API key preview)
     * @param profiles  built-in simulator profiles
     */
    public MainViewModel(UiExecutor executor, AppDirectories dirs, RunViewModel.RunLauncher launcher,
                         Function<String, String> env, List<String> profiles) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.dirs = Objects.requireNonNull(dirs, "dirs");
        this.store = SettingsStore.at(dirs.settingsFile());
        this.endpoints = new EndpointsViewModel(executor, env, profiles);
        this.results = new ResultsViewModel();
        this.run = new RunViewModel(executor, launcher, results);
        this.history = new HistoryViewModel(executor, new RunStore(dirs.runsDir()));
        this.compare = new CompareViewModel(executor);
        this.definitions = new org.latencylab.app.ui.lens.DefinitionsViewModel(executor);
        this.settingsVm = new SettingsViewModel();
        run.setOnStarted(spec -> {
            viewed++;
            steps.reset(spec);
            serverBench.reset();
        });
        run.setOnProgress(p -> {
            steps.accept(p);
            serverBench.accept(p);
            if (p instanceof org.latencylab.engine.transport.TransportsProgress t) {
                results.showTransportsSoFar(t.soFar());
            }
        });
        run.setOnFinished(r -> {
            steps.showRun(r);
            history.refresh();
        });
        results.stepProperty().addListener((o, a, s) -> {
            if (s != null && s.result() instanceof org.latencylab.engine.server.ServerBenchResult b) {
                org.latencylab.engine.run.RunResult r = results.resultProperty().get();
                serverBench.showResult(r == null ? "" : r.name(), r == null ? null : r.runDirectory(), b);
            }
        });
        this.ranking = new org.latencylab.app.ui.workflow.RankingViewModel(executor, run, this::runsDir);
        ranking.setOnImported(history::refresh);
        history.setOnOpen(this::showSaved);
        theme.addListener((o, a, b) -> save());
        endpoints.setOnChange(this::save);
    }

    /**
     * Applies settings read elsewhere (the app reads them before the window opens, off the UI thread).
     *
     * @param loadedSettings the settings and an optional message (e.g. a corrupt file was moved aside)
     */
    public void apply(SettingsStore.Loaded loadedSettings) {
        loaded = false;
        settings = loadedSettings.settings();
        endpoints.load(settings);
        experiment.fromDraft(settings.lastExperiment());
        theme.set(Theme.fromId(settings.theme()));
        settingsVm.load(settings, dirs.dataDir());
        history.setStore(new RunStore(runsDir()));
        if (loadedSettings.message() != null) {
            message.set(loadedSettings.message());
        }
        loaded = true;
    }

    /** Reads the settings in the background, then applies them. */
    public void loadSettings() {
        executor.submit("load settings", store::load, this::apply, message::set);
    }

    /**
     * @return the folder run directories go to: {@code -Dlatencylab.data.dir} when given, else the settings' data
     *         folder, else the OS data folder; always {@code <data>/runs}
     */
    public Path runsDir() {
        return dirs.dataDirFixed() || settings.dataDir() == null ? dirs.runsDir()
                : Path.of(settings.dataDir()).resolve("runs");
    }

    /** Collects the state of every part into the settings and writes them in the background. */
    public void save() {
        if (!loaded) {
            return;
        }
        settings = endpoints.storeInto(settings).withTheme(theme.get()).withLastExperiment(experiment.toDraft());
        AppSettings snapshot = settings;
        executor.submit("save settings", () -> {
            store.save(snapshot);
            return snapshot;
        }, s -> { }, message::set);
    }

    /**
     * Applies the settings form (tier table, SLO, data folder) and saves.
     *
     * @return true when the form was valid; otherwise {@link SettingsViewModel#messageProperty()} says why
     */
    public boolean applySettingsForm() {
        AppSettings next = settingsVm.applyTo(settings);
        if (next == null) {
            return false;
        }
        Path oldRuns = runsDir();
        settings = next;
        save();
        if (!oldRuns.equals(runsDir())) {
            history.setStore(new RunStore(runsDir()));
        }
        return true;
    }

    /** Starts a run of the experiment form against the selected endpoint; a form error goes to the message. */
    public void startRun() {
        if (run.runningProperty().get()) {
            return;
        }
        RunSpec spec;
        try {
            spec = experiment.runSpec(experiment.suggestedName(), endpoints.target(), settings.statsSettings());
        } catch (IllegalArgumentException e) {
            message.set("cannot start: " + e.getMessage());
            return;
        }
        String key = endpoints.keyProblem();
        if (!key.isEmpty()) { // nothing is sent: against a paid API a run without its key is a run of 401s
            message.set("cannot start: " + key);
            return;
        }
        message.set("");
        save();
        run.start(spec, runsDir());
    }

    /**
     * Shows a saved run (reopened from the history): its records in the results and, in the status bar, which run
     * is shown; the status text of the last finished run is cleared so it cannot be taken for this one's.
     *
     * @param e    the run
     * @param recs its records
     */
    public void showSaved(RunEntry e, org.latencylab.engine.run.RunResult r) {
        String title = e.title() + " · " + e.endpoint();
        if (!run.runningProperty().get()) {
            serverBench.reset();
        }
        results.reset(title);
        results.show(title, r);
        if (!run.runningProperty().get()) {
            steps.reset(r.spec() == null ? settings.statsSettings() : r.spec().stats());
            run.clearStatus();
            long token = ++viewed;
            executor.submit("read steps", () -> SavedSteps.read(e.directory()), (SavedSteps s) -> {
                if (token == viewed && !run.runningProperty().get()) {
                    steps.showSaved(s);
                }
            }, (Throwable t) -> { }); // a run without readable steps still shows its results
        }
        message.set("viewing " + e.title() + " (" + e.status() + ") · " + e.directory());
    }

    /**
     * Shows one step of the run on screen (selected in the steps table): its results and, for a load step, its
     * seconds in the load panel. Does nothing while a run goes.
     *
     * @param step a step label, e.g. {@code load} or {@code sweep}
     */
    public void showStep(String step) {
        if (run.runningProperty().get()) {
            return;
        }
        results.select(step);
        steps.showStep(step);
    }

    /**
     * Reads a scenario file in the background and runs every step of it against the endpoint it names; a bad file
     * ends in a message naming the file and the field.
     *
     * @param file a scenario ({@code .yaml} or {@code .json})
     */
    public void runScenario(Path file) {
        if (run.runningProperty().get()) {
            message.set("a run is going; cancel it (Esc) before opening a scenario");
            return;
        }
        executor.submit("read scenario", () -> StepCatalog.loader().load(file), (RunSpec spec) -> {
            if (run.runningProperty().get()) {
                return;
            }
            message.set("running scenario " + file.getFileName() + " (" + spec.experiments().size() + " steps)");
            run.start(spec, runsDir());
        }, (Throwable t) -> message.set("cannot run " + file.getFileName() + ": " + UiExecutor.describe(t)));
    }

    /** @return the server-benchmark panel (variants' progress, telemetry, Pareto charts) */
    public org.latencylab.app.ui.serverbench.ServerBenchViewModel serverBench() {
        return serverBench;
    }

    /** @return the load-test, grid and steps panel */
    public StepsViewModel steps() {
        return steps;
    }

    /**
     * Compares saved runs (fewer than two only set the compare view's message).
     *
     * @param runs the runs, the first being the baseline
     */
    public void compare(java.util.List<RunEntry> runs) {
        compare.compare(runs);
    }

    /**
     * Judges a saved run with the app's current tier table and SLOs instead of those it ran with (an explicit
     * action; the results view says so in its notices).
     *
     * @param e the run
     */
    public void rejudge(RunEntry e) {
        history.rejudge(e, settings.statsSettings());
    }

    /** @return the current settings */
    public AppSettings settings() {
        return settings;
    }

    /** @return the folders */
    public AppDirectories directories() {
        return dirs;
    }

    /** @return endpoint list and editor */
    public EndpointsViewModel endpoints() {
        return endpoints;
    }

    /** @return experiment form */
    public ExperimentViewModel experiment() {
        return experiment;
    }

    /** @return results of the run on screen */
    public ResultsViewModel results() {
        return results;
    }

    /** @return the Rankings tab (endpoint ranking, SLO budget, report export) */
    public org.latencylab.app.ui.workflow.RankingViewModel ranking() {
        return ranking;
    }

    /** @return run control */
    public RunViewModel run() {
        return run;
    }

    /** @return saved runs */
    public HistoryViewModel history() {
        return history;
    }

    /** @return the comparison of two runs */
    public CompareViewModel compare() {
        return compare;
    }

    /** @return the Definitions panel of Results (the metric-definition lens) */
    public org.latencylab.app.ui.lens.DefinitionsViewModel definitions() {
        return definitions;
    }

    /** @return the settings form */
    public SettingsViewModel settingsForm() {
        return settingsVm;
    }

    /** @return light or dark */
    public ObjectProperty<Theme> themeProperty() {
        return theme;
    }

    /** @param text a message for the status bar (export done, an error) */
    public void showMessage(String text) {
        message.set(text);
    }

    /** @return the last message for the status bar */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
