package org.latencylab.app.ui.serverbench;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.events.ChartBits;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.RowConstraints;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.TimeSeriesChart;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.results.ServerBenchCharts;
import org.latencylab.charts.results.TelemetrySeries;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.telemetry.GpuReading;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The server-benchmark panel of the Results tab: a line with what runs now, the variants table (state of each
 * variant; select a row to see its telemetry), and three tabs — "Telemetry" (KV-cache usage [%], running and
 * waiting requests, GPU memory used [GiB] over time, drawn as each tick arrives), "Pareto & heatmap" (the charts
 * module's Pareto projections with optimal points ★ and labels, and the batching heatmap with OOM cells marked, the
 * same charts the CLI writes) and "Report" (the table the console prints). Right-click a result chart to export it
 * as PNG or the benchmark's data as CSV. Build and use on the JavaFX thread.
 */
public final class ServerBenchView {
    /** What the export menu items of the result charts do (the main window supplies the dialogs). */
    public interface Exports {
        /**
         * @param fileName suggested file name, e.g. {@code pareto-server-bench-throughput-latency.png}
         * @param build    builds a new, filled chart for offscreen rendering
         */
        void png(String fileName, Supplier<? extends Region> build);

        /**
         * @param fileName suggested file name
         * @param source   the CSV file in the run directory to save a copy of
         */
        void csv(String fileName, Path source);
    }

    /** Height of each result chart, px: the charts scroll rather than shrink below legibility. */
    private static final double CHART_HEIGHT = 330;
    private final ServerBenchViewModel vm;
    private final VBox root = new VBox(4);
    private final TabPane tabs = new TabPane();
    private final Tab telemetryTab;
    private final Tab resultTab;
    private final GridPane resultGrid = new GridPane();
    private final Label legend = new Label();
    private final javafx.scene.control.ScrollPane resultScroll = new javafx.scene.control.ScrollPane(
            new VBox(2, legend, resultGrid));
    private final TimeSeriesChart kv;
    private final TimeSeriesChart requests;
    private final TimeSeriesChart memory;
    private final List<XYChart> resultCharts = new ArrayList<>();
    private ChartTheme theme = ChartTheme.LIGHT;
    private Exports exports = new Exports() {
        @Override
        public void png(String fileName, Supplier<? extends Region> build) {
        }

        @Override
        public void csv(String fileName, Path source) {
        }
    };

    /** @param vm the panel's view model */
    public ServerBenchView(ServerBenchViewModel vm) {
        this.vm = vm;
        Label live = new Label();
        live.setId("benchLiveText");
        live.textProperty().bind(vm.liveTextProperty());
        live.setWrapText(true);
        live.getStyleClass().add("text-bold");
        TableView<ServerBenchViewModel.VariantState> table = new TableView<>(vm.variants());
        table.setId("benchVariants");
        table.setPlaceholder(new Label("No variant started yet"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(col("#", s -> Integer.toString(s.index()), 40, "Position among the variants"));
        table.getColumns().add(col("Variant", ServerBenchViewModel.VariantState::name, 240,
                "Variant name with its grid values"));
        table.getColumns().add(col("State", ServerBenchViewModel.VariantState::state, 100,
                "starting, under load, stopping; then ok, oom (out of GPU memory), start failed, not ready,"
                        + " crashed or cancelled"));
        table.getColumns().add(col("Detail", ServerBenchViewModel.VariantState::detail, 420,
                "Live: the latest telemetry; finished: why it failed, or its best throughput, P99 latency, peak GPU"
                        + " memory and whether it is on the Pareto front"));
        table.setPrefHeight(118);
        table.setMinHeight(108);
        table.getSelectionModel().selectedItemProperty().addListener((o, a, s) -> {
            if (s != null) {
                vm.showTelemetry(s.index());
            }
        });

        kv = new TimeSeriesChart("KV-cache usage", Quantity.of("KV-cache usage", "%"), false, theme);
        requests = new TimeSeriesChart("Requests in the server", Quantity.of("requests", "count"), false, theme);
        memory = new TimeSeriesChart("GPU memory used", Quantity.of("memory used", "GiB"), false, theme);
        yRange(memory.chart(), Double.NaN);
        kv.chart().setId("benchKvChart");
        requests.chart().setId("benchRequestsChart");
        memory.chart().setId("benchGpuChart");
        HBox charts = new HBox(4, kv.chart(), requests.chart(), memory.chart());
        for (XYChart c : List.of(kv.chart(), requests.chart(), memory.chart())) {
            c.setMinSize(150, 150);
            c.setPrefWidth(400);
            HBox.setHgrow(c, Priority.ALWAYS);
        }
        Label telemetryOf = new Label();
        telemetryOf.setId("benchTelemetryOf");
        VBox telemetryBox = new VBox(2, telemetryOf, charts);
        VBox.setVgrow(charts, Priority.ALWAYS);
        telemetryTab = new Tab("Telemetry", telemetryBox);
        telemetryTab.setId("benchTelemetryTab");

        resultGrid.setId("benchResultCharts");
        resultGrid.setHgap(4);
        resultGrid.setVgap(4);
        resultGrid.setPadding(new Insets(2, 2, 2, 2));
        legend.setWrapText(true);
        legend.setId("benchResultLegend");
        resultScroll.setFitToWidth(true);
        Label waiting = new Label("The Pareto charts and the batching heatmap appear when every variant has run");
        resultTab = new Tab("Pareto & heatmap", waiting);
        resultTab.setId("benchResultTab");
        TextArea report = new TextArea();
        report.setId("benchReport");
        report.setEditable(false);
        report.setStyle("-fx-font-family: monospace;");
        report.textProperty().bind(vm.reportProperty());
        Tab reportTab = new Tab("Report", report);
        tabs.getTabs().setAll(telemetryTab, resultTab, reportTab);
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.setId("benchTabs");
        VBox.setVgrow(tabs, Priority.ALWAYS);
        root.setPadding(new Insets(4, 8, 4, 8));
        root.getChildren().setAll(live, table, tabs);

        vm.telemetryProperty().addListener((o, a, t) -> {
            telemetryOf.setText(t == null ? "" : "Telemetry of variant " + t.index() + " '" + t.variant() + "'"
                    + (t.server().isEmpty() && t.gpus().isEmpty() ? " (no sample yet)" : ""));
            redrawTelemetry(t);
        });
        vm.resultProperty().addListener((o, a, r) -> {
            if (r == null) {
                resultCharts.clear();
                resultTab.setContent(waiting);
                tabs.getSelectionModel().select(telemetryTab);
            } else {
                showResult(r);
            }
        });
    }

    private void redrawTelemetry(ServerBenchViewModel.Telemetry t) {
        if (t == null) {
            kv.update(List.of());
            requests.update(List.of());
            memory.update(List.of());
        } else {
            var kvSeries = TelemetrySeries.kvCache(t.server());
            var reqSeries = TelemetrySeries.requests(t.server());
            kv.update(kvSeries);
            requests.update(reqSeries);
            memory.update(TelemetrySeries.gpuMemory(t.gpus()));
            // say why a chart stays empty: the server publishes no such metric, or there is no GPU reading
            kv.chart().setTitle(!t.server().isEmpty() && kvSeries.isEmpty()
                    ? "KV-cache usage: not in this server's /metrics" : "KV-cache usage");
            requests.chart().setTitle(!t.server().isEmpty() && reqSeries.isEmpty()
                    ? "Requests: not in this server's /metrics" : "Requests in the server");
            memory.chart().setTitle(t.gpus().isEmpty() && !t.server().isEmpty()
                    ? "GPU memory: no GPU telemetry" : "GPU memory used");
            // memory against the GPUs' capacity (the largest GPU's total), so a climb towards OOM shows as such
            double totalGiB = t.gpus().stream().mapToDouble(GpuReading::memoryTotalMiB).filter(Double::isFinite)
                    .max().orElse(Double.NaN) / 1024;
            yRange(memory.chart(), Double.isFinite(totalGiB) && totalGiB > 0 ? totalGiB : Double.NaN);
            double top = reqSeries.stream().flatMapToDouble(x -> java.util.Arrays.stream(x.y()))
                    .filter(Double::isFinite).max().orElse(0);
            yRange(requests.chart(), Math.max(1, top) * 1.1);
        }
        yRange(kv.chart(), 100);
        redraw(kv.chart());
        redraw(requests.chart());
        redraw(memory.chart());
    }

    /**
     * Fixes a chart's y axis at 0..{@code max} with a little room above, or lets it auto-range (with room above, so
     * that a flat line at the maximum is not drawn on the plot's edge) when {@code max} is NaN.
     */
    private static void yRange(XYChart chart, double max) {
        if (chart.getYAxis() instanceof io.fair_acc.chartfx.axes.spi.AbstractAxis a) {
            if (Double.isNaN(max)) {
                a.setAutoRanging(true);
                a.setAutoRangePadding(0.1);
            } else {
                a.setAutoRanging(false);
                a.set(0, max * 1.05);
            }
        }
    }

    /** Same work-around as the load panel's: ChartFX 11.3 did not always pass on changes of a drawn chart. */
    private static void redraw(XYChart chart) {
        chart.getAllDatasets().forEach(ds -> ds.fireInvalidated(ChartBits.DataSetData));
        chart.fireInvalidated(ChartBits.ChartDataSets, ChartBits.ChartAxes, ChartBits.ChartCanvas,
                ChartBits.ChartLayout);
        chart.requestLayout();
    }

    private void showResult(ServerBenchResult r) {
        resultCharts.clear();
        resultGrid.getChildren().clear();
        resultGrid.getColumnConstraints().clear();
        resultGrid.getRowConstraints().clear();
        // short titles on screen (the line above explains the marks); the exported PNGs get the CLI's full titles
        List<ServerBenchCharts.BenchChart> list = ServerBenchCharts.charts(r, null, theme);
        List<ServerBenchCharts.BenchChart> full = ServerBenchCharts.charts(r, vm.runName(), theme);
        legend.setText("★ = Pareto-optimal: no other variant is better in every objective at once ("
                + String.join("; ", r.objectives()) + "). Right-click a chart to export it (PNG) or the"
                + " variants' data (CSV).");
        if (list.isEmpty()) {
            resultTab.setContent(new Label("No variant was measured: no Pareto chart (see the Report tab)"));
            tabs.getSelectionModel().select(resultTab);
            return;
        }
        int columns = list.size() == 1 ? 1 : 2;
        for (int i = 0; i < columns; i++) {
            ColumnConstraints cc = new ColumnConstraints();
            cc.setPercentWidth(100.0 / columns);
            cc.setHgrow(Priority.ALWAYS);
            resultGrid.getColumnConstraints().add(cc);
        }
        int rows = (list.size() + columns - 1) / columns;
        for (int i = 0; i < rows; i++) {
            RowConstraints rc = new RowConstraints();
            rc.setMinHeight(CHART_HEIGHT);
            rc.setPrefHeight(CHART_HEIGHT);
            resultGrid.getRowConstraints().add(rc);
        }
        for (int i = 0; i < list.size(); i++) {
            ServerBenchCharts.BenchChart bc = full.get(i);
            Region chart = list.get(i).build().get();
            chart.setMinSize(150, CHART_HEIGHT);
            chart.setPrefHeight(CHART_HEIGHT);
            chart.setId(bc.file().startsWith("batching-heatmap") ? "benchHeatmap" : "benchPareto" + i);
            if (chart instanceof XYChart x) {
                resultCharts.add(x);
            }
            MenuItem png = new MenuItem("Export PNG…");
            png.setOnAction(e -> exports.png(bc.file(), bc.build()));
            MenuItem csv = new MenuItem("Export data (CSV)…");
            csv.setOnAction(e -> {
                Path f = vm.variantsCsv();
                if (f != null) {
                    exports.csv(f.getFileName().toString(), f);
                }
            });
            ContextMenu menu = new ContextMenu(png, csv);
            chart.setOnContextMenuRequested(e -> menu.show(chart, e.getScreenX(), e.getScreenY()));
            resultGrid.add(chart, i % columns, i / columns);
        }
        resultTab.setContent(resultScroll);
        tabs.getSelectionModel().select(resultTab);
    }

    /** @param e what the result charts' export menu items do */
    public void setExports(Exports e) {
        exports = e;
    }

    /** @param t chart theme (light or dark) for every chart of the panel */
    public void setTheme(ChartTheme t) {
        theme = t;
        t.apply(kv.chart());
        t.apply(requests.chart());
        t.apply(memory.chart());
        if (vm.resultProperty().get() != null) {
            showResult(vm.resultProperty().get());
        }
    }

    /** @return the live telemetry charts: KV-cache usage, requests running/waiting, GPU memory used */
    public List<XYChart> telemetryCharts() {
        return List.of(kv.chart(), requests.chart(), memory.chart());
    }

    /** @return the result charts shown (Pareto projections, then the heatmap), empty before a result */
    public List<XYChart> resultCharts() {
        return List.copyOf(resultCharts);
    }

    /** @return the root node */
    public Region root() {
        return root;
    }

    private static TableColumn<ServerBenchViewModel.VariantState, String> col(String name,
            Function<ServerBenchViewModel.VariantState, String> f, double w, String help) {
        TableColumn<ServerBenchViewModel.VariantState, String> c = new TableColumn<>();
        Label header = new Label(name);
        header.setTooltip(Controls.tip(help));
        c.setGraphic(header);
        c.setPrefWidth(w);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }
}
