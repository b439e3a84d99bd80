package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.DataSet;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.charts.results.ResultCharts;
import org.latencylab.app.ui.results.SummaryRow;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.run.RunResult;
import org.testfx.api.FxRobot;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * The main flow through the real window under headless Monocle: simulator selected, a 2k/8k/32k context sweep,
 * live sweep chart with three points and a fitted line, tier badge, PNG export, and cancel of a long probe.
 */
class MainWindowFlowTest {
    @TempDir
    static Path temp;
    @RegisterExtension
    static final DesktopWindow WINDOW = new DesktopWindow();
    private static DesktopApp app;
    private final FxRobot robot = new FxRobot();

    @BeforeAll
    static void window() {
        app = WINDOW.app();
    }

    @Test
    void sweepRunsLiveExportsAndCancels() throws Exception {
        MainViewModel vm = app.viewModel();
        // the built-in simulator with the quick profile
        robot.clickOn("Built-in simulator");
        fx(() -> {
            vm.endpoints().simProfileProperty().set("small-fast");
            return null;
        });
        assertThat(fx(() -> vm.endpoints().simulatorSelectedProperty().get())).isTrue();

        // context sweep 2k/8k/32k, 3 requests per length
        robot.clickOn("Experiment");
        robot.clickOn("#kindSweep");
        fx(() -> {
            ExperimentViewModel e = vm.experiment();
            for (int i = 0; i < 3; i++) {
                e.presetCheckedProperty(i).set(true);
            }
            e.customLengthsProperty().set("");
            e.requestsPerLengthProperty().set(3);
            e.concurrencyProperty().set(3);
            return null;
        });
        assertThat(fx(() -> vm.experiment().kindProperty().get())).isEqualTo(ExperimentViewModel.Kind.SWEEP);
        robot.clickOn("#runButton");
        waitUntil(10, () -> vm.run().runningProperty().get());
        waitUntil(90, () -> !vm.run().runningProperty().get());
        RunResult result = fx(() -> vm.run().lastResultProperty().get());
        assertThat(result.status()).isEqualTo(RunResult.Status.COMPLETED);
        waitUntil(10, () -> vm.results().stepProperty().get() != null
                && vm.results().stepProperty().get().result() instanceof SweepRunner.SweepResult);

        SweepRunner.SweepResult data = (SweepRunner.SweepResult) fx(() -> vm.results().stepProperty().get()).result();
        assertThat(data.points()).extracting(SweepRunner.SweepPoint::contextTokens)
                .containsExactly(2048, 8192, 32768);
        assertThat(data.fitP50()).isNotNull();

        // the live sweep chart holds three measured points and a fitted line
        XYChart sweep = fx(() -> app.view().results().chart(ResultCharts.Kind.SWEEP));
        List<String> names = new ArrayList<>();
        int[] points = {-1};
        int[] fitPoints = {-1};
        fx(() -> {
            sweep.getRenderers().forEach(r -> r.getDatasets().forEach((DataSet ds) -> {
                names.add(ds.getName());
                if (ds.getName().equals(ResultCharts.SWEEP_SERIES)) {
                    points[0] = ds.getDataCount();
                }
                if (ds.getName().startsWith("fit P50")) {
                    fitPoints[0] = ds.getDataCount();
                }
            }));
            return null;
        });
        assertThat(points[0]).as("measured points in %s", names).isEqualTo(3);
        assertThat(fitPoints[0]).as("points of the fitted line in %s", names).isGreaterThan(2);

        // a sweep is judged per context length: one TTFT row and one tier per length, none over all lengths pooled
        Label tier = robot.lookup("#tierBadge").queryAs(Label.class);
        assertThat(fx(tier::getText)).matches("per context length \\(P95 TTFT\\): 2048 tokens Tier-\\d,"
                + " 8192 tokens Tier-\\d, 32768 tokens Tier-\\d");
        assertThat(fx(() -> vm.results().rows().stream().map(SummaryRow::name).toList()))
                .containsExactly("sweep-2048", "sweep-8192", "sweep-32768");

        // PNG export at a chosen size decodes as an image of that size
        Path png = temp.resolve("export/sweep.png");
        Files.createDirectories(png.getParent());
        CompletableFuture<Path> written = new CompletableFuture<>();
        fx(() -> {
            app.view().exportPng(ResultCharts.Kind.SWEEP, 900, 560, 1, png, written::complete);
            return null;
        });
        written.get(60, TimeUnit.SECONDS);
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img).isNotNull();
        assertThat(img.getWidth()).isEqualTo(900);
        assertThat(img.getHeight()).isEqualTo(560);

        // the run is in the history
        waitUntil(10, () -> vm.history().runs().size() == 1);

        // cancel during a long probe stops it within 2 s and keeps the finished requests
        robot.clickOn("Experiment");
        robot.clickOn("#kindProbe");
        assertThat(fx(() -> vm.experiment().kindProperty().get())).isEqualTo(ExperimentViewModel.Kind.PROBE);
        fx(() -> {
            vm.experiment().requestsProperty().set(100_000);
            vm.experiment().concurrencyProperty().set(4);
            vm.experiment().maxOutputTokensProperty().set(8);
            return null;
        });
        robot.clickOn("#runButton");
        waitUntil(20, () -> vm.results().stepProperty().get() != null
                && vm.results().stepProperty().get().stats().sent() >= 20);
        long t0 = System.nanoTime();
        robot.clickOn("#cancelButton");
        waitUntil(10, () -> !vm.run().runningProperty().get());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(seconds).as("cancel click to run end, s").isLessThan(2.0);
        RunResult cancelled = fx(() -> vm.run().lastResultProperty().get());
        assertThat(cancelled.status()).isEqualTo(RunResult.Status.CANCELLED);
        assertThat(cancelled.overall().sent()).isBetween(20L, 99_999L);
        waitUntil(10, () -> vm.history().runs().size() == 2);
        assertThat(WINDOW.configDir().resolve("settings.json")).exists();
    }
}
