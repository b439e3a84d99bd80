package org.latencylab.app.ui.workflow;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.results.EndpointCharts;

import java.io.File;
import java.util.List;
import java.util.function.Function;

/**
 * The Rankings tab: simulator profiles to rank and the workload size, a Rank button, the ranking table (P50/P95
 * TTFT and P95 E2E with 95 % intervals, tier, SLO attainment, error rate), the neighbour verdicts, the ranking
 * chart; the SLO budget calculator; "Export report…" for the run on screen. Build and use on the JavaFX thread.
 */
public final class RankingView {
    private final RankingViewModel vm;
    private final VBox root = new VBox(10);
    private final StackPane chartHolder = new StackPane();
    private final ScrollPane scroll = new ScrollPane(root);

    /**
     * @param vm       the tab's view model
     * @param profiles built-in simulator profile names to offer
     */
    public RankingView(RankingViewModel vm, List<String> profiles) {
        this.vm = vm;
        root.setPadding(new Insets(10));

        FlowPane boxes = new FlowPane(12, 6);
        for (String p : profiles) {
            CheckBox cb = new CheckBox(p);
            cb.setId("rank-" + p);
            cb.setSelected(vm.selectedProfiles().contains(p));
            cb.selectedProperty().addListener((o, a, on) -> {
                if (on && !vm.selectedProfiles().contains(p)) {
                    vm.selectedProfiles().add(p);
                } else if (!on) {
                    vm.selectedProfiles().remove(p);
                }
            });
            vm.selectedProfiles().addListener((javafx.collections.ListChangeListener<String>) c ->
                    cb.setSelected(vm.selectedProfiles().contains(p)));
            boxes.getChildren().add(cb);
        }
        Spinner<Integer> requests = new Spinner<>(2, 10_000, vm.requestsProperty().get(), 10);
        requests.setEditable(true);
        requests.setId("rankRequests");
        requests.setPrefWidth(100);
        requests.valueProperty().addListener((o, a, v) -> vm.requestsProperty().set(v));
        vm.requestsProperty().addListener((o, a, v) -> requests.getValueFactory().setValue(v.intValue()));
        Spinner<Integer> prompt = new Spinner<>(1, 131_072, vm.promptTokensProperty().get(), 256);
        prompt.setEditable(true);
        prompt.setPrefWidth(110);
        prompt.valueProperty().addListener((o, a, v) -> vm.promptTokensProperty().set(v));
        vm.promptTokensProperty().addListener((o, a, v) -> prompt.getValueFactory().setValue(v.intValue()));
        TextField slo = new TextField();
        slo.textProperty().bindBidirectional(vm.sloTtftMsProperty());
        slo.setPrefColumnCount(6);
        Button rank = new Button("Rank");
        rank.setId("rankButton");
        rank.setTooltip(Controls.tip("Send the same requests to every chosen endpoint, interleaved round-robin, and"
                + " rank them by P95 TTFT"));
        rank.setOnAction(e -> vm.start());
        rank.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        Spinner<Integer> interval = new Spinner<>(1, 3600, vm.monitorIntervalSecondsProperty().get(), 5);
        interval.setEditable(true);
        interval.setPrefWidth(90);
        interval.valueProperty().addListener((o, a, v) -> vm.monitorIntervalSecondsProperty().set(v));
        vm.monitorIntervalSecondsProperty().addListener((o, a, v) -> interval.getValueFactory().setValue(v.intValue()));
        Spinner<Integer> minutes = new Spinner<>(1, 7 * 24 * 60, vm.monitorMinutesProperty().get(), 60);
        minutes.setEditable(true);
        minutes.setPrefWidth(100);
        minutes.valueProperty().addListener((o, a, v) -> vm.monitorMinutesProperty().set(v));
        vm.monitorMinutesProperty().addListener((o, a, v) -> minutes.getValueFactory().setValue(v.intValue()));
        Button monitor = new Button("Monitor");
        monitor.setId("monitorButton");
        monitor.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        monitor.setTooltip(Controls.tip("Probe every chosen endpoint at a low rate for a long time: hourly and daily"
                + " histograms, SLO attainment, a live ranking (monitor.json)"));
        monitor.setOnAction(e -> vm.startMonitor());
        FlowPane form = new FlowPane(8, 6, new Label("requests per endpoint"), requests, new Label("prompt tokens"),
                prompt, new Label("SLO: TTFT ≤ [ms] (P95)"), slo, rank, new Label("  or monitor: every [s]"), interval,
                new Label("for [min]"), minutes, monitor);
        form.setAlignment(javafx.geometry.Pos.CENTER_LEFT);

        TableView<RankingViewModel.Row> table = new TableView<>(vm.rows());
        table.setId("rankingTable");
        table.setPrefHeight(160);
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        table.getColumns().setAll(List.of(
                col("rank", r -> Integer.toString(r.rank())), col("endpoint", RankingViewModel.Row::endpoint),
                col("n", r -> Long.toString(r.requests())), col("TTFT P50 [95 % CI]", RankingViewModel.Row::ttftP50),
                col("TTFT P95 [95 % CI]", RankingViewModel.Row::ttftP95), col("E2E P95 [95 % CI]", RankingViewModel.Row::e2eP95),
                col("tier", RankingViewModel.Row::tier), col("SLO attainment", RankingViewModel.Row::sloAttainment),
                col("errors", RankingViewModel.Row::errorRate)));
        Label verdicts = new Label();
        verdicts.setId("rankingVerdicts");
        verdicts.setWrapText(true);
        verdicts.textProperty().bind(vm.verdictsProperty());
        chartHolder.setMinHeight(320);
        vm.rankingProperty().addListener((o, a, r) -> chartHolder.getChildren().setAll(r == null ? List.of()
                : List.of(EndpointCharts.ranking("Ranking by P95 TTFT", r, ChartTheme.LIGHT))));
        VBox rankBox = new VBox(8, boxes, form, table, verdicts, chartHolder);
        TitledPane rankPane = new TitledPane("Rank endpoints (compare-endpoints)", rankBox);
        rankPane.setCollapsible(false);

        GridPane budget = new GridPane();
        budget.setHgap(8);
        budget.setVgap(6);
        TextField sla = field(vm.slaP95Property(), "slaP95");
        TextField infra = field(vm.infraP95Property(), "infraP95");
        TextField margin = field(vm.marginProperty(), "margin");
        Label model = new Label();
        model.setId("modelSlo");
        model.textProperty().bind(vm.modelSloProperty());
        budget.addRow(0, new Label("SLA P95 (end to end)"), sla, new Label("infrastructure P95 (e.g. a baseline's"
                + " paired Δ P95)"), infra, new Label("safety margin"), margin);
        budget.add(model, 0, 1, 6, 1);
        TextField cells = new TextField();
        cells.setId("slaCells");
        cells.textProperty().bindBidirectional(vm.slaCellsProperty());
        Button judge = new Button("Judge run on screen");
        judge.setId("judgeSla");
        judge.setTooltip(Controls.tip("Judge every step of the run on screen against these SLO cells (from its"
                + " run.json): METRIC:pNN:MAX_MS or output_tokens_per_s:min:N, comma-separated"));
        judge.setOnAction(e -> vm.judgeSla());
        Label verdict = new Label();
        verdict.setId("slaVerdict");
        verdict.setWrapText(true);
        verdict.textProperty().bind(vm.slaVerdictProperty());
        budget.add(new Label("SLO matrix"), 0, 2);
        budget.add(cells, 1, 2, 4, 1);
        budget.add(judge, 5, 2);
        budget.add(verdict, 0, 3, 6, 1);
        TitledPane budgetPane = new TitledPane("SLO budget: model SLO = (SLA P95 − infrastructure P95) × (1 − margin);"
                + " SLO matrix",
                budget);
        budgetPane.setCollapsible(false);

        Button export = new Button("Export report…");
        export.setId("exportReport");
        export.setTooltip(Controls.tip("A self-contained HTML report of the run on screen (tables, definitions, charts)"));
        export.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setInitialFileName(org.latencylab.engine.results.RunLayout.REPORT_HTML);
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("HTML", "*.html"));
            File f = fc.showSaveDialog(root.getScene() == null ? null : root.getScene().getWindow());
            if (f != null) {
                vm.exportReport(f.toPath());
            }
        });
        Button importButton = new Button("Import results…");
        importButton.setId("importResults");
        importButton.setTooltip(Controls.tip("Import a vllm bench serve --save-detailed JSON, a GuideLLM report or an"
                + " AIPerf profile_export.jsonl into the history, marked with its tool and the metrics it lacks"));
        importButton.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("results", "*.json", "*.jsonl"));
            File f = fc.showOpenDialog(root.getScene() == null ? null : root.getScene().getWindow());
            if (f != null) {
                vm.importResults(f.toPath());
            }
        });
        Label msg = new Label();
        msg.setId("rankingMessage");
        msg.textProperty().bind(vm.messageProperty());
        root.getChildren().setAll(rankPane, budgetPane, new HBox(8, export, importButton, msg));
        scroll.setFitToWidth(true);
    }

    private static TextField field(javafx.beans.property.StringProperty p, String id) {
        TextField t = new TextField();
        t.setId(id);
        t.setPrefColumnCount(7);
        t.textProperty().bindBidirectional(p);
        return t;
    }

    private static TableColumn<RankingViewModel.Row, String> col(String name, Function<RankingViewModel.Row, String> f) {
        TableColumn<RankingViewModel.Row, String> c = new TableColumn<>(name);
        c.setPrefWidth(name.contains("CI") ? 200 : name.equals("endpoint") ? 150 : name.length() > 6 ? 110 : 60);
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(f.apply(d.getValue())));
        c.setSortable(false);
        return c;
    }

    /** @return the tab's content */
    public javafx.scene.Node root() {
        return scroll;
    }
}
