package org.latencylab.app.ui.results;

import io.fair_acc.chartfx.XYChart;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.beans.property.ReadOnlyObjectWrapper;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.PowerLawChart;
import org.latencylab.charts.TimeSeriesChart;
import org.latencylab.charts.results.ResultCharts;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.stats.TierTable;
import org.latencylab.engine.transport.TransportsResult;
import org.latencylab.engine.transport.TransportsSpec;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The results tab: a header (title, tier badge, SLO, counts), three live charts (TTFT/E2E CDF with a
 * probability/percentile axis choice, TTFT over time with tier bands, the sweep with its fitted power law and band)
 * and the summary table with a definition on every metric; a transports step shows its grouped bar chart of P50
 * first-screen latency per network profile instead of the CDF and time charts, a server-bench step its panel of
 * variants, telemetry and Pareto charts (see {@link #setServerBenchPane}). Right-click a chart to export it or copy it as an
 * image. Build and use on the JavaFX thread.
 */
public final class ResultsView {
    private final ResultsViewModel vm;
    private final BorderPane root = new BorderPane();
    private final StackPane cdfHolder = new StackPane();
    private final ChoiceBox<CdfChart.YScale> yScale = new ChoiceBox<>();
    private final Map<ResultCharts.Kind, XYChart> charts = new EnumMap<>(ResultCharts.Kind.class);
    private final Label tierBadge = new Label();
    private final StackPane transportsHolder = new StackPane();
    private final StackPane serverBenchHolder = new StackPane();
    private SplitPane split;
    private GridPane chartGrid;
    private CdfChart cdf;
    private TimeSeriesChart time;
    private PowerLawChart sweep;
    private final java.util.List<javafx.scene.layout.ColumnConstraints> columns = new java.util.ArrayList<>();
    private Boolean sweepShown;
    /** True while the CDF and time charts hold data (of the step shown). */
    private boolean liveFilled;
    /** True while a fill of the time chart waits for the next pulse (see {@link #fillLive}). */
    private boolean timeFillPending;
    private ChartTheme theme = ChartTheme.LIGHT;
    private ChartActions actions = kind -> { };

    /** What the context menu of a chart does (the main window supplies export and copy). */
    @FunctionalInterface
    public interface ChartActions {
        /** @param kind the chart to export as PNG (asks for size and file) */
        void export(ResultCharts.Kind kind);
    }

    /**
     * @param kind one of the step's charts
     * @return its title in the window and in its PNG export
     */
    public static String title(ResultCharts.Kind kind) {
        return switch (kind) {
            case CDF -> "Latency distribution (TTFT, E2E)";
            case TIME -> "TTFT over time (per second)";
            case SWEEP -> "Sweep: TTFT vs context (P50, P95)";
        };
    }

    /** @param vm the results view model */
    public ResultsView(ResultsViewModel vm) {
        this.vm = vm;
        Label title = new Label();
        title.textProperty().bind(vm.titleProperty());
        title.getStyleClass().add("title-4");
        tierBadge.textProperty().bind(vm.tierProperty());
        tierBadge.getStyleClass().addAll("tier-badge");
        tierBadge.setId("tierBadge");
        tierBadge.setTooltip(tip(MetricGlossary.define("tier")));
        Label slo = new Label();
        slo.textProperty().bind(vm.sloProperty());
        slo.setTooltip(tip(MetricGlossary.define("slo")));
        Label errors = new Label();
        errors.textProperty().bind(vm.errorsProperty());
        errors.setId("errorCounts");
        Label fit = new Label();
        fit.textProperty().bind(vm.fitProperty());
        fit.setId("fitText");
        yScale.getItems().setAll(CdfChart.YScale.values());
        yScale.setValue(CdfChart.YScale.PROBABILITY);
        yScale.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(CdfChart.YScale s) {
                return s == CdfChart.YScale.PERCENTILE ? "Percentile axis (nines)" : "Probability axis (%)";
            }

            @Override
            public CdfChart.YScale fromString(String s) {
                return null;
            }
        });
        yScale.setTooltip(tip("Percentile axis: P50, P90, P99, P99.9 evenly spaced so the tail is visible"));
        yScale.valueProperty().addListener((o, a, b) -> rebuildCdf());
        // the header's parts wrap onto a second line in a narrow window rather than each being cut to "…"
        javafx.scene.layout.FlowPane header = new javafx.scene.layout.FlowPane(12, 2,
                whole(title), whole(tierBadge), whole(slo), whole(errors));
        header.setPadding(new Insets(6, 8, 2, 8));
        ChoiceBox<String> steps = new ChoiceBox<>(vm.stepLabels());
        steps.setId("stepChoice");
        steps.setTooltip(tip("The step of the run whose results are shown"));
        steps.valueProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.select(b);
            }
        });
        vm.stepProperty().addListener((o, a, b) -> {
            if (b != null && !b.label().equals(steps.getValue())) {
                steps.setValue(b.label());
            }
        });
        // a selector is never narrower than its longest choice: "Step:" showed "s…" when the row was short of room
        steps.setMinWidth(Region.USE_PREF_SIZE);
        yScale.setMinWidth(Region.USE_PREF_SIZE);
        HBox stepBox = new HBox(4, whole(new Label("Step:")), steps);
        HBox scaleBox = new HBox(4, whole(new Label("CDF:")), yScale);
        stepBox.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        scaleBox.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        javafx.scene.layout.FlowPane selectors = new javafx.scene.layout.FlowPane(12, 2, stepBox, scaleBox);
        // the fit's statement is long (α with two intervals, R², n): it wraps below the selectors, never cut
        fit.setWrapText(true);
        fit.setMinHeight(Region.USE_PREF_SIZE);
        fit.visibleProperty().bind(vm.fitProperty().isNotEmpty());
        fit.managedProperty().bind(fit.visibleProperty());
        VBox sub = new VBox(2, selectors, fit);
        sub.setPadding(new Insets(0, 8, 4, 8));
        Label trust = new Label();
        trust.textProperty().bind(vm.trustProperty());
        trust.setId("trustMessage");
        trust.setStyle("-fx-text-fill: -color-danger-fg; -fx-font-weight: bold;");
        trust.setWrapText(true);
        trust.setPadding(new Insets(0, 8, 4, 8));
        trust.visibleProperty().bind(vm.trustProperty().isNotEmpty());
        trust.managedProperty().bind(trust.visibleProperty());
        VBox top = new VBox(header, trust, sub);
        root.setTop(top);

        time = ResultCharts.perSecondChart(title(ResultCharts.Kind.TIME), theme);
        sweep = ResultCharts.sweepChart(title(ResultCharts.Kind.SWEEP), theme);
        charts.put(ResultCharts.Kind.TIME, time.chart());
        charts.put(ResultCharts.Kind.SWEEP, sweep.chart());
        rebuildCdf();
        GridPane grid = new GridPane();
        grid.setHgap(4);
        grid.setVgap(4);
        grid.add(withMenu(cdfHolder, ResultCharts.Kind.CDF), 0, 0);
        grid.add(withMenu(time.chart(), ResultCharts.Kind.TIME), 1, 0);
        grid.add(withMenu(sweep.chart(), ResultCharts.Kind.SWEEP), 2, 0);
        for (int i = 0; i < 3; i++) {
            javafx.scene.layout.ColumnConstraints cc = new javafx.scene.layout.ColumnConstraints();
            cc.setPercentWidth(100.0 / 3);
            cc.setHgrow(Priority.ALWAYS);
            grid.getColumnConstraints().add(cc);
            columns.add(cc);
        }
        applyLayout(ResultsLayout.EMPTY);
        javafx.scene.layout.RowConstraints rc = new javafx.scene.layout.RowConstraints();
        rc.setVgrow(Priority.ALWAYS);
        grid.getRowConstraints().add(rc);
        grid.setMinHeight(220);

        TableView<SummaryRow> table = summaryTable(vm.rows());
        ListView<String> notices = new ListView<>(vm.notices());
        notices.setPrefHeight(48);
        notices.setPlaceholder(new Label("No notices"));
        VBox bottom = new VBox(4, table, notices);
        VBox.setVgrow(table, Priority.ALWAYS);
        chartGrid = grid;
        transportsHolder.setId("transportsChart");
        transportsHolder.setVisible(false);
        serverBenchHolder.setId("serverBenchPanel");
        serverBenchHolder.setVisible(false);
        StackPane chartArea = new StackPane(grid, transportsHolder, serverBenchHolder);
        split = new SplitPane(chartArea, bottom);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.58);
        root.setCenter(split);
        vm.stepProperty().addListener((o, a, d) -> redraw(d));
        vm.layoutProperty().addListener((o, a, l) -> applyLayout(l));
        vm.transportsSoFarProperty().addListener((o, a, b) -> showTransports(vm.stepProperty().get()));
    }

    private Region withMenu(Region chart, ResultCharts.Kind kind) {
        MenuItem export = new MenuItem("Export PNG…");
        export.setOnAction(e -> actions.export(kind));
        MenuItem copy = new MenuItem("Copy as image");
        copy.setOnAction(e -> copyAsImage(kind));
        ContextMenu menu = new ContextMenu(export, copy);
        chart.setOnContextMenuRequested(e -> menu.show(chart, e.getScreenX(), e.getScreenY()));
        chart.setMinSize(150, 150);
        return chart;
    }

    private void rebuildCdf() {
        cdf = ResultCharts.cdfChart(title(ResultCharts.Kind.CDF), yScale.getValue(), theme);
        charts.put(ResultCharts.Kind.CDF, cdf.chart());
        cdfHolder.getChildren().setAll(cdf.chart());
        ResultCharts.fill(cdf, vm.stepProperty().get());
    }

    private void redraw(RunResult.StepOutcome d) {
        boolean data = d != null && d.perSecond() != null && d.perSecond().size() > 0;
        if (data && !liveFilled) {
            // the first data since the charts were emptied (the first requests of a run): the CDF and time charts
            // then build their lines' and tier bands' nodes; drawn a pulse after the summary table's first rows,
            // not in the same pulse, so that no pulse holds the FX thread long (the table is laid out in the next
            // pulse, the CDF in the one after, then the time chart's lines, then its tier bands)
            liveFilled = true;
            Controls.inPulse(2, () -> ResultCharts.fill(cdf, vm.stepProperty().get()));
            Controls.inPulse(3, () -> ResultCharts.fillLines(time, vm.stepProperty().get()));
            Controls.inPulse(4, () -> ResultCharts.fill(time, vm.stepProperty().get(),
                    tiers()));
        } else {
            fillLive(d);
            liveFilled = data;
        }
        ResultCharts.fill(sweep, d != null && d.result() instanceof SweepRunner.SweepResult sw ? sw : null);
        applyLayout(vm.layoutProperty().get());
        showTransports(d);
        boolean bench = d != null && org.latencylab.engine.server.ServerBenchSpec.TYPE.equals(d.type());
        if (bench) {
            chartGrid.setVisible(false);
        }
        if (serverBenchHolder.isVisible() != bench) {
            serverBenchHolder.setVisible(bench);
            // the benchmark's panel (variants, telemetry, Pareto charts) needs the room; its summary table less
            split.setDividerPositions(bench ? 0.88 : 0.58);
        }
    }

    /**
     * Fills the CDF now and the time chart in the next pulse, with the step shown then: each chart's new lines are
     * drawn (ChartFX lays out and paints a chart in the pulse after its data changed) in a pulse of its own, not
     * both in one. Live updates come 5 times a second, so a time chart fill still pending when the next update
     * comes is done once, with the newest step.
     */
    private void fillLive(RunResult.StepOutcome d) {
        ResultCharts.fill(cdf, d);
        if (d == null) {
            ResultCharts.fill(time, d, tiers()); // emptied at once: nothing to draw
            return;
        }
        if (!timeFillPending) {
            timeFillPending = true;
            Controls.inPulse(1, () -> {
                timeFillPending = false;
                ResultCharts.fill(time, vm.stepProperty().get(), tiers());
            });
        }
    }

    /**
     * @param pane what a server-bench step shows in place of the CDF and time charts (its variants' progress,
     *             telemetry and Pareto charts)
     */
    public void setServerBenchPane(Region pane) {
        serverBenchHolder.getChildren().setAll(pane);
    }

    /**
     * A transports step shows its grouped bar chart (P50 first-screen latency per network profile) in place of the
     * CDF and time charts: drawn from the step's result when the step has ended, from the cells so far while it runs
     * (each network profile × connection mode adds its cells), a note before the first cells.
     */
    private void showTransports(RunResult.StepOutcome d) {
        boolean transports = d != null && TransportsSpec.TYPE.equals(d.type());
        transportsHolder.setVisible(transports);
        chartGrid.setVisible(!transports);
        if (!transports) {
            transportsHolder.getChildren().clear();
        } else if (d.result() instanceof TransportsResult r) {
            transportsHolder.getChildren().setAll(ResultCharts.transports(
                    "P50 first-screen latency · " + r.label(), r, theme));
        } else if (vm.transportsSoFarProperty().get() != null
                && vm.transportsSoFarProperty().get().label().equals(d.label())
                && !vm.transportsSoFarProperty().get().cells().isEmpty()) {
            TransportsResult soFar = vm.transportsSoFarProperty().get();
            transportsHolder.getChildren().setAll(ResultCharts.transports(
                    "P50 first-screen latency · " + soFar.label() + " (running: " + soFar.cells().size()
                            + " cells so far)", soFar, theme));
        } else {
            Label wait = new Label("Transports step running: the grouped bars of P50 first-screen latency appear"
                    + " when its first cells have run" + (d.stats() == null ? "" : " (" + d.stats().sent()
                    + " requests so far)"));
            wait.setId("transportsWaiting");
            transportsHolder.getChildren().setAll(wait);
        }
    }

    /** @return the tier table of the run shown (the default table before any run) */
    public TierTable tiers() {
        RunResult r = vm.resultProperty().get();
        return r == null ? StatsSettings.DEFAULTS.tierTable() : r.spec().stats().tierTable();
    }

    /**
     * Shows the charts of the step's layout and only those (no empty panel): a sweep its CDF per length and, in the
     * wider column, its fit chart with band and extrapolation (its legend states each fit); a probe, load step or
     * grid the CDF and TTFT over time side by side. The transports and server-bench panels replace the grid (see
     * {@link #showTransports}, {@link #redraw}).
     */
    private void applyLayout(ResultsLayout layout) {
        boolean sweepOn = layout.shows(ResultsLayout.Panel.SWEEP);
        boolean timeOn = layout.shows(ResultsLayout.Panel.TIME);
        if (sweepShown != null && sweepShown == sweepOn && time.chart().isVisible() == timeOn) {
            return; // no layout pass when nothing changes
        }
        sweepShown = sweepOn;
        sweep.chart().setVisible(sweepOn);
        sweep.chart().setManaged(sweepOn);
        time.chart().setVisible(timeOn);
        time.chart().setManaged(timeOn);
        double cdfWidth = sweepOn && !timeOn ? 40 : sweepOn ? 100.0 / 3 : timeOn ? 50 : 100;
        double timeWidth = timeOn ? (sweepOn ? 100.0 / 3 : 50) : 0;
        columns.get(0).setPercentWidth(cdfWidth);
        columns.get(1).setPercentWidth(timeWidth);
        columns.get(2).setPercentWidth(sweepOn ? 100 - cdfWidth - timeWidth : 0);
    }

    /** @param l a label of the header @return it, never narrower than its text (a row that lacks room wraps) */
    private static Label whole(Label l) {
        l.setMinWidth(Region.USE_PREF_SIZE);
        return l;
    }

    /** @param t chart theme (light or dark) applied to every chart */
    public void setTheme(ChartTheme t) {
        theme = t;
        charts.values().forEach(t::apply);
        showTransports(vm.stepProperty().get());
    }

    /** @return the theme in use */
    public ChartTheme theme() {
        return theme;
    }

    /** @param a what "Export PNG…" does */
    public void setChartActions(ChartActions a) {
        actions = a;
    }

    /** @param kind a chart @return the live chart of that kind */
    public XYChart chart(ResultCharts.Kind kind) {
        return charts.get(kind);
    }

    /** @return the CDF y scale chosen */
    public CdfChart.YScale cdfScale() {
        return yScale.getValue();
    }

    /** @param kind chart to put on the clipboard as an image (a snapshot of the chart as shown) */
    public void copyAsImage(ResultCharts.Kind kind) {
        XYChart c = charts.get(kind);
        ClipboardContent content = new ClipboardContent();
        content.putImage(c.snapshot(null, null));
        Clipboard.getSystemClipboard().setContent(content);
    }

    /** @return the root node */
    public Region root() {
        return root;
    }

    private static TableView<SummaryRow> summaryTable(ObservableList<SummaryRow> rows) {
        TableView<SummaryRow> t = new TableView<>();
        prebuildRows(t, rows);
        t.setId("summaryTable");
        t.setPlaceholder(new Label("No requests yet"));
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        // one row height for all (as in the Definitions table): the table need not build and measure a row to learn
        // it when it first fills, in the middle of a run
        t.setFixedCellSize(26);
        t.getColumns().add(col("Metric", SummaryRow::name, 165,
                "Hover a row for the metric's definition"));
        t.getColumns().add(col("n", r -> Long.toString(r.count()), 45, "successful requests with this metric"));
        String iv = MetricGlossary.define("interval");
        t.getColumns().add(col("P50", SummaryRow::p50, 130, iv));
        t.getColumns().add(col("P90", SummaryRow::p90, 130, iv));
        t.getColumns().add(col("P95", SummaryRow::p95, 130, iv));
        t.getColumns().add(col("P99", SummaryRow::p99, 130, iv));
        t.getColumns().add(col("P99.9", SummaryRow::p999, 130, iv));
        t.getColumns().add(col("max", SummaryRow::max, 80, "largest value"));
        // One tooltip per definition, shared by the rows: a Tooltip is a popup window with its own scene, and
        // building one for every row on every live update kept the UI thread busy while a run streamed in. It is
        // built when the pointer first enters a row, not when the row is filled: building them all in the pulse
        // where the table first fills (as the first requests of a run end) was a large part of that pulse.
        Map<String, Tooltip> tips = new HashMap<>();
        t.setRowFactory(tv -> {
            TableRow<SummaryRow> row = new TableRow<>();
            Runnable install = () -> {
                SummaryRow b = row.getItem();
                Tooltip want = b == null ? null : tips.computeIfAbsent(b.definition(), ResultsView::tip);
                if (row.getTooltip() != want) {
                    row.setTooltip(want);
                }
            };
            row.addEventHandler(javafx.scene.input.MouseEvent.MOUSE_ENTERED, e -> install.run());
            row.itemProperty().addListener((o, a, b) -> {
                if (row.getTooltip() != null || row.isHover()) {
                    install.run();
                }
            });
            return row;
        });
        return t;
    }

    /**
     * Builds the table's rows and cells before the first run: the table holds blank rows until the first layout
     * pass that made some (the window's first, while the Results tab is still behind the Experiment tab), then the
     * view model's rows. A table keeps the rows it made and reuses them as its items come and go, so the first
     * requests of a run fill rows that exist; building, styling and laying out some hundred cells then, in the
     * middle of the run, was the FX thread's longest piece of work during a load test.
     */
    private static void prebuildRows(TableView<SummaryRow> t, ObservableList<SummaryRow> rows) {
        ObservableList<SummaryRow> blank = javafx.collections.FXCollections.observableArrayList();
        for (int i = 0; i < PREBUILT_ROWS; i++) {
            blank.add(new SummaryRow("", "", "", 0, "", "", "", "", "", ""));
        }
        t.setItems(blank);
        int[] pulses = {0};
        Runnable[] swap = new Runnable[1];
        swap[0] = () -> {
            boolean built = t.getSkin() != null && !t.lookupAll(".table-row-cell").isEmpty();
            if (built || ++pulses[0] >= 20 || t.getItems() != blank) { // 20 pulses: never hold back real rows long
                t.getScene().removePostLayoutPulseListener(swap[0]);
                t.setItems(rows);
            }
        };
        t.sceneProperty().addListener((o, a, scene) -> {
            if (a != null) {
                a.removePostLayoutPulseListener(swap[0]);
            }
            if (scene != null && t.getItems() == blank) {
                scene.addPostLayoutPulseListener(swap[0]);
            } else if (scene == null && t.getItems() == blank) {
                t.setItems(rows);
            }
        });
    }

    /** Blank rows the summary table is built with (more than a window shows at once). */
    private static final int PREBUILT_ROWS = 16;

    private static TableColumn<SummaryRow, String> col(String name, Function<SummaryRow, String> f, double w,
                                                       String help) {
        TableColumn<SummaryRow, String> c = new TableColumn<>();
        Label header = new Label(name);
        header.setTooltip(tip(help));
        c.setGraphic(header);
        c.setPrefWidth(w);
        // a column keeps room for its header ("max" was cut to "…" when the percentile columns took the width)
        c.setMinWidth(Math.min(w, 12 + 9.0 * name.length() + 16));
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
            }
        });
        return c;
    }

    /** @param text tooltip text @return a wrapping tooltip shown quickly (the app's one tooltip style) */
    public static Tooltip tip(String text) {
        return org.latencylab.app.ui.controls.Controls.tip(text);
    }

}
