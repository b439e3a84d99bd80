package org.latencylab.app.ui.experiment;

import javafx.geometry.Insets;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;

/**
 * The experiment form: probe, context sweep, load test, grid, transports or server benchmark, each with only the settings the engine honours,
 * in a scroll pane (the load-test form is long). Build and use on the JavaFX thread.
 */
public final class ExperimentView {
    private final Region root;

    /** @param vm the experiment view model */
    public ExperimentView(ExperimentViewModel vm) {
        Controls c = new Controls();
        ToggleGroup kind = new ToggleGroup();
        RadioButton probe = new RadioButton("Probe");
        probe.setId("kindProbe");
        probe.setToggleGroup(kind);
        probe.setTooltip(Controls.tip("N requests at fixed concurrency (closed loop): percentiles of TTFT, TPOT, ITL"
                + " and E2E, SLO compliance and the latency tier"));
        RadioButton sweep = new RadioButton("Context sweep");
        sweep.setId("kindSweep");
        sweep.setToggleGroup(kind);
        sweep.setTooltip(Controls.tip("Prompts of exactly the chosen token lengths; fits P50 TTFT = a · n^α with α's"
                + " 95 % interval and R²"));
        RadioButton load = new RadioButton("Load test");
        load.setId("kindLoad");
        load.setToggleGroup(kind);
        load.setTooltip(Controls.tip("Closed or open loop for a duration: rate shapes (constant, ramp, burst), caps,"
                + " deadlines and a goodput SLO; live P50/P95/P99 per second with tier bands"));
        RadioButton gridKind = new RadioButton("Grid");
        gridKind.setId("kindGrid");
        gridKind.setToggleGroup(kind);
        gridKind.setTooltip(Controls.tip("One load step per cell of concurrency (or rate) × prompt length; the"
                + " heatmap fills cell by cell"));
        RadioButton transportsKind = new RadioButton("Transports");
        transportsKind.setId("kindTransports");
        transportsKind.setToggleGroup(kind);
        transportsKind.setTooltip(Controls.tip("SSE vs gRPC vs JSON × emulated networks × warm/cold connections:"
                + " first-screen latency per cell as grouped bars"));
        RadioButton benchKind = new RadioButton("Server benchmark");
        benchKind.setId("kindServerBench");
        benchKind.setToggleGroup(kind);
        benchKind.setTooltip(Controls.tip("GPU-server variants (vLLM, SGLang, TGI, llama.cpp, Ollama, the simulator)"
                + " launched or attached, each loaded with the same plan and watched (KV cache, queue, GPU memory);"
                + " Pareto front of throughput, P99 latency and memory, batching heatmap, roofline and cost"));
        java.util.Map<ExperimentViewModel.Kind, RadioButton> buttons = new java.util.EnumMap<>(
                ExperimentViewModel.Kind.class);
        buttons.put(ExperimentViewModel.Kind.PROBE, probe);
        buttons.put(ExperimentViewModel.Kind.SWEEP, sweep);
        buttons.put(ExperimentViewModel.Kind.LOAD, load);
        buttons.put(ExperimentViewModel.Kind.GRID, gridKind);
        buttons.put(ExperimentViewModel.Kind.TRANSPORTS, transportsKind);
        buttons.put(ExperimentViewModel.Kind.SERVER_BENCH, benchKind);
        kind.selectToggle(buttons.get(vm.kindProperty().get()));
        kind.selectedToggleProperty().addListener((o, a, b) -> buttons.forEach((k, button) -> {
            if (button == b) {
                vm.kindProperty().set(k);
            }
        }));
        vm.kindProperty().addListener((o, a, b) -> kind.selectToggle(buttons.get(b)));

        GridPane common = grid();
        common.addRow(0, Controls.label("Concurrency", "Requests in flight at once"),
                c.intSpinner(vm.concurrencyProperty(), 1, 1024, 1, "concurrency", "Requests in flight at once"));
        CheckBox cold = new CheckBox("Cold prompts (unique prefix per request)");
        cold.selectedProperty().bindBidirectional(vm.coldProperty());
        cold.setTooltip(Controls.tip("Each request gets a unique prefix so no server prefix (KV) cache helps;"
                + " off = warm: the same prompt text per length"));
        ComboBox<String> tokenizer = new ComboBox<>();
        tokenizer.getItems().setAll(ExperimentViewModel.TOKENIZERS);
        tokenizer.valueProperty().bindBidirectional(vm.tokenizerProperty());
        tokenizer.setTooltip(Controls.tip("Tokenizer (jtokkit encoding) that sizes prompts and counts output tokens"
                + " when the server reports no usage"));
        common.addRow(1, new Label(""), cold);
        common.visibleProperty().bind(probe.selectedProperty().or(sweep.selectedProperty()));
        common.managedProperty().bind(common.visibleProperty());
        GridPane tokenizerRow = grid();
        tokenizerRow.addRow(0, Controls.label("Tokenizer", null), tokenizer);

        GridPane p = grid();
        p.addRow(0, Controls.label("Requests", null), c.intSpinner(vm.requestsProperty(), 1, 1_000_000, 10,
                "requests", "Number of measured requests"));
        p.addRow(1, Controls.label("Prompt tokens", null), c.intSpinner(vm.promptTokensProperty(), 1, 1_000_000, 64,
                "promptTokens", "Prompt length in tokens"));
        p.addRow(2, Controls.label("Max output tokens", null), c.intSpinner(vm.maxOutputTokensProperty(), 1, 100_000,
                16, "maxOutputTokens", "max_tokens of each request"));
        CheckBox stream = new CheckBox("Stream (SSE)");
        stream.selectedProperty().bindBidirectional(vm.streamProperty());
        p.addRow(3, new Label(""), stream);
        TitledPane probePane = new TitledPane("Probe", p);
        probePane.setCollapsible(false);
        probePane.visibleProperty().bind(probe.selectedProperty());
        probePane.managedProperty().bind(probe.selectedProperty());

        GridPane s = grid();
        HBox lengths = new HBox(10);
        String[] ids = {"len2k", "len8k", "len32k"};
        for (int i = 0; i < ExperimentViewModel.PRESET_LENGTHS.size(); i++) {
            int n = ExperimentViewModel.PRESET_LENGTHS.get(i);
            CheckBox box = new CheckBox((n / 1024) + "k");
            box.setId(ids[i]);
            box.selectedProperty().bindBidirectional(vm.presetCheckedProperty(i));
            box.setTooltip(Controls.tip(n + " prompt tokens"));
            lengths.getChildren().add(box);
        }
        TextField custom = new TextField();
        custom.setId("customLengths");
        custom.setPromptText("e.g. 4k, 16384");
        custom.textProperty().bindBidirectional(vm.customLengthsProperty());
        custom.setTooltip(Controls.tip("More prompt lengths in tokens, comma-separated; 4k = 4096"));
        s.addRow(0, Controls.label("Context lengths", null), lengths);
        s.addRow(1, Controls.label("Custom lengths", null), custom);
        s.addRow(2, Controls.label("Requests per length", null), c.intSpinner(vm.requestsPerLengthProperty(), 1,
                100_000, 5, "requestsPerLength", "Requests sent at each length"));
        TitledPane sweepPane = new TitledPane("Context sweep", s);
        sweepPane.setCollapsible(false);
        sweepPane.visibleProperty().bind(sweep.selectedProperty());
        sweepPane.managedProperty().bind(sweep.selectedProperty());

        TitledPane loadPane = new TitledPane("Load test", new LoadFormView(vm.load()).root());
        loadPane.setCollapsible(false);
        loadPane.visibleProperty().bind(load.selectedProperty());
        loadPane.managedProperty().bind(load.selectedProperty());
        TitledPane gridPane = new TitledPane("Grid", new GridFormView(vm.grid()).root());
        gridPane.setCollapsible(false);
        gridPane.visibleProperty().bind(gridKind.selectedProperty());
        gridPane.managedProperty().bind(gridKind.selectedProperty());

        TitledPane transportsPane = new TitledPane("Transports", new TransportsFormView(vm.transports()).root());
        transportsPane.setCollapsible(false);
        transportsPane.visibleProperty().bind(transportsKind.selectedProperty());
        transportsPane.managedProperty().bind(transportsKind.selectedProperty());

        TitledPane benchPane = new TitledPane("Server benchmark", new ServerBenchFormView(vm.serverBench()).root());
        benchPane.setCollapsible(false);
        benchPane.visibleProperty().bind(benchKind.selectedProperty());
        benchPane.managedProperty().bind(benchKind.selectedProperty());

        Label hint = new Label("Run with Ctrl+R; cancel with Esc. Results appear live in the Results tab."
                + " Open scenario… (Ctrl+O) runs a scenario file with any number of steps.");
        hint.setWrapText(true);
        VBox content = new VBox(10, new HBox(16, probe, sweep, load, gridKind, transportsKind, benchKind),
                common, tokenizerRow, probePane, sweepPane, loadPane, gridPane, transportsPane, benchPane, hint);
        content.setPadding(new Insets(12));
        javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane(content);
        scroll.setFitToWidth(true);
        root = scroll;
    }

    private static GridPane grid() {
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(6);
        javafx.scene.layout.ColumnConstraints c0 = new javafx.scene.layout.ColumnConstraints();
        c0.setMinWidth(150);
        g.getColumnConstraints().add(c0);
        return g;
    }

    /** @return the root node */
    public Region root() {
        return root;
    }
}
