package org.latencylab.app.ui.steps;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.events.ChartBits;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.HeatmapChart;
import org.latencylab.charts.TimeSeriesChart;
import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.results.LoadSeries;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadSecond;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The load-test and grid panel of the Results tab: per-second P50/P95/P99 latency from the intended start with
 * the tier bands behind it, target vs achieved rate with errors per second, a line with the last second's numbers
 * and the client's dispatch lag, a grid's heatmap that fills cell by cell, and the table of a finished run's steps
 * (select a row to show that step). Only the parts with something to show take space; with nothing (a probe or
 * sweep run) the panel is hidden. Build and use on the JavaFX thread.
 */
public final class StepsView {
    private final StepsViewModel vm;
    private final VBox root = new VBox(4);
    private final VBox loadBox;
    private final VBox gridBox;
    private final TableView<StepRow> table;
    private final TimeSeriesChart latency;
    private final TimeSeriesChart rates;
    private static final double[] NONE = new double[0];
    private final StackPane heatHolder = new StackPane();
    private final GridPane charts = new GridPane();
    /** True once the panel may show for an expected load or grid step (a pulse after the run started). */
    private final javafx.beans.property.BooleanProperty ready = new javafx.beans.property.SimpleBooleanProperty();
    private HeatmapChart heatmap;
    private ChartTheme theme = ChartTheme.LIGHT;

    /**
     * @param vm             the panel's view model
     * @param onStepSelected called with a step's label when the user selects it in the steps table
     */
    public StepsView(StepsViewModel vm, Consumer<String> onStepSelected) {
        this.vm = vm;
        latency = new TimeSeriesChart("Latency per second (from intended start)",
                Quantity.of("latency", "ms"), false, theme);
        rates = new TimeSeriesChart("Rate per second", Quantity.of("rate", "req/s"), false, theme);
        latency.chart().setId("loadLatencyChart");
        rates.chart().setId("loadRateChart");
        Label loadText = new Label();
        loadText.setId("loadText");
        loadText.textProperty().bind(vm.loadTextProperty());
        loadText.setTooltip(Controls.tip("The last closed second of the load step: target and achieved send rate,"
                + " requests that ended, failures, in flight, and the tier judged on that second's P95"));
        Label trust = new Label();
        trust.setId("trustText");
        trust.textProperty().bind(vm.trustTextProperty());
        trust.setTooltip(Controls.tip("Dispatch lag = actual send − intended start. When it grows, the client (not"
                + " the server) fell behind its schedule, and latencies from the intended start include that wait"));
        charts.setHgap(4);
        for (int i = 0; i < 2; i++) {
            javafx.scene.layout.ColumnConstraints cc = new javafx.scene.layout.ColumnConstraints();
            cc.setPercentWidth(i == 0 ? 60 : 40);
            cc.setHgrow(Priority.ALWAYS);
            charts.getColumnConstraints().add(cc);
        }
        latency.chart().setMinSize(150, 150);
        rates.chart().setMinSize(150, 150);
        // both charts join in later pulses or with the first data (see complete())
        charts.setPrefHeight(260);
        VBox.setVgrow(charts, Priority.ALWAYS);
        loadText.setWrapText(true);
        loadBox = new VBox(2, loadText, trust, charts);
        VBox.setVgrow(loadBox, Priority.ALWAYS);

        Label gridText = new Label();
        gridText.setId("gridText");
        gridText.textProperty().bind(vm.gridTextProperty());
        heatHolder.setPrefHeight(260);
        heatHolder.setMinHeight(150);
        VBox.setVgrow(heatHolder, Priority.ALWAYS);
        gridBox = new VBox(2, gridText, heatHolder);
        VBox.setVgrow(gridBox, Priority.ALWAYS);

        table = stepsTable(vm);
        table.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (row != null) {
                onStepSelected.accept(row.label());
            }
        });
        table.setPrefHeight(120);
        table.setMinHeight(80);

        root.setPadding(new Insets(4, 8, 4, 8));
        // load charts and the grid's heatmap side by side (a grid shows both: its cells are load steps)
        javafx.scene.layout.HBox charts2 = new javafx.scene.layout.HBox(8, loadBox, gridBox);
        javafx.scene.layout.HBox.setHgrow(loadBox, Priority.ALWAYS);
        javafx.scene.layout.HBox.setHgrow(gridBox, Priority.ALWAYS);
        loadBox.setPrefWidth(600);
        gridBox.setPrefWidth(420);
        VBox.setVgrow(charts2, Priority.ALWAYS);
        // with neither load charts nor a heatmap (a probe or sweep run) the row takes no height above the table
        charts2.visibleProperty().bind(loadBox.visibleProperty().or(gridBox.visibleProperty()));
        charts2.managedProperty().bind(charts2.visibleProperty());
        // The charts and the steps table join the panel one by one (complete()): a run with a load or grid step
        // shows the panel when it starts, before its traffic, and builds it over several pulses (the
        // CSS and first layout of a ChartFX chart, or of a table with its header, took tens of milliseconds of the
        // FX thread each; all at once, one of its longest pieces of work during a load test).
        root.getChildren().setAll(charts2);
        show(gridBox, false);
        show(table, false);
        vm.secondsProperty().addListener((o, a, list) -> redrawLoad(list));
        vm.gridProperty().addListener((o, a, g) -> redrawGrid(g));
        vm.chartsExpectedProperty().addListener((o, a, expected) -> {
            ready.set(false);
            if (expected) {
                // the next pulse lays out the Results tab the run start brought to the front; the panel the one after
                Controls.inPulse(2, () -> {
                    if (vm.chartsExpectedProperty().get()) {
                        ready.set(true); // the panel, empty: the results view below it is laid out anew
                        // a chart's (empty) lines are made a pulse before it joins the scene
                        Controls.inPulse(1, () -> prepare(latency, List.of(new Series("P50", NONE, NONE),
                                new Series("P95", NONE, NONE), new Series("P99", NONE, NONE))));
                        Controls.inPulse(2, this::addLatencyChart);
                        Controls.inPulse(3, () -> prepare(rates, LoadSeries.rates(List.of())));
                        Controls.inPulse(4, this::addRateChart);
                        Controls.inPulse(6, this::complete);
                    }
                });
            }
        });
        table.itemsProperty().get().addListener((javafx.collections.ListChangeListener<StepRow>) c -> {
            if (!vm.steps().isEmpty()) {
                complete();
            }
            show(table, !vm.steps().isEmpty());
        });
        // the load charts are never hidden on their own: ChartFX 11.3 charts that were invisible when first drawn
        // stopped redrawing; the whole panel shows once a run with a load or grid step has started (its first
        // layout then happens before the traffic, with empty charts) or there is a second, a grid or a step to show
        root.visibleProperty().bind(Bindings.createBooleanBinding(() -> ready.get()
                || !vm.secondsProperty().get().isEmpty() || gridBox.isVisible() || table.isVisible(),
                ready, vm.secondsProperty(), gridBox.visibleProperty(), table.visibleProperty()));
        root.managedProperty().bind(root.visibleProperty());
    }

    /** Puts the latency chart into the panel (once). */
    private void addLatencyChart() {
        show(loadBox, true); // hidden after a run without load seconds
        if (latency.chart().getParent() == null) {
            charts.add(latency.chart(), 0, 0);
        }
    }

    /** Puts the rate chart beside the latency chart (once). */
    private void addRateChart() {
        show(loadBox, true); // hidden after a run without load seconds
        if (rates.chart().getParent() == null) {
            charts.add(rates.chart(), 1, 0);
        }
    }

    /**
     * Puts the steps table into the panel, and both load charts when the run has load seconds (or a load or grid
     * step is expected): a probe or sweep has none, and its steps table shows without two empty charts above it.
     */
    private void complete() {
        boolean load = vm.chartsExpectedProperty().get() || !vm.secondsProperty().get().isEmpty()
                || vm.gridProperty().get() != null;
        show(loadBox, load);
        if (load) {
            addLatencyChart();
            addRateChart();
        }
        if (table.getParent() == null) {
            root.getChildren().add(table);
        }
    }

    private static void show(Region r, boolean show) {
        if (r.isVisible() != show) {
            r.setVisible(show);
            r.setManaged(show);
        }
    }

    private void redrawLoad(List<LoadSecond> list) {
        if (!list.isEmpty()) {
            complete();
        }
        if (list.isEmpty()) {
            latency.update(List.of());
            rates.update(List.of());
            latency.setTierBands(List.of());
            return;
        }
        List<Series> lat = LoadSeries.latency(list);
        latency.update(lat);
        latency.setTierBands(LoadSeries.tierBands(vm.tiersProperty().get(), LoadSeries.top(lat)));
        rates.update(LoadSeries.rates(list));
        redraw(latency.chart());
        redraw(rates.chart());
    }

    /**
     * Gives a chart of a load step that has not closed its first second yet its (empty) lines: ChartFX builds a node
     * per data set with its CSS properties the first time a data set is added, which took tens of milliseconds of
     * the FX thread in the pulse of the first second when done then. Does nothing once a second is shown (its lines
     * are drawn) or when no load chart is expected any more.
     */
    private void prepare(TimeSeriesChart chart, List<Series> empty) {
        if (vm.chartsExpectedProperty().get() && vm.secondsProperty().get().isEmpty()) {
            chart.update(empty);
        }
    }

    /**
     * Marks a chart's data sets, axes and canvas changed. The data sets were written under their lock, whose change
     * events ChartFX 11.3 did not always pass on to a chart that had already drawn once: the charts kept their first
     * second's axes and drew no lines (seen in both of them, alternately).
     */
    private static void redraw(XYChart chart) {
        chart.getAllDatasets().forEach(ds -> ds.fireInvalidated(ChartBits.DataSetData));
        chart.fireInvalidated(ChartBits.ChartDataSets, ChartBits.ChartAxes, ChartBits.ChartCanvas,
                ChartBits.ChartLayout);
        chart.requestLayout();
    }

    private void redrawGrid(GridResult g) {
        HeatGrid cells = g == null ? null : LoadSeries.heatGrid(g);
        if (g != null) {
            complete();
        }
        show(gridBox, g != null);
        if (cells == null) {
            heatHolder.getChildren().clear();
            heatmap = null;
            return;
        }
        // a new chart per finished cell (cells end seconds apart): ChartFX 11.3's grid data set, updated a second
        // time after it was drawn, waited forever for its write lock here
        String metric = StepsViewModel.metricName(g.metric());
        heatmap = new HeatmapChart(metric + " per cell", Quantity.of(g.columnAxis(), g.columnUnit()),
                Quantity.of(g.rowAxis(), g.rowUnit()), Quantity.of(metric, g.unit()), false, theme);
        heatmap.chart().setId("gridHeatmap");
        heatmap.update(cells);
        heatHolder.getChildren().setAll(heatmap.chart());
    }

    /** @param t chart theme (light or dark) applied to every chart of the panel */
    public void setTheme(ChartTheme t) {
        theme = t;
        t.apply(latency.chart());
        t.apply(rates.chart());
        if (heatmap != null) {
            t.apply(heatmap.chart());
        }
    }

    /** @return the live latency chart (P50/P95/P99 per second with tier bands) */
    public XYChart latencyChart() {
        return latency.chart();
    }

    /** @return the live rate chart (target, achieved, errors per second) */
    public XYChart rateChart() {
        return rates.chart();
    }

    /** @return the grid's heatmap, or null while no cell has a value */
    public XYChart heatmapChart() {
        return heatmap == null ? null : heatmap.chart();
    }

    /** @return the tier band labels drawn behind the latency chart, fastest first */
    public List<String> tierBandLabels() {
        return latency.tierBandLabels();
    }

    /** @return the root node (hidden when there is nothing to show) */
    public Region root() {
        return root;
    }

    private static TableView<StepRow> stepsTable(StepsViewModel vm) {
        TableView<StepRow> t = new TableView<>(vm.steps());
        t.setId("stepsTable");
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        t.getColumns().add(col("Step", StepRow::label, 90, "Step label; select a row to show that step"));
        t.getColumns().add(col("Type", StepRow::type, 60, "probe, sweep, load or grid"));
        t.getColumns().add(col("Requests", StepRow::requests, 110, "Measured requests (warmup and cooldown left out)"));
        t.getColumns().add(col("P50", StepRow::p50, 140, "P50 of the step's tier metric"));
        t.getColumns().add(col("P95", StepRow::p95, 80, "P95 of the step's tier metric"));
        t.getColumns().add(col("Rate", StepRow::rate, 130, "Load steps: achieved of target rate; grids: cells run"));
        t.getColumns().add(col("Tier", StepRow::tier, 170, "Tier judged on P95 of the tier metric"));
        t.getColumns().add(col("SLO", StepRow::slo, 120, "SLO verdicts and compliance (probe and load steps)"));
        return t;
    }

    private static TableColumn<StepRow, String> col(String name, Function<StepRow, String> f, double w, String help) {
        TableColumn<StepRow, String> c = new TableColumn<>();
        Label header = new Label(name);
        header.setTooltip(Controls.tip(help));
        c.setGraphic(header);
        c.setPrefWidth(w);
        // a column keeps room for its header ("Type" was cut to "Ty…" when the wider columns took the width)
        c.setMinWidth(12 + 9.0 * name.length() + 16); // padding, about 9 px a character of the bold header, sort arrow
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        // a long value (a sweep's tier per context length) wraps and the row grows, instead of ending in "…": a Text
        // wrapped at the column's width, because a table row sizes a wrapping Labeled cell for one line only
        c.setCellFactory(column -> new javafx.scene.control.TableCell<>() {
            private final javafx.scene.text.Text text = new javafx.scene.text.Text();

            {
                text.wrappingWidthProperty().bind(column.widthProperty().subtract(12));
                text.fillProperty().bind(textFillProperty());
                text.fontProperty().bind(fontProperty());
                setPrefHeight(javafx.scene.control.Control.USE_COMPUTED_SIZE);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(null);
                text.setText(empty || item == null ? "" : item);
                setGraphic(empty || item == null ? null : text);
            }
        });
        return c;
    }
}
