package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.DataSet;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.latencylab.app.cli.LatencyLabCommand;
import org.latencylab.app.ui.history.CompareViewModel;
import org.latencylab.app.ui.history.RunEntry;
import org.latencylab.app.ui.lens.DefinitionsViewModel;
import org.latencylab.engine.compare.RunComparison;
import org.latencylab.engine.lens.MetricDefinition;
import org.testfx.api.FxRobot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * Comparing three saved runs through the real window under headless Monocle: two LatencyLab probes of the same name
 * and an imported vLLM bench result are selected in History and compared (one CDF per run, a legend and columns that
 * tell the same-named runs apart, a difference table against a baseline the user changes); then one run is opened
 * and its Definitions tab shows the metric-definition lens.
 */
class CompareFlowTest {
    @RegisterExtension
    static final DesktopWindow WINDOW = new DesktopWindow(root -> {
        Path runs = root.resolve("data/runs");
        Path scenario = root.resolve("twin.yaml");
        Files.writeString(scenario, """
                name: twin
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: probe, requests: 16, concurrency: 4, promptTokens: 64, maxOutputTokens: 6}
                """);
        for (String d : List.of("twin-1", "twin-2")) {
            int code = LatencyLabCommand.commandLine().execute("run", scenario.toString(), "--no-charts", "--out",
                    runs.resolve(d).toString());
            assertThat(code).as("run " + d).isZero();
        }
        Path imports = Path.of(System.getProperty("latencylab.repo.dir", "..")).resolve("sample-data/imports");
        assertThat(LatencyLabCommand.commandLine().execute("import",
                imports.resolve("vllm-bench-serve-detailed.json").toString(), "--out",
                runs.resolve("vllm").toString())).isZero();
    });
    private static DesktopApp app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void window() {
        app = WINDOW.app();
    }

    @Test
    void threeRunsAreComparedAgainstAChosenBaselineAndARunShowsItsDefinitions() throws Exception {
        MainViewModel vm = app.viewModel();
        ListView<RunEntry> history = app.view().history().list();
        waitUntil(20, () -> history.getItems().size() == 3);

        // select all three (Ctrl+click) and press Compare
        robot.clickOn("Results");
        List<String> titles = fx(() -> history.getItems().stream().map(RunEntry::title).toList());
        assertThat(titles).containsExactlyInAnyOrder("twin", "twin", "vllm-bench-serve-detailed");
        fx(() -> {
            history.getSelectionModel().clearSelection();
            history.getSelectionModel().selectAll();
            return null;
        });
        robot.clickOn("#compareButton");
        CompareViewModel cmp = vm.compare();
        try {
            waitUntil(30, () -> cmp.loadedProperty().get() != null && cmp.rows().size() == 9);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no comparison: " + fx(() -> cmp.messageProperty().get() + "; rows "
                    + cmp.rows().size() + "; selected " + history.getSelectionModel().getSelectedItems().size()), e);
        }

        CompareViewModel.Loaded loaded = fx(() -> cmp.loadedProperty().get());
        assertThat(loaded.entries()).hasSize(3);
        // the same-named runs get distinct labels: name · start time (and the directory when the time is shared)
        assertThat(loaded.labels()).doesNotHaveDuplicates();
        assertThat(loaded.labels().stream().filter(l -> l.startsWith("twin · started ")).count()).isEqualTo(2);

        // one CDF curve per run, each legend name carrying the run's label
        XYChart chart = fx(() -> app.view().compare().cdfChart().chart());
        List<String> curves = new ArrayList<>();
        fx(() -> {
            chart.getRenderers().forEach(r -> r.getDatasets().forEach((DataSet ds) -> {
                if (ds.getDataCount() > 0) {
                    curves.add(ds.getName());
                }
            }));
            return null;
        });
        assertThat(curves).hasSize(3);
        for (int i = 0; i < 3; i++) {
            String label = (i + 1) + ". " + loaded.labels().get(i);
            assertThat(curves).anyMatch(n -> n.startsWith(label + " (n = "));
        }

        // the table: a column per run; the baseline is the oldest selected run
        TableView<?> table = robot.lookup("#compareTable").queryAs(TableView.class);
        List<String> heads = fx(() -> table.getColumns().stream().map(TableColumn::getText).toList());
        assertThat(heads).hasSize(4).first().isEqualTo("Statistic");
        assertThat(heads).anyMatch(h -> h.endsWith("[vllm-bench]"));
        List<org.latencylab.engine.results.RunDocument> infos = RunComparison.load(loaded.entries().stream()
                .map(RunEntry::directory).toList(), org.latencylab.engine.scenario.StepCatalog.types());
        CompareViewModel.DiffRow p95 = fx(() -> cmp.rows().stream().filter(r -> r.statistic().equals("TTFT P95"))
                .findFirst().orElseThrow());
        assertThat(p95.cells().get(0).text()).endsWith("(baseline)");
        double base = RunComparison.percentileMs(infos.get(0), "ttft", 95);
        double other = RunComparison.percentileMs(infos.get(2), "ttft", 95);
        assertThat(p95.cells().get(2).deltaMs()).isCloseTo(other - base, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p95.cells().get(2).text()).contains("%)");
        assertThat(fx(() -> cmp.rows().stream().map(CompareViewModel.DiffRow::statistic).toList()))
                .containsExactly("TTFT P50", "TTFT P95", "TTFT P99", "ITL P50", "ITL P95", "ITL P99",
                        "E2E P50", "E2E P95", "E2E P99");

        // choose the third run as the baseline: the differences turn around
        @SuppressWarnings("unchecked")
        ComboBox<String> baseline = robot.lookup("#compareBaseline").queryAs(ComboBox.class);
        fx(() -> {
            baseline.getSelectionModel().select(2);
            return null;
        });
        waitUntil(5, () -> cmp.baselineProperty().get() == 2);
        CompareViewModel.DiffRow p95b = fx(() -> cmp.rows().stream().filter(r -> r.statistic().equals("TTFT P95"))
                .findFirst().orElseThrow());
        assertThat(p95b.cells().get(2).text()).endsWith("(baseline)");
        assertThat(p95b.cells().get(0).deltaMs()).isCloseTo(base - other, org.assertj.core.data.Offset.offset(1e-9));

        // open one probe: the Definitions tab of Results re-times its requests under four tools' definitions
        RunEntry twin = fx(() -> history.getItems().stream().filter(e -> e.title().equals("twin")).findFirst()
                .orElseThrow());
        fx(() -> {
            vm.history().open(twin);
            return null;
        });
        waitUntil(20, () -> vm.results().resultProperty().get() != null
                && twin.directory().equals(vm.results().resultProperty().get().runDirectory()));
        robot.clickOn("Results");
        robot.clickOn("Definitions");
        DefinitionsViewModel defs = vm.definitions();
        waitUntil(20, () -> defs.rows().size() == MetricDefinition.values().length);
        assertThat(fx(() -> defs.rows().stream().map(r -> r.definition().displayName()).toList()))
                .containsExactly("LatencyLab", "vLLM bench serve", "GuideLLM", "AIPerf");
        assertThat(fx(() -> defs.rows().get(0).ttft().count())).isEqualTo(16);
        Label msg = robot.lookup("#definitionsMessage").queryAs(Label.class);
        assertThat(fx(msg::getText)).startsWith("16 successful streamed requests");
        javafx.scene.layout.VBox sources = robot.lookup("#definitionsSources").queryAs(javafx.scene.layout.VBox.class);
        List<String> lines = fx(() -> sources.getChildren().stream().map(n -> ((Label) n).getText()).toList());
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).startsWith("vLLM bench serve: TTFT stops at").contains("(source: vllm/benchmarks/");
    }
}
