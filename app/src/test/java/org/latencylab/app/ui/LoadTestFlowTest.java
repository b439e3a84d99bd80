package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.dataset.DataSet;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.app.ui.experiment.LoadForm;
import org.latencylab.app.ui.history.RunEntry;
import org.latencylab.app.ui.steps.StepRow;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadMode;
import org.latencylab.engine.load.LoadSecond;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * Load tests, grids and scenarios through the real window under headless Monocle: a load test started from the
 * form updates the live tier chart second by second and is cancelled with Esc while the History list has the
 * focus; a grid fills its heatmap cell by cell; "Open scenario…" runs a file and lists every step.
 */
class LoadTestFlowTest {
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

    /** @return the number of points of the chart's data set with that name; fails naming the sets when absent */
    private static int points(XYChart chart, String name) throws Exception {
        List<String> names = new ArrayList<>();
        int found = fx(() -> {
            int[] n = {-1};
            chart.getRenderers().forEach(r -> r.getDatasets().forEach((DataSet ds) -> {
                names.add(ds.getName());
                if (ds.getName().equals(name)) {
                    n[0] = ds.getDataCount();
                }
            }));
            return n[0];
        });
        assertThat(found).as("data set '%s' among %s", name, names).isNotNegative();
        return found;
    }

    @Test
    void loadTestFromTheFormUpdatesTheLiveTierChartAndEscCancelsFromTheHistoryList() throws Exception {
        MainViewModel vm = app.viewModel();
        robot.clickOn("Built-in simulator");
        fx(() -> {
            vm.endpoints().simProfileProperty().set("small-fast");
            return null;
        });
        // let the window finish reacting to the endpoint change: TestFX walks the scene graph from this thread, and
        // a list of children changing meanwhile failed one lookup ("Index 4 out of bounds for length 3")
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("Experiment");
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#kindLoad");
        robot.clickOn("#loadOpen");
        LoadForm form = fx(() -> vm.experiment().load());
        fx(() -> {
            form.shapeProperty().set(LoadForm.Shape.CONSTANT);
            form.rateProperty().set(40);
            form.durationProperty().set("30s");
            form.contextTokensProperty().set(64);
            form.maxOutputTokensProperty().set(4);
            return null;
        });
        assertThat(fx(() -> vm.experiment().kindProperty().get())).isEqualTo(ExperimentViewModel.Kind.LOAD);
        assertThat(fx(() -> form.modeProperty().get())).isEqualTo(LoadMode.OPEN);
        robot.clickOn("#runButton");
        waitUntil(10, () -> vm.run().runningProperty().get());

        // the live latency chart gets a point per closed second, with the tier bands behind it
        XYChart latency = fx(() -> app.view().steps().latencyChart());
        waitUntil(30, () -> vm.steps().secondsProperty().get().size() >= 2);
        int first = points(latency, "P95 TTFT");
        assertThat(first).isGreaterThanOrEqualTo(2);
        waitUntil(30, () -> vm.steps().secondsProperty().get().size() >= first + 2);
        assertThat(points(latency, "P95 TTFT")).as("the chart follows the seconds").isGreaterThanOrEqualTo(first + 2);
        assertThat(points(latency, "P99 TTFT")).isGreaterThanOrEqualTo(first + 2);
        assertThat(fx(() -> app.view().steps().tierBandLabels())).isNotEmpty().first().asString()
                .startsWith("Tier-");
        // target vs achieved rate per second
        XYChart rates = fx(() -> app.view().steps().rateChart());
        assertThat(points(rates, "target rate")).isGreaterThanOrEqualTo(first + 2);
        assertThat(points(rates, "achieved (sent/s)")).isGreaterThanOrEqualTo(first + 2);
        List<LoadSecond> seconds = fx(() -> vm.steps().secondsProperty().get());
        assertThat(seconds.get(1).targetRateRps()).isEqualTo(40.0);
        assertThat(seconds).as("seconds in which requests ended carry their TTFT percentiles")
                .anyMatch(x -> x.ttftP95Ms() != null && x.ttftP95Ms() > 0);
        Label text = robot.lookup("#loadText").queryAs(Label.class);
        assertThat(fx(text::getText)).contains("target 40.0 req/s").contains("achieved").contains("in flight");
        assertThat(fx(() -> robot.lookup("#trustText").queryAs(Label.class).getText())).contains("dispatch lag");

        // Esc cancels the run even while the History list has the focus
        ListView<?> historyList = robot.lookup("#historyList").queryAs(ListView.class);
        fx(() -> {
            historyList.requestFocus();
            return null;
        });
        waitUntil(5, historyList::isFocused);
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
        waitUntil(15, () -> !vm.run().runningProperty().get());
        RunResult cancelled = fx(() -> vm.run().lastResultProperty().get());
        assertThat(cancelled.status()).isEqualTo(RunResult.Status.CANCELLED);
        assertThat(cancelled.duration().toSeconds()).isLessThan(28);
        // the finished run's steps table lists the load step
        waitUntil(10, () -> vm.steps().steps().size() == 1);
        StepRow row = fx(() -> vm.steps().steps().get(0));
        assertThat(row.type()).isEqualTo("load");
        assertThat(row.rate()).contains("of 40.0 req/s");
    }

    @Test
    void gridFillsItsHeatmapCellByCellAndAScenarioShowsEveryStep() throws Exception {
        MainViewModel vm = app.viewModel();
        fx(() -> {
            vm.endpoints().simProfileProperty().set("small-fast");
            return null;
        });
        fx(() -> {
            vm.run().cancel(); // another test's run, if it failed before ending it
            return null;
        });
        waitUntil(40, () -> !vm.run().runningProperty().get());
        robot.clickOn("Experiment");
        robot.clickOn("#kindGrid");
        fx(() -> {
            var g = vm.experiment().grid();
            g.rowAxisProperty().set("concurrency");
            g.rowValuesProperty().set("1, 2");
            g.contextTokensProperty().set("64, 256");
            g.cellDurationProperty().set("");
            g.cellRequestsProperty().set(6);
            g.maxOutputTokensProperty().set(4);
            g.metricProperty().set("ttft_from_intended");
            g.statisticProperty().set("p50");
            return null;
        });
        List<Integer> filled = Collections.synchronizedList(new ArrayList<>());
        fx(() -> {
            vm.steps().gridProperty().addListener((o, a, g) -> {
                if (g != null) {
                    filled.add(g.cells().size());
                }
            });
            return null;
        });
        robot.clickOn("#runButton");
        waitUntil(10, () -> vm.run().runningProperty().get());
        waitUntil(90, () -> !vm.run().runningProperty().get());
        assertThat(fx(() -> vm.run().lastResultProperty().get().status())).isEqualTo(RunResult.Status.COMPLETED);
        // one update per finished cell, in order, then the final result
        assertThat(List.copyOf(filled)).startsWith(1, 2, 3, 4);
        GridResult grid = fx(() -> vm.steps().gridProperty().get());
        assertThat(grid.matrix()[1][1]).isPositive();
        assertThat(fx(() -> app.view().steps().heatmapChart())).isNotNull();
        assertThat(fx(() -> robot.lookup("#gridText").queryAs(Label.class).getText())).contains("4 of 4 cells");

        // a scenario file with a probe and a load step: both steps listed; selecting one shows its requests
        Path scenario = temp.resolve("two-steps.yaml");
        Files.writeString(scenario, """
                format: 1
                name: two-steps
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: probe, requests: 8, concurrency: 2, promptTokens: 64, maxOutputTokens: 4, warmup: 0}
                  - {type: load, rate: 20, arrival: constant, duration: 2s, contextTokens: 64, maxOutputTokens: 4}
                """);
        fx(() -> {
            vm.runScenario(scenario);
            return null;
        });
        waitUntil(10, () -> vm.run().runningProperty().get());
        waitUntil(60, () -> !vm.run().runningProperty().get());
        assertThat(fx(() -> vm.run().lastResultProperty().get().status())).isEqualTo(RunResult.Status.COMPLETED);
        waitUntil(10, () -> vm.steps().steps().size() == 2);
        assertThat(fx(() -> vm.steps().steps().stream().map(StepRow::label).toList())).containsExactly("probe", "load");
        TableView<?> table = robot.lookup("#stepsTable").queryAs(TableView.class);
        fx(() -> {
            table.getSelectionModel().select(0);
            return null;
        });
        waitUntil(10, () -> vm.results().stepProperty().get() != null
                && "probe".equals(vm.results().stepProperty().get().label()));
        assertThat(fx(() -> vm.results().stepProperty().get().stats().sent())).isEqualTo(8);

        // reopening a saved run: the status bar names the run on screen instead of keeping the last run's text,
        // and history entries tell runs apart by more than their name
        waitUntil(10, () -> vm.history().runs().size() >= 2);
        RunEntry older = fx(() -> vm.history().runs().get(vm.history().runs().size() - 1));
        assertThat(older.detail()).containsPattern("\\d\\d:\\d\\d:\\d\\d · [a-z+]+ · \\d+ requests · simulator");
        fx(() -> {
            vm.history().open(older);
            return null;
        });
        waitUntil(10, () -> vm.messageProperty().get().startsWith("viewing "));
        assertThat(fx(() -> vm.messageProperty().get())).contains(older.directory().toString());
        assertThat(fx(() -> vm.run().progressTextProperty().get())).isEqualTo("Ready");
        assertThat(fx(() -> robot.lookup("#statusMessage").queryAs(Label.class).getText())).startsWith("viewing ");
        // ... and its load seconds or grid come back from run.json into the load panel
        waitUntil(10, () -> !vm.steps().secondsProperty().get().isEmpty() || vm.steps().gridProperty().get() != null);
    }
}
