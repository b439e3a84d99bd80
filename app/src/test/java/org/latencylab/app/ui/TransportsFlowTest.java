package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.DataSet;
import javafx.scene.layout.StackPane;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.app.ui.experiment.TransportsForm;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.transport.TransportsResult;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * The transports experiment through the real window under headless Monocle: the form runs a small SSE-vs-gRPC
 * run against the built-in simulator and the Results tab shows the grouped bar chart of P50 first-screen latency,
 * one bar per transport, valued at the cells' measured P50.
 */
class TransportsFlowTest {
    @RegisterExtension
    static final DesktopWindow WINDOW = new DesktopWindow();
    private static DesktopApp app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void window() {
        app = WINDOW.app();
    }

    @Test
    void transportsFormRunsAndResultsShowTheGroupedBarChart() throws Exception {
        MainViewModel vm = app.viewModel();
        robot.clickOn("Built-in simulator");
        fx(() -> {
            vm.endpoints().simProfileProperty().set("small-fast");
            return null;
        });
        robot.clickOn("Experiment");
        robot.clickOn("#kindTransports");
        assertThat(fx(() -> vm.experiment().kindProperty().get())).isEqualTo(ExperimentViewModel.Kind.TRANSPORTS);
        TransportsForm form = fx(() -> vm.experiment().transports());
        fx(() -> {
            form.requestsProperty().set(2);
            form.promptTokensProperty().set(32);
            form.maxOutputTokensProperty().set(8);
            form.firstScreenCharsProperty().set(20);
            return null;
        });
        // the defaults are sse-h1 and grpc over wired, warm: check that the boxes show them
        assertThat(fx(() -> robot.lookup("#transport-sse-h1").queryAs(javafx.scene.control.CheckBox.class)
                .isSelected())).isTrue();
        assertThat(fx(() -> robot.lookup("#transport-grpc").queryAs(javafx.scene.control.CheckBox.class)
                .isSelected())).isTrue();
        assertThat(fx(() -> robot.lookup("#network-wired").queryAs(javafx.scene.control.CheckBox.class)
                .isSelected())).isTrue();
        robot.clickOn("#runButton");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> vm.run().runningProperty().get()));
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(() -> !vm.run().runningProperty().get()));
        RunResult r = fx(() -> vm.run().lastResultProperty().get());
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        TransportsResult result = (TransportsResult) r.steps().get(0).result();
        assertThat(result.cells()).hasSize(2);

        robot.clickOn("Results");
        StackPane holder = robot.lookup("#transportsChart").queryAs(StackPane.class);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> holder.isVisible()
                && !holder.getChildren().isEmpty() && holder.getChildren().get(0) instanceof XYChart));
        XYChart chart = fx(() -> (XYChart) holder.getChildren().get(0));
        List<String> names = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        fx(() -> {
            chart.getRenderers().forEach(rr -> rr.getDatasets().forEach((DataSet ds) -> {
                if (ds.getDataCount() > 0) {
                    names.add(ds.getName());
                    values.add(ds.get(DataSet.DIM_Y, 0));
                }
            }));
            return null;
        });
        assertThat(names).as("one bar set per transport").contains("SSE HTTP/1.1", "gRPC stream");
        double sseP50 = result.cell("sse-h1", "wired", "warm").firstScreen().p50Ms();
        double grpcP50 = result.cell("grpc", "wired", "warm").firstScreen().p50Ms();
        assertThat(sseP50).isPositive();
        assertThat(grpcP50).isPositive();
        assertThat(values.get(names.indexOf("SSE HTTP/1.1"))).isEqualTo(sseP50);
        assertThat(values.get(names.indexOf("gRPC stream"))).isEqualTo(grpcP50);
    }
}
