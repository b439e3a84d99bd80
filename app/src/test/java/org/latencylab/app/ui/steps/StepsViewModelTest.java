package org.latencylab.app.ui.steps;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.GridProgress;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadProgress;
import org.latencylab.engine.load.LoadSecond;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The load/grid panel's state, without the JavaFX toolkit. */
class StepsViewModelTest {
    private static LoadSecond second(int i, String phase, double target, long sent, long failed, Double p95) {
        return new LoadSecond(i, phase, target, sent, 2, sent, sent - failed, failed, 0, 0, 0, 4, 0, 0,
                sent - failed, sent == 0 ? 0 : (double) failed / sent, 7, 90.0, p95, 200.0, 110.0, 150.0, 180.0,
                260.0, 110.0, null, null, 0.35, p95, p95 == null ? null : "Tier-1");
    }

    @Test
    void loadSecondsAccumulatePerStepAndTheLastMeasuredSecondIsDescribed() {
        StepsViewModel vm = new StepsViewModel();
        vm.reset(StatsSettings.DEFAULTS);
        vm.accept(new LoadProgress("load", second(0, "measure", 200, 195, 3, 120.0)));
        vm.accept(new LoadProgress("load", second(1, "measure", 200, 205, 0, 130.0)));
        assertThat(vm.loadStepProperty().get()).isEqualTo("load");
        assertThat(vm.secondsProperty().get()).extracting(LoadSecond::second).containsExactly(0, 1);
        assertThat(vm.loadTextProperty().get()).isEqualTo("load · second 1 (measure) · target 200.0 req/s · "
                + "achieved 205 req/s · 205 ended · 0 failed (0.0 %) · 4× 429 · 2 dropped at a cap · 7 in flight · "
                + "Tier-1 (P95 130 ms)");
        assertThat(vm.trustTextProperty().get()).startsWith("dispatch lag P99 0.35 ms");

        // a drain second is not what the line describes: the last measured one is
        vm.accept(new LoadProgress("load", second(2, "drain", 0, 0, 0, null)));
        assertThat(vm.secondsProperty().get()).hasSize(3);
        assertThat(vm.loadTextProperty().get()).contains("second 1 (measure)");

        // another step's seconds are kept apart; both can be shown again
        vm.accept(new LoadProgress("grid-r0c0", second(0, "measure", 0, 10, 1, 80.0)));
        assertThat(vm.loadStepProperty().get()).isEqualTo("grid-r0c0");
        assertThat(vm.secondsProperty().get()).hasSize(1);
        assertThat(vm.showStep("load")).isTrue();
        assertThat(vm.secondsProperty().get()).hasSize(3);
        assertThat(vm.showStep("probe")).isFalse();

        vm.reset(StatsSettings.DEFAULTS);
        assertThat(vm.secondsProperty().get()).isEmpty();
        assertThat(vm.loadTextProperty().get()).isEmpty();
        assertThat(vm.showStep("load")).isFalse();
    }

    @Test
    void gridProgressReplacesTheMatrixAndCountsCells() {
        StepsViewModel vm = new StepsViewModel();
        vm.reset(StatsSettings.DEFAULTS);
        GridResult one = new GridResult("grid", "concurrency", "requests", List.of(1.0, 4.0), "context", "tokens",
                List.of(512.0, 2048.0), "ttft_from_intended p99", "ms",
                List.of(Arrays.asList(12.5, null), Arrays.asList(null, null)), List.of());
        vm.accept(new GridProgress("grid", one));
        assertThat(vm.gridProperty().get()).isSameAs(one);
        assertThat(vm.gridTextProperty().get()).isEqualTo("grid · 0 of 4 cells · TTFT from intended start P99 [ms] over "
                + "concurrency [requests] × context [tokens]");
    }

    @Test
    void aRunWithALoadOrGridStepAsksForTheLoadChartsFromItsStartAndAResetClearsThat() {
        StepsViewModel vm = new StepsViewModel();
        RunSpec probe = spec(new ProbeSpec(8, 2, 64, 4, true, true, 0));
        RunSpec load = spec(new ProbeSpec(8, 2, 64, 4, true, true, 0), LoadSpec.builder().rate(20.0)
                .arrival(ArrivalProcess.CONSTANT).duration(Duration.ofSeconds(2)).contextTokens(32).maxOutputTokens(4)
                .build());
        RunSpec grid = spec(new GridSpec("concurrency", List.of(1.0, 2.0), List.of(32), null, 3L, null, null, 2, true,
                true, "ttft_from_intended", "p50", null));
        List<Boolean> seen = new ArrayList<>();
        vm.chartsExpectedProperty().addListener((o, a, b) -> seen.add(b));

        vm.reset(probe);
        assertThat(vm.chartsExpectedProperty().get()).isFalse();
        vm.reset(load);
        assertThat(vm.chartsExpectedProperty().get()).isTrue();
        // the next run's reset first drops the expectation, then sets it again: the panel is prepared anew
        vm.accept(new LoadProgress("load", second(0, "measure", 20, 20, 0, 30.0)));
        vm.reset(grid);
        assertThat(vm.chartsExpectedProperty().get()).isTrue();
        assertThat(vm.secondsProperty().get()).isEmpty();
        assertThat(seen).containsExactly(true, false, true);
        // a saved run shown from the history is not a run that starts
        vm.reset(StatsSettings.DEFAULTS);
        assertThat(vm.chartsExpectedProperty().get()).isFalse();
    }

    private static RunSpec spec(ExperimentSpec... steps) {
        return new RunSpec("steps", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, StatsSettings.DEFAULTS,
                List.of(steps), null, null, 1);
    }
}
