package org.latencylab.app.ui;

import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.workflow.RankingViewModel;
import org.testfx.api.FxRobot;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * The Rankings tab through the real window under headless Monocle: two simulator profiles ticked, Rank clicked,
 * the compare-endpoints run goes through the engine over loopback HTTP, and the ranking table is read; then the
 * SLO budget calculator and the report export.
 */
class RankingFlowTest {
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
    void twoSimulatorProfilesAreRankedFromTheWindow() throws Exception {
        RankingViewModel vm = app.viewModel().ranking();
        waitUntil(120, () -> !app.viewModel().run().runningProperty().get());
        fx(() -> {
            vm.selectedProfiles().clear();
            return null;
        });
        robot.clickOn("Rankings");
        robot.clickOn("#rank-llama-8b-class");
        robot.clickOn("#rank-zero-latency");
        assertThat(fx(() -> vm.selectedProfiles().size())).isEqualTo(2);
        fx(() -> {
            vm.requestsProperty().set(20);
            return null;
        });
        robot.clickOn("#rankButton");
        waitUntil(120, () -> !app.viewModel().run().runningProperty().get() && vm.rows().size() == 2);
        robot.clickOn("Rankings");
        @SuppressWarnings("unchecked")
        TableView<RankingViewModel.Row> table = robot.lookup("#rankingTable").queryAs(TableView.class);
        RankingViewModel.Row first = fx(() -> table.getItems().get(0));
        RankingViewModel.Row second = fx(() -> table.getItems().get(1));
        // 512 prompt tokens: llama-8b-class's prefill takes about 146 ms, zero-latency answers at once
        assertThat(first.endpoint()).isEqualTo("zero-latency");
        assertThat(second.endpoint()).isEqualTo("llama-8b-class");
        assertThat(first.requests()).isEqualTo(20);
        assertThat(first.ttftP95()).contains("ms [");
        Label verdicts = robot.lookup("#rankingVerdicts").queryAs(Label.class);
        assertThat(fx(verdicts::getText)).contains("zero-latency vs llama-8b-class").contains("bootstrap");
        assertThat(fx(() -> vm.rankingProperty().get().neighbours().get(0).significant())).isTrue();

        // the SLO budget: (1200 − 200) × (1 − 0.2) = 800 ms
        javafx.scene.control.TextField infra = robot.lookup("#infraP95").queryAs(javafx.scene.control.TextField.class);
        fx(() -> {
            infra.setText("200ms"); // below the chart, out of the scrolled view: typed through the control itself
            return null;
        });
        Label model = robot.lookup("#modelSlo").queryAs(Label.class);
        waitUntil(5, () -> model.getText().endsWith("= 800 ms"));

        // the SLO matrix judged on the run on screen: llama-8b-class's 512-token prefill alone is > 100 ms
        fx(() -> {
            vm.slaCellsProperty().set("ttft:p99:100000, e2e:p50:1");
            return vm.judgeSla();
        });
        Label sla = robot.lookup("#slaVerdict").queryAs(Label.class);
        waitUntil(20, () -> sla.getText().startsWith("compare-endpoints: FAIL"));
        assertThat(fx(sla::getText)).contains("P99 ttft ≤ 100000 ms pass").contains("P50 e2e ≤ 1 ms FAIL");

        // the report of the run on screen
        Path html = temp.resolve("ranking-report.html");
        assertThat(fx(() -> vm.exportReport(html))).isTrue();
        waitUntil(60, () -> vm.reportFileProperty().get() != null);
        assertThat(Files.readString(html)).contains("Ranking by P95 TTFT").contains("zero-latency")
                .contains("data:image/png;base64,");

        // another tool's result imported into the history
        Path vllm = Path.of(System.getProperty("latencylab.repo.dir", "..")).resolve(
                "sample-data/imports/vllm-bench-serve-detailed.json");
        fx(() -> {
            vm.importResults(vllm);
            return null;
        });
        waitUntil(30, () -> app.viewModel().history().runs().stream()
                .anyMatch(e -> e.name().equals("vllm-bench-serve-detailed")));
    }

    @Test
    void aMonitorShowsALiveRankingWhileItRunsAndTheFullOneWhenStopped() throws Exception {
        RankingViewModel vm = app.viewModel().ranking();
        waitUntil(120, () -> !app.viewModel().run().runningProperty().get());
        fx(() -> {
            vm.selectedProfiles().setAll("zero-latency", "small-fast");
            vm.monitorIntervalSecondsProperty().set(1);
            vm.monitorMinutesProperty().set(10);
            return null;
        });
        robot.clickOn("Rankings");
        robot.clickOn("#monitorButton");
        // live: the table fills from monitor.json while the monitor runs (state written at least every 5 s)
        waitUntil(30, () -> app.viewModel().run().runningProperty().get() && vm.rows().size() == 2
                && vm.rows().stream().allMatch(r -> r.requests() > 0));
        assertThat(fx(() -> vm.verdictsProperty().get())).startsWith("live from monitor.json");
        fx(() -> {
            app.viewModel().run().cancel();
            return null;
        });
        waitUntil(60, () -> !app.viewModel().run().runningProperty().get() && vm.verdictsProperty().get()
                .startsWith("zero-latency vs small-fast") || vm.verdictsProperty().get().startsWith("small-fast vs"));
        assertThat(fx(() -> vm.rankingProperty().get().rows())).hasSize(2);
        assertThat(fx(() -> vm.rows().get(0).ttftP95())).contains(" [");
    }
}
