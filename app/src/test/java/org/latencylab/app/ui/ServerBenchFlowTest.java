package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.DataSet;
import javafx.scene.Node;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.app.ui.experiment.ServerBenchForm;
import org.latencylab.app.ui.serverbench.ServerBenchViewModel;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * The server benchmark through the real window under headless Monocle: the form is filled with two simulator
 * variants (each a simulator process launched from its template), the run shows each variant's state and the
 * telemetry charts receive points while a variant is under load, and the Results show the Pareto chart with both
 * variants labelled. Afterwards no launched process is left.
 */
class ServerBenchFlowTest {
    @RegisterExtension
    static final DesktopWindow WINDOW = new DesktopWindow();
    private static DesktopApp app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void window() {
        app = WINDOW.app();
    }

    private static Set<Long> children() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static int points(XYChart chart) {
        return chart.getAllDatasets().stream().mapToInt(DataSet::getDataCount).sum();
    }

    /** Types into a field of the form as a user would (focus, select all, keys); the field may be scrolled away. */
    private void type(String id, String text) {
        TextField f = robot.lookup(id).queryAs(TextField.class);
        robot.interact(() -> {
            f.requestFocus();
            f.selectAll();
        });
        robot.write(text);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(f.getText()).isEqualTo(text);
    }

    @Test
    void theFormRunsTwoSimulatorVariantsWithLiveTelemetryAndTheResultsShowTheParetoChart() throws Exception {
        MainViewModel vm = app.viewModel();
        Set<Long> before = children();
        robot.clickOn("Experiment");
        robot.clickOn("#kindServerBench");
        assertThat(fx(() -> vm.experiment().kindProperty().get())).isEqualTo(ExperimentViewModel.Kind.SERVER_BENCH);
        ServerBenchForm form = fx(() -> vm.experiment().serverBench());
        // the defaults are engine-pareto.yaml's three simulator variants; keep vllm-like and tgi-like
        assertThat(fx(() -> form.variants().size())).isEqualTo(3);
        robot.clickOn("#benchRemove2");
        assertThat(fx(() -> form.variants().stream().map(r -> r.nameProperty().get()).toList()))
                .containsExactly("vllm-like", "tgi-like");
        type("#benchLevels", "2");
        type("#benchDuration", "3s");
        type("#benchWarmup", "0s");
        type("#benchScrape", "300ms");
        fx(() -> {
            form.contextTokensProperty().set(64);
            form.maxOutputTokensProperty().set(8);
            return null;
        });
        // a bad value shows the engine's message next to the field and blocks the run; fixing it clears it
        type("#benchName1", "vllm-like");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> robot.lookup("#benchError").queryLabeled().getText()))
                .isEqualTo("server-bench: two variants are named 'vllm-like'");
        assertThat(fx(() -> robot.lookup("#benchError").queryLabeled().isVisible())).isTrue();
        type("#benchName1", "tgi-like");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> form.benchErrorProperty().get())).isEmpty();
        assertThat(fx(() -> form.summaryProperty().get())).startsWith("2 variants × 1 level × 3 s");

        List<Integer> telemetryPoints = new ArrayList<>();
        robot.clickOn("#runButton");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> vm.run().runningProperty().get()));
        List<XYChart> live = fx(() -> app.view().serverBench().telemetryCharts());
        // the KV-cache and GPU-memory charts receive points while the first variant is under load
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(() -> {
            int n = points(live.get(0)) + points(live.get(2));
            telemetryPoints.add(n);
            return n >= 4 || !vm.run().runningProperty().get();
        }));
        assertThat(telemetryPoints.stream().mapToInt(Integer::intValue).max().orElse(0))
                .as("telemetry points seen in the live charts").isGreaterThanOrEqualTo(4);
        assertThat(fx(() -> robot.lookup("#serverBenchPanel").query().isVisible())).isTrue();
        assertThat(fx(() -> vm.serverBench().variants().get(0).name())).isEqualTo("vllm-like");
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> fx(() -> !vm.run().runningProperty().get()));

        RunResult r = fx(() -> vm.run().lastResultProperty().get());
        assertThat(r.status()).as("failure: %s", r.failure()).isEqualTo(RunResult.Status.COMPLETED);
        ServerBenchResult b = (ServerBenchResult) r.steps().get(0).result();
        assertThat(b.variants()).extracting(VariantResult::status)
                .containsExactly(VariantResult.Status.OK, VariantResult.Status.OK);
        assertThat(fx(() -> vm.serverBench().variants().stream().map(ServerBenchViewModel.VariantState::state)
                .toList())).containsExactly("ok", "ok");

        // Results: the Pareto chart with both variants as labelled points, at their measured values
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> fx(() -> !app.view().serverBench().resultCharts()
                .isEmpty()));
        XYChart pareto = fx(() -> app.view().serverBench().resultCharts().get(0));
        Node shown = fx(() -> robot.lookup("#benchPareto0").query());
        assertThat(shown).isSameAs(pareto);
        List<String> labels = new ArrayList<>();
        List<Double> xs = new ArrayList<>();
        fx(() -> {
            // the scatter and the label renderer share one data set of all configurations
            for (DataSet ds : pareto.getAllDatasets().stream().distinct().toList()) {
                if (ds.getName().equals("configurations")) {
                    for (int i = 0; i < ds.getDataCount(); i++) {
                        labels.add(ds.getDataLabel(i));
                        xs.add(ds.get(DataSet.DIM_X, i));
                    }
                }
            }
            return null;
        });
        assertThat(labels).hasSize(2);
        assertThat(labels).anyMatch(l -> l.startsWith("vllm-like")).anyMatch(l -> l.startsWith("tgi-like"));
        List<Double> measured = b.variants().stream().map(v -> v.points().get(0).outputTokensPerSecond()).sorted()
                .toList();
        assertThat(xs.stream().sorted().toList()).isEqualTo(measured);
        assertThat(fx(() -> vm.serverBench().reportProperty().get())).contains("Pareto front over");
        // every launched simulator process was stopped
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> children().stream().allMatch(before::contains));
    }
}
