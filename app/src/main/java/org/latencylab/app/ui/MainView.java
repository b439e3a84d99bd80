package org.latencylab.app.ui;

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
import org.latencylab.app.ui.results.ResultCharts;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.stats.TierTable;
import org.latencylab.app.ui.results.ResultsView;
import org.latencylab.app.ui.settings.SettingsView;
import org.latencylab.app.ui.settings.Theme;
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
 * counts, ETA, messages). Keyboard: Ctrl+R run, Esc cancel, Ctrl+E export chart, Ctrl+Shift+C copy chart image, Ctrl+D
 * compare, Ctrl+N new endpoint, Ctrl+I import curl, Ctrl+T theme, Ctrl+1…6 tabs. Build and use on the JavaFX thread.
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
    private final Label message = new Label();
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
        compare = new CompareView(vm.compare(), ChartTheme.LIGHT);
        history = new HistoryView(vm.history(), this::compare, vm::rejudge);
        SettingsView settings = new SettingsView(vm.settingsForm(), vm.themeProperty(), vm::applySettingsForm);

        Tab endpointTab = tab("Endpoint", endpoints.editor(), "Edit the selected endpoint; test the connection");
        Tab experimentTab = tab("Experiment", experiment.root(), "Probe or context sweep");
        resultsTab = tab("Results", results.root(), "Live charts and the summary of the run on screen");
        compareTab = tab("Compare", compare.root(), "Two saved runs side by side");
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
            String t = e.title() + " · " + e.endpoint();
            vm.results().reset(t);
            vm.results().show(t, r);
            tabs.getSelectionModel().select(resultsTab);
        });
        vm.themeProperty().addListener((o, a, t) -> applyTheme(t));
        message.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            String m = vm.messageProperty().get();
            String s = vm.run().statusProperty().get();
            return m != null && !m.isEmpty() ? m : s;
        }, vm.messageProperty(), vm.run().statusProperty()));
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
        cmp.setTooltip(Controls.tip("Compare the two runs selected in History (Ctrl+D)"));
        cmp.setOnAction(e -> history.compareSelected(this::compare));
        Button theme = new Button("Light/Dark");
        theme.setTooltip(Controls.tip("Switch between light and dark theme (Ctrl+T)"));
        theme.setOnAction(e -> toggleTheme());
        Pane spacer = new Pane();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Label terms = new Label("Definitions: TTFT · TPOT · ITL · E2E · TTFB · tier · SLO · goodput (hover)");
        terms.setTooltip(Controls.tip(String.join("\n\n", List.of(MetricGlossary.define("ttft"),
                MetricGlossary.define("tpot"), MetricGlossary.define("itl"), MetricGlossary.define("e2e"),
                MetricGlossary.define("ttfb"), MetricGlossary.define("tier"), MetricGlossary.define("slo"),
                MetricGlossary.define("goodput")))));
        return new ToolBar(run, cancel, new Separator(Orientation.VERTICAL), png, csv, json, copy,
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
        accel(new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), vm::startRun);
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
        scene.getAccelerators().put(k, r);
    }

    private void toggleTheme() {
        vm.themeProperty().set(vm.themeProperty().get() == Theme.DARK ? Theme.LIGHT : Theme.DARK);
    }

    private void applyTheme(Theme t) {
        Application.setUserAgentStylesheet(t == Theme.DARK ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
        ChartTheme ct = t == Theme.DARK ? ChartTheme.DARK : ChartTheme.LIGHT;
        results.setTheme(ct);
        compare.setTheme(ct);
        if (scene != null) {
            scene.getRoot().getStyleClass().remove("dark");
            if (t == Theme.DARK) {
                scene.getRoot().getStyleClass().add("dark");
            }
        }
    }

    private void compare(org.latencylab.app.ui.history.RunEntry a, org.latencylab.app.ui.history.RunEntry b) {
        vm.compare(a, b);
        tabs.getSelectionModel().select(compareTab);
    }

    /** @param kind chart to export: asks for size, scale and file, then writes in the background */
    public void exportChartDialog(ResultCharts.Kind kind) {
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
            File f = chooser("PNG image", "*.png", kind.name().toLowerCase(java.util.Locale.ROOT) + ".png")
                    .showSaveDialog(window());
            if (f != null) {
                exportPng(kind, size[0], size[1], size[2], f.toPath(), p -> { });
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
            ChartImages.writePng(() -> ResultCharts.build(kind, data, stats, y, theme), width, height, scale, out);
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

    /** @return the history view */
    public HistoryView history() {
        return history;
    }

    /** @return the root node */
    public BorderPane root() {
        return root;
    }
}
