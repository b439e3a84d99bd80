package org.latencylab.app.ui.steps;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A saved run's load seconds and grid, read back from the run.json the engine wrote. */
class SavedStepsTest {
    @TempDir
    Path dir;

    @Test
    void loadSecondsAndTheGridComeBackAsTheRunConcludedThem() throws Exception {
        LoadSpec load = LoadSpec.builder().rate(20.0).arrival(ArrivalProcess.CONSTANT).duration(Duration.ofSeconds(2))
                .contextTokens(32).maxOutputTokens(4).build();
        GridSpec grid = new GridSpec("concurrency", List.of(1.0, 2.0), List.of(32), null, 3L, null, null, 2, true,
                true, "ttft_from_intended", "p50", null);
        RunSpec spec = new RunSpec("saved", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                StatsSettings.DEFAULTS, List.of(load, grid), null, null, 3);
        RunResult run = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(60));
        assertThat(run.status()).isEqualTo(RunResult.Status.COMPLETED);

        SavedSteps saved = SavedSteps.read(dir.resolve("run"));
        LoadResult l = (LoadResult) run.steps().get(0).result();
        assertThat(saved.seconds()).containsOnlyKeys("load");
        assertThat(saved.seconds().get("load")).isEqualTo(l.seconds());
        GridResult g = (GridResult) run.steps().get(1).result();
        assertThat(saved.grid().values()).isEqualTo(g.values());
        assertThat(saved.grid().cells()).hasSize(2);
        assertThat(saved.grid().metric()).isEqualTo("ttft_from_intended p50");

        StepsViewModel vm = new StepsViewModel();
        vm.reset(StatsSettings.DEFAULTS);
        vm.showSaved(saved);
        assertThat(vm.secondsProperty().get()).isEqualTo(l.seconds());
        assertThat(vm.gridTextProperty().get()).startsWith("grid · 2 of 2 cells");

        assertThat(SavedSteps.read(dir.resolve("nothing"))).isSameAs(SavedSteps.NONE);
        Files.writeString(dir.resolve("run/run.json"), "{ not json");
        assertThat(SavedSteps.read(dir.resolve("run"))).isSameAs(SavedSteps.NONE);
    }
}
