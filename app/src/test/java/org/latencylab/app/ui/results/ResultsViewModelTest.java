package org.latencylab.app.ui.results;

import org.latencylab.engine.results.RunLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.background.SerialUiExecutor;
import org.latencylab.app.ui.history.HistoryViewModel;
import org.latencylab.app.ui.history.RunEntry;
import org.latencylab.app.ui.history.RunStore;
import org.latencylab.app.ui.run.RunViewModel;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.StatsReport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The results view model shows exactly the engine's numbers: a probe, a sweep fitted with an offset and a load
 * step with warmup run through the engine against the simulator, and the view model's rows, tier, SLO and fit
 * texts are those of the engine's result model, live at the end of the run and after reopening the run from
 * History (with other settings in the app by then). Without the JavaFX toolkit.
 */
class ResultsViewModelTest {
    @TempDir
    Path runs;
    private final SerialUiExecutor ui = new SerialUiExecutor();

    @AfterEach
    void close() throws Exception {
        ui.close();
    }

    private static final StatsSettings OWN = new StatsSettings(null,
            List.of(new StatsSettings.TierLevel("fast", 0.001), new StatsSettings.TierLevel("sluggish", null)),
            List.of(org.latencylab.engine.stats.Slo.ofMillis("ttft", 95.0, 5000.0)));

    private static RunSpec threeSteps() {
        return new RunSpec("vm-equality", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, OWN,
                List.of(new ProbeSpec(20, 4, 64, 4, true, true, 0),
                        new SweepSpec(List.of(128, 512, 2048, 8192), 4, 4, 4, true, true, List.of(16384), 0),
                        LoadSpec.builder().rate(30.0).arrival(ArrivalProcess.CONSTANT).duration(Duration.ofSeconds(3))
                                .warmup(Duration.ofSeconds(1)).contextTokens(64).maxOutputTokens(4).stream(true)
                                .build()),
                null, null, 21);
    }

    /** What the view model must show for one step of the engine's result model. */
    private static void assertShowsExactly(ResultsViewModel vm, RunResult.StepOutcome engine) {
        assertThat(vm.stepProperty().get()).isSameAs(engine);
        List<SummaryRow> expected = new ArrayList<>();
        if (engine.spec().tierPooled()) {
            for (MetricSummary m : engine.stats().summaries().values()) {
                if (m.count() > 0) {
                    expected.add(SummaryRow.of(m));
                }
            }
        } else {
            for (Map.Entry<String, StatsReport> p : engine.parts().entrySet()) {
                expected.add(SummaryRow.of(p.getValue().summary("ttft").orElseThrow(), p.getKey()));
            }
        }
        assertThat(vm.rows()).as(engine.label() + " rows").containsExactlyElementsOf(expected);
        var trust = vm.resultProperty().get().trust();
        // a step is qualified by its own trust check (each step is judged on its own), else by the run's
        boolean saturated = engine.clientSaturated(trust) && engine.stats() != null && engine.stepTier() != null;
        assertThat(vm.tierProperty().get()).isEqualTo(ResultsViewModel.tierText(engine)
                + (saturated ? "; as measured, client saturated" : ""));
    }

    /** @return the run's result once it ended, or null after 120 s */
    private RunResult awaitEnd(RunViewModel run) throws Exception {
        long until = System.currentTimeMillis() + 120_000;
        RunResult engine = null;
        while (engine == null && System.currentTimeMillis() < until) {
            Thread.sleep(50);
            engine = ui.call(() -> run.runningProperty().get() ? null : run.lastResultProperty().get());
        }
        return engine;
    }

    @Test
    void theViewModelShowsExactlyTheEnginesSummariesFitAndTiers() throws Exception {
        ResultsViewModel results = new ResultsViewModel();
        RunViewModel run = new RunViewModel(ui, StepCatalog.engine()::start, results);
        ui.run(() -> run.start(threeSteps(), runs));
        RunResult engine = awaitEnd(run);
        assertThat(engine).as("run ended").isNotNull();
        assertThat(engine.status()).isEqualTo(RunResult.Status.COMPLETED);
        RunResult e = engine;
        assertThat(ui.call(() -> results.resultProperty().get())).isSameAs(e);
        assertThat(ui.call(() -> List.copyOf(results.stepLabels()))).containsExactly("probe", "sweep", "load");

        // probe: every metric's row, its tier from the run's own table, its SLO verdict
        ui.run(() -> results.select("probe"));
        ui.run(() -> assertShowsExactly(results, e.steps().get(0)));
        assertThat(ui.call(() -> results.tierProperty().get())).startsWith("sluggish (P95 TTFT ");
        assertThat(ui.call(() -> results.sloProperty().get())).isEqualTo("TTFT P95 ≤ 5.00 s: 100.0 % met (PASS)");

        // sweep: one TTFT row per context length and the engine's fit (with its offset), no pooled tier
        ui.run(() -> results.select("sweep"));
        ui.run(() -> assertShowsExactly(results, e.steps().get(1)));
        SweepRunner.SweepResult sw = (SweepRunner.SweepResult) e.steps().get(1).result();
        assertThat(sw.fitP50()).isNotNull();
        assertThat(sw.fitP50().withOffset()).isTrue();
        assertThat(ui.call(() -> results.fitProperty().get())).isEqualTo(sw.fitMessage());
        assertThat(ui.call(() -> results.tierProperty().get())).isEqualTo("per context length (P95 TTFT): 128 tokens"
                + " sluggish, 512 tokens sluggish, 2048 tokens sluggish, 8192 tokens sluggish");
        assertThat(ui.call(() -> List.copyOf(results.rows()))).extracting(SummaryRow::name)
                .containsExactly("sweep-128", "sweep-512", "sweep-2048", "sweep-8192");

        // load: the measured requests only (warmup left out) and the tier on the step's metric
        ui.run(() -> results.select("load"));
        ui.run(() -> assertShowsExactly(results, e.steps().get(2)));
        Path dir = e.runDirectory();
        long warmup = RequestLog.read(dir.resolve(RunLayout.REQUESTS_JSONL)).stream()
                .filter(r -> r.step().equals("load") && !r.measured()).count();
        assertThat(warmup).isGreaterThan(10);
        assertThat(ui.call(() -> results.errorsProperty().get()))
                .startsWith(e.steps().get(2).stats().succeeded() + " ok, 0 failed");

        // reopened from History: the same numbers, judged with the run's own settings
        HistoryViewModel history = new HistoryViewModel(ui, new RunStore(runs));
        ResultsViewModel reopened = new ResultsViewModel();
        history.setOnOpen((entry, r) -> reopened.show(entry.title(), r));
        ui.run(history::refresh);
        List<RunEntry> entries = ui.call(() -> List.copyOf(history.runs()));
        ui.run(() -> history.open(entries.get(0)));
        ui.run(() -> { });
        RunResult opened = ui.call(() -> reopened.resultProperty().get());
        assertThat(opened).isNotNull();
        for (int i = 0; i < 3; i++) {
            RunResult.StepOutcome s = opened.steps().get(i);
            assertThat(s.stats()).isEqualTo(e.steps().get(i).stats());
            assertThat(s.result()).isEqualTo(e.steps().get(i).result());
            ui.run(() -> reopened.select(s.label()));
            ui.run(() -> assertShowsExactly(reopened, s));
            ui.run(() -> results.select(s.label()));
            assertThat(ui.call(() -> List.copyOf(reopened.rows()))).isEqualTo(ui.call(() -> List.copyOf(results.rows())));
            assertThat(ui.call(() -> reopened.tierProperty().get())).isEqualTo(ui.call(() -> results.tierProperty().get()));
            assertThat(ui.call(() -> reopened.fitProperty().get())).isEqualTo(ui.call(() -> results.fitProperty().get()));
        }

        // re-judging with the app's settings is an explicit action that says so
        ui.run(() -> history.rejudge(entries.get(0), StatsSettings.DEFAULTS));
        ui.run(() -> { });
        assertThat(ui.call(() -> reopened.resultProperty().get().steps().get(0).stepTier().name())).startsWith("Tier-");
        assertThat(ui.call(() -> List.copyOf(reopened.notices())))
                .anyMatch(n -> n.startsWith("re-judged with the current settings"));
    }

    /**
     * Rows made ahead on another thread (as the live view and the end of a run do) are exactly those of the step
     * shown; rows made for a step the user has left meanwhile are not shown, the step now chosen gets its own.
     */
    @Test
    void rowsMadeOffTheUiThreadAreThoseOfTheStepShown() throws Exception {
        ResultsViewModel results = new ResultsViewModel();
        RunViewModel run = new RunViewModel(ui, StepCatalog.engine()::start, results);
        RunSpec spec = new RunSpec("vm-prepared", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, OWN,
                List.of(new ProbeSpec(12, 4, 64, 4, true, true, 0),
                        new SweepSpec(List.of(128, 512, 2048), 3, 3, 4, true, true, List.of(16384), 0)),
                null, null, 5);
        ui.run(() -> run.start(spec, runs));
        RunResult engine = awaitEnd(run);
        assertThat(engine).as("run ended").isNotNull();
        RunResult e = engine;
        RunResult.StepOutcome probe = e.steps().get(0);
        RunResult.StepOutcome sweep = e.steps().get(1);

        // the end of the run showed the last step with the rows made on the engine's thread
        ui.run(() -> assertShowsExactly(results, sweep));

        // made on this (test) thread: the step the view model would show and its rows
        ui.run(() -> results.select("probe"));
        ResultsViewModel.Prepared forProbe = results.prepare(e);
        assertThat(forProbe.step()).isSameAs(probe);
        ResultsViewModel reference = new ResultsViewModel();
        ui.run(() -> reference.show("reference", e));
        ui.run(() -> reference.select("probe"));
        assertThat(forProbe.rows()).isNotEmpty()
                .containsExactlyElementsOf(ui.call(() -> List.copyOf(reference.rows())));
        ui.run(() -> results.show("prepared", forProbe));
        ui.run(() -> assertShowsExactly(results, probe));
        assertThat(ui.call(() -> results.titleProperty().get())).isEqualTo("prepared");

        // the user chose the sweep after the rows were made: the sweep is shown with its own rows
        ui.run(() -> results.select("sweep"));
        ui.run(() -> results.show("prepared", forProbe));
        ui.run(() -> assertShowsExactly(results, sweep));
        assertThat(ui.call(() -> List.copyOf(results.rows()))).extracting(SummaryRow::name)
                .containsExactly("sweep-128", "sweep-512", "sweep-2048");
    }
}
