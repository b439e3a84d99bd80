package org.latencylab.app.ui;

import org.latencylab.app.ui.controls.Controls;
import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Separator;
import javafx.scene.control.Spinner;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.ToolBar;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.stage.FileChooser;
import javafx.stage.Window;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.endpoint.EndpointsView;
import org.latencylab.app.ui.experiment.ExperimentView;
import org.latencylab.app.ui.export.DataExport;
import org.latencylab.app.ui.history.CompareView;
import org.latencylab.app.ui.history.HistoryView;
import org.latencylab.app.ui.results.MetricGlossary;
import org.latencylab.charts.results.ResultCharts;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.stats.TierTable;
import org.latencylab.app.ui.results.ResultsView;
import org.latencylab.app.ui.settings.SettingsView;
import org.latencylab.app.ui.settings.Theme;
import org.latencylab.app.ui.steps.StepsView;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.export.ChartImages;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The main window, built in code: a tool bar (run, cancel, export, compare, theme), a side bar (endpoints above,
 * history below), tabs (Endpoint, Experiment, Results, Compare, Settings, Rankings) and a status bar (progress bar,
 * counts, ETA, messages). Keyboard (from any focus): Ctrl+R run, Ctrl+O open scenario, Esc cancel, Ctrl+E export
 * chart, Ctrl+Shift+C copy chart image, Ctrl+D compare, Ctrl+N new endpoint, Ctrl+I import curl, Ctrl+T theme,
 * Ctrl+1…6 tabs. Build and use on the JavaFX thread.
 */
public final class MainView {
    private final MainViewModel vm;
    private final UiExecutor executor;
    private final BorderPane root = new BorderPane();
    private final TabPane tabs = new TabPane();
    private final Tab resultsTab;
    private final Tab compareTab;
    private final ResultsView results;
    private final CompareView compare;
    private final EndpointsView endpoints;
    private final HistoryView history;
    private final StepsView steps;
    private final org.latencylab.app.ui.serverbench.ServerBenchView serverBench;
    private final Label message = new Label();
    private final java.util.Map<KeyCombination, Runnable> shortcuts = new java.util.LinkedHashMap<>();
    private Scene scene;

    /**
     * @param vm       the window's view model
     * @param executor background work (exports)
     */
    public MainView(MainViewModel vm, UiExecutor executor) {
        this.vm = Objects.requireNonNull(vm, "vm");
        this.executor = Objects.requireNonNull(executor, "executor");
        endpoints = new EndpointsView(vm.endpoints());
        ExperimentView experiment = new ExperimentView(vm.experiment());
        results = new ResultsView(vm.results());
        results.setChartActions(this::exportChartDialog);
        steps = new StepsView(vm.steps(), vm::showStep);
        serverBench = new org.latencylab.app.ui.serverbench.ServerBenchView(vm.serverBench());
        serverBench.setExports(new org.latencylab.app.ui.serverbench.ServerBenchView.Exports() {
            @Override
            public void png(String fileName, java.util.function.Supplier<? extends javafx.scene.layout.Region> build) {
                pngDialog(fileName, (size, f) -> executor.submit("export PNG", () -> {
                    ChartImages.writePng(build, size[0], size[1], size[2], f);
                    return f;
                }, (Path p) -> status("wrote " + p), MainView.this::status));
            }

            @Override
            public void csv(String fileName, Path source) {
                File f = chooser("CSV", "*.csv", fileName).showSaveDialog(window());
                if (f != null) {
                    executor.submit("export CSV", () -> java.nio.file.Files.copy(source, f.toPath(),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING), (Path p) -> status("wrote " + p),
                            MainView.this::status);
                }
            }
        });
        results.setServerBenchPane(serverBench.root());
        compare = new CompareView(vm.compare(), ChartTheme.LIGHT);
        history = new HistoryView(vm.history(), this::compare, vm::rejudge);
        SettingsView settings = new SettingsView(vm.settingsForm(), vm.themeProperty(), vm::applySettingsForm);

        Tab endpointTab = tab("Endpoint", endpoints.editor(), "Edit the selected endpoint; test the connection");
        Tab experimentTab = tab("Experiment", experiment.root(), "Probe, context sweep, load test, grid, transports"
                + " or server benchmark");
        resultsTab = tab("Results", resultsPane(), "Live charts and the summary of the run on screen");
        compareTab = tab("Compare", compare.root(), "Saved runs side by side: CDFs and differences against a"
                + " baseline run");
        Tab settingsTab = tab("Settings", settings.root(), "Theme, tier table, SLOs, data folder");
        Tab rankingsTab = tab("Rankings", new org.latencylab.app.ui.workflow.RankingView(vm.ranking(),
                vm.endpoints().simProfiles()).root(), "Rank endpoints by P95 TTFT; SLO budget; HTML report");
        tabs.getTabs().setAll(endpointTab, experimentTab, resultsTab, compareTab, settingsTab, rankingsTab);
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getSelectionModel().select(experimentTab);

        SplitPane side = new SplitPane(endpoints.sidebar(), history.root());
        side.setOrientation(Orientation.VERTICAL);
        side.setDividerPositions(0.4);
        SplitPane main = new SplitPane(side, tabs);
        main.setDividerPositions(0.2);
        SplitPane.setResizableWithParent(side, false);
        root.setTop(toolBar());
        root.setCenter(main);
        root.setBottom(statusBar());
        vm.run().runningProperty().addListener((o, a, running) -> {
            if (running) {
                tabs.getSelectionModel().select(resultsTab);
            }
        });
        vm.history().setOnOpen((e, r) -> {
            vm.showSaved(e, r);
            tabs.getSelectionModel().select(resultsTab);
        });
        vm.themeProperty().addListener((o, a, t) -> applyTheme(t));
        message.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            String m = vm.messageProperty().get();
            String s = vm.run().statusProperty().get();
            return m != null && !m.isEmpty() ? m : s;
        }, vm.messageProperty(), vm.run().statusProperty()));
    }

    /**
     * The Results tab: the load-test / grid / steps panel above the results view while it has something to show,
     * the results view alone otherwise.
     */
    private javafx.scene.Node resultsPane() {
        // the results view and, in a second tab, the metric-definition lens of the run shown (read when looked at)
        org.latencylab.app.ui.lens.DefinitionsView definitions =
                new org.latencylab.app.ui.lens.DefinitionsView(vm.definitions());
        Tab charts = new Tab("Charts and table", results.root());
        Tab lens = new Tab("Definitions", definitions.root());
        lens.setId("definitionsTab");
        lens.setTooltip(Controls.tip("TTFT, ITL and TPOT of this run's requests under LatencyLab's, vLLM bench's,"
                + " GuideLLM's and AIPerf's definitions, side by side"));
        TabPane inner = new TabPane(charts, lens);
        inner.setId("resultsTabs");
        inner.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        Runnable showLens = () -> {
            if (lens.isSelected()) {
                vm.definitions().show(vm.results().resultProperty().get());
            }
        };
        lens.selectedProperty().addListener((o, a, b) -> showLens.run());
        vm.results().resultProperty().addListener((o, a, b) -> showLens.run());
        SplitPane split = new SplitPane(inner);
        split.setOrientation(Orientation.VERTICAL);
        // the steps panel is added above the results and removed again; the results stay where they are: taking them
        // out and putting them back (setAll) re-applied CSS to every node of the results view and laid all of it out
        // again on the FX thread, which stalled it when the panel first showed during a load test
        Runnable layout = () -> {
            boolean shown = split.getItems().contains(steps.root());
            if (steps.root().isVisible() && !shown) {
                split.getItems().add(0, steps.root());
                split.setDividerPositions(stepsShare(vm.results().layoutProperty().get()));
            } else if (!steps.root().isVisible() && shown) {
                split.getItems().remove(steps.root());
            }
        };
        steps.root().visibleProperty().addListener((o, a, b) -> layout.run());
        layout.run();
        // a server benchmark's own panel (in the results view) needs more room than its variants' load charts
        vm.results().layoutProperty().addListener((o, a, l) -> {
            if (split.getItems().size() == 2 && stepsShare(a) != stepsShare(l)) {
                split.setDividerPositions(stepsShare(l));
            }
        });
        return split;
    }

    /**
     * @param layout the Results layout of the step shown
     * @return the share of the Results tab's height the steps panel takes: most for load charts, less beside a
     *     server benchmark's own panel, and only its table's rows for a probe, sweep or transports step
     */
    private static double stepsShare(org.latencylab.app.ui.results.ResultsLayout layout) {
        if (layout == org.latencylab.app.ui.results.ResultsLayout.SERVER_BENCH) {
            return 0.3;
        }
        return layout.shows(org.latencylab.app.ui.results.ResultsLayout.Panel.LOAD_SECONDS)
                || layout == org.latencylab.app.ui.results.ResultsLayout.EMPTY ? 0.45 : 0.2;
    }

    /** Asks for a scenario file and runs it. */
    public void openScenarioDialog() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Open scenario");
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("Scenario (YAML, JSON)", "*.yaml", "*.yml",
                "*.json"));
        File samples = new File("sample-data/scenarios");
        if (samples.isDirectory()) {
            fc.setInitialDirectory(samples.getAbsoluteFile());
        }
        File f = fc.showOpenDialog(window());
        if (f != null) {
            vm.runScenario(f.toPath());
        }
    }

    private ToolBar toolBar() {
        Button run = new Button("▶ Run");
        run.setId("runButton");
        run.setTooltip(Controls.tip("Start the experiment against the selected endpoint (Ctrl+R)"));
        run.disableProperty().bind(vm.run().runningProperty());
        run.setOnAction(e -> vm.startRun());
        Button cancel = new Button("■ Cancel");
        cancel.setId("cancelButton");
        cancel.setTooltip(Controls.tip("Stop the run; requests that finished are kept (Esc)"));
        cancel.disableProperty().bind(vm.run().runningProperty().not());
        cancel.setOnAction(e -> vm.run().cancel());
        Button scenario = new Button("Open scenario…");
        scenario.setId("openScenarioButton");
        scenario.setTooltip(Controls.tip("Run a scenario file (YAML or JSON) with all its steps and show every"
                + " step's results (Ctrl+O)"));
        scenario.disableProperty().bind(vm.run().runningProperty());
        scenario.setOnAction(e -> openScenarioDialog());
        Button png = new Button("Export PNG…");
        png.setTooltip(Controls.tip("Export the CDF chart as PNG at a chosen size and scale (Ctrl+E); right-click"
                + " any chart for more"));
        png.setOnAction(e -> exportChartDialog(ResultCharts.Kind.CDF));
        Button csv = new Button("CSV…");
        csv.setTooltip(Controls.tip("Export one row per request (times in ms) as CSV"));
        csv.setOnAction(e -> exportData("csv"));
        Button json = new Button("JSON…");
        json.setTooltip(Controls.tip("Export the summary, sweep points and fit as JSON"));
        json.setOnAction(e -> exportData("json"));
        Button copy = new Button("Copy image");
        copy.setTooltip(Controls.tip("Copy the CDF chart to the clipboard as an image (Ctrl+Shift+C)"));
        copy.setOnAction(e -> results.copyAsImage(ResultCharts.Kind.CDF));
        Button cmp = new Button("Compare");
        cmp.setTooltip(Controls.tip("Compare the runs selected in History, two or more (Ctrl+D)"));
        cmp.setOnAction(e -> history.compareSelected(this::compare));
        Button theme = new Button("Light/Dark");
        theme.setTooltip(Controls.tip("Switch between light and dark theme (Ctrl+T)"));
        theme.setOnAction(e -> toggleTheme());
        Pane spacer = new Pane();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Label terms = new Label("Definitions: TTFT · TPOT · ITL · E2E · TTFB · tier · SLO · goodput (hover)");
        List<String> defined = new java.util.ArrayList<>();
        for (Metric m : List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2E, Metric.TTFB)) {
            defined.add(m.definition());
        }
        for (String term : List.of("tier", "slo", "goodput")) {
            defined.add(MetricGlossary.define(term));
        }
        terms.setTooltip(Controls.tip(String.join("\n\n", defined)));
        return new ToolBar(run, cancel, scenario, new Separator(Orientation.VERTICAL), png, csv, json, copy,
                new Separator(Orientation.VERTICAL), cmp, spacer, terms, theme);
    }

    private HBox statusBar() {
        ProgressBar bar = new ProgressBar(0);
        bar.setId("progressBar");
        bar.setPrefWidth(220);
        bar.progressProperty().bind(vm.run().progressProperty());
        Label text = new Label();
        text.setId("progressText");
        text.textProperty().bind(vm.run().progressTextProperty());
        message.setId("statusMessage");
        Pane spacer = new Pane();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox box = new HBox(10, bar, text, spacer, message);
        box.setPadding(new Insets(4, 8, 4, 8));
        box.getStyleClass().add("status-bar");
        return box;
    }

    private static Tab tab(String name, javafx.scene.Node content, String help) {
        Tab t = new Tab(name, content);
        t.setTooltip(Controls.tip(help));
        return t;
    }

    /**
     * Builds the scene and installs shortcuts.
     *
     * @param width  initial width
     * @param height initial height
     * @return the scene
     */
    public Scene createScene(double width, double height) {
        scene = new Scene(root, width, height);
        var css = MainView.class.getResource("app.css");
        if (css != null) {
            scene.getStylesheets().add(css.toExternalForm());
        }
        // Shortcuts are caught by a filter on the scene, before the focused control sees the key: a list or a table
        // with the focus (History, the summary) would otherwise take Esc and the other keys for itself.
        scene.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, this::shortcut);
        accel(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), vm::startRun);
        accel(new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN), this::openScenarioDialog);
        accel(new KeyCodeCombination(KeyCode.F5), vm::startRun);
        accel(new KeyCodeCombination(KeyCode.ESCAPE), vm.run()::cancel);
        accel(new KeyCodeCombination(KeyCode.E, KeyCombination.SHORTCUT_DOWN),
                () -> exportChartDialog(ResultCharts.Kind.CDF));
        accel(new KeyCodeCombination(KeyCode.C, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN),
                () -> results.copyAsImage(ResultCharts.Kind.CDF));
        accel(new KeyCodeCombination(KeyCode.D, KeyCombination.SHORTCUT_DOWN),
                () -> history.compareSelected(this::compare));
        accel(new KeyCodeCombination(KeyCode.N, KeyCombination.SHORTCUT_DOWN), vm.endpoints()::addNew);
        accel(new KeyCodeCombination(KeyCode.I, KeyCombination.SHORTCUT_DOWN), endpoints::showImportDialog);
        accel(new KeyCodeCombination(KeyCode.T, KeyCombination.SHORTCUT_DOWN), this::toggleTheme);
        KeyCode[] digits = {KeyCode.DIGIT1, KeyCode.DIGIT2, KeyCode.DIGIT3, KeyCode.DIGIT4, KeyCode.DIGIT5,
            KeyCode.DIGIT6};
        for (int i = 0; i < digits.length; i++) {
            int k = i;
            accel(new KeyCodeCombination(digits[i], KeyCombination.SHORTCUT_DOWN),
                    () -> tabs.getSelectionModel().select(k));
        }
        applyTheme(vm.themeProperty().get());
        return scene;
    }

    private void accel(KeyCombination k, Runnable r) {
        shortcuts.put(k, r);
    }

    private void shortcut(javafx.scene.input.KeyEvent e) {
        for (java.util.Map.Entry<KeyCombination, Runnable> s : shortcuts.entrySet()) {
            if (s.getKey().match(e)) {
                if (e.getCode() == KeyCode.ESCAPE && !vm.run().runningProperty().get()) {
                    return; // nothing to cancel: Esc keeps its usual meaning for the focused control
                }
                e.consume();
                s.getValue().run();
                return;
            }
        }
    }

    private void toggleTheme() {
        vm.themeProperty().set(vm.themeProperty().get() == Theme.DARK ? Theme.LIGHT : Theme.DARK);
    }

    private void applyTheme(Theme t) {
        Application.setUserAgentStylesheet(t == Theme.DARK ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
        ChartTheme ct = t == Theme.DARK ? ChartTheme.DARK : ChartTheme.LIGHT;
        results.setTheme(ct);
        steps.setTheme(ct);
        serverBench.setTheme(ct);
        compare.setTheme(ct);
        if (scene != null) {
            scene.getRoot().getStyleClass().remove("dark");
            if (t == Theme.DARK) {
                scene.getRoot().getStyleClass().add("dark");
            }
        }
    }

    private void compare(java.util.List<org.latencylab.app.ui.history.RunEntry> runs) {
        vm.compare(runs);
        tabs.getSelectionModel().select(compareTab);
    }

    /** @param kind chart to export: asks for size, scale and file, then writes in the background */
    public void exportChartDialog(ResultCharts.Kind kind) {
        pngDialog(kind.name().toLowerCase(java.util.Locale.ROOT) + ".png",
                (size, f) -> exportPng(kind, size[0], size[1], size[2], f, p -> { }));
    }

    /**
     * Asks for image size, scale and file, then hands them over.
     *
     * @param fileName suggested file name
     * @param write    called with {width px, height px, scale} and the chosen file
     */
    private void pngDialog(String fileName, java.util.function.BiConsumer<int[], Path> write) {
        Dialog<int[]> d = new Dialog<>();
        d.setTitle("Export chart as PNG");
        d.setHeaderText("Image size in pixels and scale (2 = twice the text and line size, for slides)");
        Controls c = new Controls();
        javafx.beans.property.IntegerProperty w = new javafx.beans.property.SimpleIntegerProperty(1600);
        javafx.beans.property.IntegerProperty h = new javafx.beans.property.SimpleIntegerProperty(1000);
        javafx.beans.property.IntegerProperty s = new javafx.beans.property.SimpleIntegerProperty(2);
        Spinner<Integer> ws = c.intSpinner(w, 100, ChartImages.MAX_SIZE_PX, 100, "exportWidth", "width [px]");
        Spinner<Integer> hs = c.intSpinner(h, 100, ChartImages.MAX_SIZE_PX, 100, "exportHeight", "height [px]");
        Spinner<Integer> ss = c.intSpinner(s, 1, 8, 1, "exportScale", "pixels per layout unit");
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(6);
        g.addRow(0, new Label("Width [px]"), ws);
        g.addRow(1, new Label("Height [px]"), hs);
        g.addRow(2, new Label("Scale"), ss);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().setAll(ButtonType.OK, ButtonType.CANCEL);
        d.setResultConverter(b -> b == ButtonType.OK ? new int[]{w.get(), h.get(), s.get()} : null);
        d.showAndWait().ifPresent(size -> {
            File f = chooser("PNG image", "*.png", fileName).showSaveDialog(window());
            if (f != null) {
                write.accept(size, f.toPath());
            }
        });
    }

    /**
     * Renders a chart of the current results offscreen and writes it as PNG, in the background.
     *
     * @param kind   which chart
     * @param width  image width, px
     * @param height image height, px
     * @param scale  pixels per layout unit
     * @param out    PNG file
     * @param done   called on the UI thread with the file when written
     */
    public void exportPng(ResultCharts.Kind kind, int width, int height, double scale, Path out, Consumer<Path> done) {
        RunResult.StepOutcome data = vm.results().stepProperty().get();
        TierTable stats = results.tiers();
        CdfChart.YScale y = results.cdfScale();
        ChartTheme theme = results.theme();
        executor.submit("export PNG", () -> {
            ChartImages.writePng(() -> ResultCharts.build(kind, ResultsView.title(kind), data, stats, y, theme), width,
                    height, scale, out);
            return out;
        }, (Path p) -> {
            status("wrote " + p);
            done.accept(p);
        }, this::status);
    }

    private void exportData(String format) {
        File f = chooser(format.toUpperCase(java.util.Locale.ROOT), "*." + format, "results." + format)
                .showSaveDialog(window());
        if (f == null) {
            return;
        }
        RunResult shown = vm.results().resultProperty().get();
        if (shown == null) {
            status("no run to export yet");
            return;
        }
        executor.submit("export " + format, () -> {
            if (format.equals("csv")) {
                DataExport.writeCsv(shown.runDirectory(), f.toPath());
            } else {
                DataExport.writeJson(shown, f.toPath());
            }
            return f.toPath();
        }, (Path p) -> status("wrote " + p), this::status);
    }

    private void status(String text) {
        vm.showMessage(text);
    }

    private static FileChooser chooser(String what, String pattern, String name) {
        FileChooser fc = new FileChooser();
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(what, pattern));
        fc.setInitialFileName(name);
        return fc;
    }

    private Window window() {
        return scene == null ? null : scene.getWindow();
    }

    /** @return the results view (charts and table) */
    public ResultsView results() {
        return results;
    }

    /** @return the load-test, grid and steps panel of the Results tab */
    public StepsView steps() {
        return steps;
    }

    /** @return the compare view */
    public CompareView compare() {
        return compare;
    }

    /** @return the server-benchmark panel of the Results tab */
    public org.latencylab.app.ui.serverbench.ServerBenchView serverBench() {
        return serverBench;
    }

    /** @return the history view */
    public HistoryView history() {
        return history;
    }

    /** @return the root node */
    public BorderPane root() {
        return root;
    }
}
