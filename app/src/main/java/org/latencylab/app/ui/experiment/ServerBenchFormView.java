package org.latencylab.app.ui.experiment;

import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableStringValue;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;

import java.util.List;

/**
 * The Server benchmark form: one row per server variant (name, source, command or URL, model, parameters, price,
 * instance type, with the engine's message under the row when it is invalid), the load plan, the servers' lifecycle
 * and telemetry, and the analysis. The form is validated on every change and each message shows next to its part.
 * Build and use on the JavaFX thread.
 */
final class ServerBenchFormView {
    private static final String ERROR_STYLE = "-fx-text-fill: -color-danger-fg;";
    private final Region root;
    private final ServerBenchForm f;
    private final VBox rows = new VBox(6);

    /** @param f the form's state */
    ServerBenchFormView(ServerBenchForm f) {
        this.f = f;
        Controls c = new Controls();
        Button add = new Button("+ Add variant");
        add.setId("benchAddVariant");
        add.setTooltip(Controls.tip("Another server variant; parameters with several values (max_num_seqs=64,128)"
                + " make a grid: one variant per combination"));
        add.setOnAction(e -> f.addVariant());
        Label header = new Label("Each variant: name · source · the command it launches (or the URL it attaches to);"
                + " below it the model, parameters (name=value; name=v1,v2 for a grid), price and instance type");
        header.setStyle("-fx-opacity: 0.75;");
        VBox variantsBox = new VBox(6, header, rows, add);
        TitledPane variants = pane("Server variants", variantsBox);

        FormRows load = new FormRows()
                .add("Load levels", "One value runs the plan once per variant; several sweep it (every level on"
                        + " every variant)", new HBox(8, Controls.choice(f.levelAxisProperty(),
                        ServerBenchForm.LEVEL_AXES, "benchLevelAxis", "concurrency: closed loop with that many"
                                + " workers; rate: open loop (Poisson arrivals), requests/s"),
                        Controls.text(f.levelsProperty(), "benchLevels", "8", "e.g. 8, or 4, 16, 64")), null)
                .add("Duration per level", null, Controls.text(f.durationProperty(), "benchDuration", "10s",
                        "how long each level runs, e.g. 10s"), null)
                .add("Warmup", "Requests intended in the first part of each level are sent but left out of the"
                        + " statistics", Controls.text(f.warmupProperty(), "benchWarmup", "0s", "e.g. 2s"), null)
                .add("Prompt tokens", null, c.intSpinner(f.contextTokensProperty(), 1, 1_000_000, 64,
                        "benchContextTokens", "prompt length in tokens"), null)
                .add("Max output tokens", null, c.intSpinner(f.maxOutputTokensProperty(), 1, 100_000, 8,
                        "benchMaxOutputTokens", "max_tokens of each request"), null)
                .add("", null, check("Cold prompts (unique prefix per request)", f), null)
                .add("SLO [ms]", "A request counts in goodput when it succeeded and its metric is at most this;"
                        + " empty or 0 = no SLO", new HBox(8, Controls.choice(f.sloMetricProperty(),
                        ServerBenchForm.SLO_METRICS, "benchSloMetric", "per-request metric"),
                        Controls.text(f.sloMaxMsProperty(), "benchSloMs", "none", "threshold, ms")), null);
        VBox loadBox = new VBox(6, load.grid(), error(f.loadErrorProperty(), "benchLoadError"));
        TitledPane loadPane = pane("Load plan (every variant)", loadBox);

        FormRows life = new FormRows()
                .add("Ready timeout", "Launch → a readiness path answers 200; a server not ready by then is"
                        + " recorded as not_ready, with its last log lines", Controls.text(f.readyTimeoutProperty(),
                        "benchReadyTimeout", "120s", null), null)
                .add("Stop grace", "SIGTERM to the server's process tree, SIGKILL after this",
                        Controls.text(f.stopGraceProperty(), "benchStopGrace", "10s", null), null)
                .add("Scrape interval", "Telemetry period: /metrics and GPU readings (1s = 1 Hz)",
                        Controls.text(f.scrapeIntervalProperty(), "benchScrape", "1s", null), null)
                .add("GPU telemetry", "auto: the simulator's /sim/gpu when offered, else nvidia-smi when installed,"
                        + " else a note", Controls.choice(f.gpuTelemetryProperty(), ServerBenchForm.GPU_TELEMETRY,
                        "benchGpuTelemetry", null), null);
        TitledPane lifePane = pane("Servers and telemetry", life.grid());

        FormRows analysis = new FormRows()
                .add("Pareto latency (P99)", "The latency objective of the Pareto front, at P99",
                        Controls.choice(f.latencyMetricProperty(), ServerBenchForm.LATENCY_METRICS, "benchLatency",
                                null), null)
                .add("Roofline", "Decode bound TPOT ≥ (weight bytes + KV bytes read per step) ÷ memory bandwidth;"
                        + " none = no roofline", new HBox(8, Controls.choice(f.rooflineGpuProperty(),
                        ServerBenchForm.GPUS, "benchRooflineGpu", "GPU (datasheet bandwidth and memory)"),
                        Controls.choice(f.rooflineModelProperty(), ServerBenchForm.MODELS, "benchRooflineModel",
                                "model (parameters, layers, KV heads, head dim)")), null)
                .add("Price per GPU-hour", "For the cost per 1M output tokens; a variant's own price overrides it;"
                        + " empty = no cost table", Controls.text(f.pricePerGpuHourProperty(), "benchPrice", "none",
                        "e.g. 1.01 (any currency)"), null)
                .add("GPUs per server", null, c.intSpinner(f.gpusProperty(), 1, 64, 1, "benchGpus",
                        "GPUs each server uses (cost and roofline)"), null);
        TitledPane analysisPane = pane("Analysis", analysis.grid());

        Label summary = new Label();
        summary.setId("benchSummary");
        summary.textProperty().bind(f.summaryProperty());
        VBox box = new VBox(8, variants, loadPane, lifePane, analysisPane,
                error(f.benchErrorProperty(), "benchError"), summary);
        root = box;
        f.variants().addListener((ListChangeListener<ServerVariantRow>) ch -> {
            boolean structure = false;
            while (ch.next()) {
                structure |= ch.wasAdded() || ch.wasRemoved() || ch.wasPermutated();
            }
            if (structure) {
                rebuildRows();
            }
            f.validate();
        });
        for (var p : new javafx.beans.Observable[] {f.levelAxisProperty(), f.levelsProperty(), f.durationProperty(),
            f.warmupProperty(), f.contextTokensProperty(), f.maxOutputTokensProperty(), f.coldProperty(),
            f.sloMetricProperty(), f.sloMaxMsProperty(), f.readyTimeoutProperty(), f.stopGraceProperty(),
            f.scrapeIntervalProperty(), f.gpuTelemetryProperty(), f.latencyMetricProperty(),
            f.rooflineGpuProperty(), f.rooflineModelProperty(), f.pricePerGpuHourProperty(), f.gpusProperty()}) {
            p.addListener(o -> f.validate());
        }
        rebuildRows();
        f.validate();
    }

    private static CheckBox check(String text, ServerBenchForm f) {
        CheckBox cold = new CheckBox(text);
        cold.setId("benchCold");
        cold.selectedProperty().bindBidirectional(f.coldProperty());
        cold.setTooltip(Controls.tip("No prefix (KV) cache can help: each request's prompt starts differently"));
        return cold;
    }

    private static TitledPane pane(String title, Region content) {
        TitledPane p = new TitledPane(title, content);
        p.setCollapsible(false);
        return p;
    }

    private static Label error(ObservableStringValue text, String id) {
        Label l = new Label();
        l.setId(id);
        l.textProperty().bind(text);
        l.setWrapText(true);
        l.setStyle(ERROR_STYLE);
        l.visibleProperty().bind(Bindings.isNotEmpty(text));
        l.managedProperty().bind(l.visibleProperty());
        return l;
    }

    private static Label small(String text) {
        Label l = new Label(text);
        l.setStyle("-fx-opacity: 0.75;");
        l.setMinWidth(Region.USE_PREF_SIZE);
        return l;
    }

    private void rebuildRows() {
        rows.getChildren().clear();
        int i = 0;
        for (ServerVariantRow r : f.variants()) {
            rows.getChildren().add(row(r, i++));
        }
    }

    private VBox row(ServerVariantRow r, int i) {
        TextField name = Controls.text(r.nameProperty(), "benchName" + i, "name", "Variant name, unique; grid"
                + " variants add their values, e.g. tgi batch_size=8");
        name.setPrefColumnCount(9);
        ComboBox<String> source = Controls.choice(r.sourceProperty(), ServerVariantRow.SOURCES, "benchSource" + i,
                "simulator: a LatencyLab simulator process with that engine's behaviour and metric names (offline);"
                        + " vLLM, SGLang, TGI, llama.cpp, Ollama: their launch command with real flag names;"
                        + " custom command; or attach to a running server's URL");
        source.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(String id) {
                return ServerVariantRow.sourceText(id);
            }

            @Override
            public String fromString(String s) {
                return ServerVariantRow.SOURCES.stream().filter(id -> ServerVariantRow.sourceText(id).equals(s))
                        .findFirst().orElse(null);
            }
        });
        TextField command = Controls.text(r.commandProperty(), "benchCommand" + i, "", "Command template with"
                + " {port} {host} {model} {latencylab} and parameter placeholders, or the server's URL");
        HBox.setHgrow(command, Priority.ALWAYS);
        Label preview = new Label();
        preview.setId("benchPreview" + i);
        preview.setStyle("-fx-font-family: monospace; -fx-opacity: 0.8;");
        preview.setMaxWidth(Double.MAX_VALUE);
        preview.setPrefWidth(520); // a long command is cut with an ellipsis (its tooltip has it all)
        preview.setMinWidth(120);
        command.setPrefWidth(520);
        command.setMinWidth(120);
        HBox.setHgrow(preview, Priority.ALWAYS);
        Runnable sync = () -> {
            boolean edit = r.editableCommand();
            command.setVisible(edit);
            command.setManaged(edit);
            command.setPromptText("attach".equals(r.sourceProperty().get()) ? "http://gpu-box:8000"
                    : "vllm serve {model} --port {port} --max-num-seqs {max_num_seqs}");
            preview.setVisible(!edit);
            preview.setManaged(!edit);
            preview.setText(r.commandPreview());
            preview.setTooltip(Controls.tip("Launched as: " + r.commandPreview()));
        };
        r.sourceProperty().addListener((o, a, b) -> sync.run());
        r.parametersProperty().addListener((o, a, b) -> sync.run());
        sync.run();
        TextField model = Controls.text(r.modelProperty(), "benchModel" + i, "model", "Model name sent in requests"
                + " and {model}; empty = the server's first listed model");
        model.setPrefColumnCount(9);
        TextField params = Controls.text(r.parametersProperty(), "benchParams" + i, "max_num_seqs=4,8",
                "name=value sets a placeholder; name=v1,v2 makes a grid (one variant per combination). The"
                        + " templates' parameters: max_num_seqs, max_batched_tokens (simulator also gpu_memory_gib)");
        params.setPrefColumnCount(14);
        TextField price = Controls.text(r.pricePerGpuHourProperty(), "benchVariantPrice" + i, "price",
                "Price per GPU-hour of this variant; empty = the benchmark's");
        price.setPrefColumnCount(5);
        TextField instance = Controls.text(r.instanceTypeProperty(), "benchInstance" + i, "instance",
                "Instance type shown in the cost table, e.g. g5.xlarge");
        instance.setPrefColumnCount(7);
        Button remove = new Button("✕");
        remove.setId("benchRemove" + i);
        remove.setTooltip(Controls.tip("Remove this variant"));
        remove.setOnAction(e -> f.removeVariant(r));
        HBox line = new HBox(6, name, source, command, preview, remove);
        HBox.setHgrow(params, Priority.ALWAYS);
        params.setMaxWidth(Double.MAX_VALUE);
        HBox more = new HBox(6, small("model"), model, small("parameters"), params, small("price / GPU-hour"), price,
                small("instance"), instance);
        more.setPadding(new Insets(0, 0, 0, 24));
        for (Region fixed : List.of(name, source, model, price, instance, remove)) {
            fixed.setMinWidth(Region.USE_PREF_SIZE); // the command and the parameters give way when space is short
        }
        line.setAlignment(Pos.CENTER_LEFT);
        more.setAlignment(Pos.CENTER_LEFT);
        Label err = error(r.errorProperty(), "benchVariantError" + i);
        err.setPadding(new Insets(0, 0, 0, 24));
        VBox box = new VBox(3, line, more, err);
        box.setPadding(new Insets(0, 0, 4, 0));
        return box;
    }

    /** @return the form */
    Region root() {
        return root;
    }
}
