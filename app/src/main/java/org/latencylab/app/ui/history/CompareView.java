package org.latencylab.app.ui.history;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.engine.stats.LatencyCdf;

import java.util.ArrayList;
import java.util.List;

/**
 * Any number of runs side by side: one CDF per run (TTFT or E2E, chosen above the chart; the legend names each run
 * with its start time) and a table with one column per run holding the value and its difference from the chosen
 * baseline run, each metric's definition on hover. Build and use on the JavaFX thread.
 */
public final class CompareView {
    /** Distributions the CDF chart can show: label → metric id of {@link CompareViewModel.Loaded#cdf}. */
    private static final List<String[]> CDF_METRICS = List.of(new String[]{"TTFT", "ttft"},
            new String[]{"E2E", "e2e"});
    private final BorderPane root = new BorderPane();
    private final CdfChart cdf;
    private final CompareViewModel vm;
    private final ComboBox<String> baseline = new ComboBox<>();
    private final ComboBox<String> metric = new ComboBox<>();
    private final TableView<CompareViewModel.DiffRow> table;
    private boolean updating;

    /** @param vm compare view model @param theme chart look */
    public CompareView(CompareViewModel vm, ChartTheme theme) {
        this.vm = vm;
        cdf = new CdfChart("TTFT of the compared runs", Quantity.of("Latency", "ms"), CdfChart.YScale.PERCENTILE,
                true, theme);
        cdf.chart().setId("compareCdf");
        table = new TableView<>(vm.rows());
        table.setId("compareTable");
        table.setPlaceholder(new Label("Select two or more runs in History (Ctrl+click) and press Compare (Ctrl+D)"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setRowFactory(tv -> {
            TableRow<CompareViewModel.DiffRow> row = new TableRow<>();
            row.itemProperty().addListener((o, a, b) -> row.setTooltip(b == null ? null : Controls.tip(b.definition())));
            return row;
        });
        columns(null);

        baseline.setId("compareBaseline");
        baseline.setTooltip(Controls.tip("The run the others are measured against (Δ ms and Δ %)"));
        baseline.valueProperty().addListener((o, a, b) -> {
            int i = baseline.getSelectionModel().getSelectedIndex();
            if (!updating && i >= 0 && vm.loadedProperty().get() != null) {
                vm.setBaseline(i);
            }
        });
        metric.setId("compareMetric");
        CDF_METRICS.forEach(m -> metric.getItems().add(m[0]));
        metric.getSelectionModel().select(0);
        metric.setTooltip(Controls.tip("Which distribution the chart overlays, one curve per run"));
        metric.valueProperty().addListener((o, a, b) -> drawCdfs());

        Label msg = new Label();
        msg.textProperty().bind(vm.messageProperty());
        msg.setWrapText(true);
        FlowPane bar = new FlowPane(8, 4, new Label("Baseline:"), baseline, new Label("CDF of:"), metric);
        bar.setAlignment(Pos.CENTER_LEFT);
        VBox top = new VBox(4, bar, msg);
        top.setPadding(new Insets(6));
        SplitPane split = new SplitPane(cdf.chart(), table);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.6);
        root.setTop(top);
        root.setCenter(split);
        Label thin = new Label("* fewer than 10 samples above this percentile in that run: an estimate near its"
                + " maximum, so a difference against it says little");
        thin.setId("compareThinNote");
        thin.setWrapText(true);
        thin.setPadding(new Insets(2, 6, 4, 6));
        thin.visibleProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> vm.rows().stream()
                .anyMatch(r -> r.cells().stream().anyMatch(CompareViewModel.Cell::thin)), vm.rows()));
        thin.managedProperty().bind(thin.visibleProperty());
        root.setBottom(thin);
        vm.loadedProperty().addListener((o, a, l) -> {
            updating = true;
            try {
                baseline.getItems().setAll(l == null ? List.of() : l.labels());
                if (l != null) {
                    baseline.getSelectionModel().select(vm.baselineProperty().get());
                }
            } finally {
                updating = false;
            }
            columns(l);
            drawCdfs();
        });
        vm.baselineProperty().addListener((o, a, b) -> {
            if (!updating && baseline.getSelectionModel().getSelectedIndex() != b.intValue()) {
                updating = true;
                baseline.getSelectionModel().select(b.intValue());
                updating = false;
            }
        });
    }

    /** One column per run, headed by its label (the baseline's says so in the cells). */
    private void columns(CompareViewModel.Loaded l) {
        List<TableColumn<CompareViewModel.DiffRow, String>> cols = new ArrayList<>();
        TableColumn<CompareViewModel.DiffRow, String> stat = new TableColumn<>("Statistic");
        stat.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().statistic()));
        stat.setMinWidth(90);
        cols.add(stat);
        if (l != null) {
            for (int i = 0; i < l.labels().size(); i++) {
                int run = i;
                String source = l.infos().get(i).sourceTool();
                TableColumn<CompareViewModel.DiffRow, String> c = new TableColumn<>((i + 1) + ". "
                        + l.labels().get(i) + (source.equals("latencylab") ? "" : " [" + source + "]"));
                c.setId("compareRun" + i);
                c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(cd.getValue().cells().get(run).text()));
                c.setMinWidth(150);
                cols.add(c);
            }
        }
        table.getColumns().setAll(cols);
    }

    /** One curve per run of the chosen metric; a run without that distribution is left out of the legend. */
    private void drawCdfs() {
        CompareViewModel.Loaded l = vm.loadedProperty().get();
        int m = Math.max(0, metric.getSelectionModel().getSelectedIndex());
        String[] which = CDF_METRICS.get(m);
        cdf.chart().setTitle(which[0] + " of the compared runs");
        List<SampleSet> sets = new ArrayList<>();
        if (l != null) {
            for (int i = 0; i < l.labels().size(); i++) {
                LatencyCdf c = l.cdf(which[1], i);
                if (c != null) {
                    sets.add(new SampleSet((i + 1) + ". " + l.labels().get(i), c.valuesMs()));
                }
            }
        }
        cdf.update(sets);
    }

    /** @return the CDF chart (one curve per compared run) */
    public CdfChart cdfChart() {
        return cdf;
    }

    /** @param t theme for the chart */
    public void setTheme(ChartTheme t) {
        t.apply(cdf.chart());
    }

    /** @return the root node */
    public Region root() {
        return root;
    }
}
