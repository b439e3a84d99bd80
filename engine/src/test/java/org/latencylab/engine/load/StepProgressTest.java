package org.latencylab.engine.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.step.StepProgress;
import org.latencylab.engine.step.StepProgressListener;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Live step progress: what a listener sees while a load step and a grid run is what the run concludes. */
class StepProgressTest {
    @TempDir
    Path dir;

    @Test
    void loadSecondsAndGridCellsArePublishedAsTheyCloseAndMatchTheResult() throws Exception {
        LoadSpec load = LoadSpec.builder().rate(20.0).arrival(ArrivalProcess.CONSTANT).duration(Duration.ofSeconds(3))
                .contextTokens(32).maxOutputTokens(4).build();
        GridSpec grid = new GridSpec("concurrency", List.of(1.0, 2.0), List.of(32), null, 4L, null, null, 2, true,
                true, "ttft_from_intended", "p50", null);
        RunSpec spec = new RunSpec("progress", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                StatsSettings.DEFAULTS, List.of(load, grid), null, null, 7);
        List<StepProgress> events = Collections.synchronizedList(new ArrayList<>());
        StepProgressListener listener = new StepProgressListener() {
            @Override
            public void onStepProgress(StepProgress progress) {
                events.add(progress);
            }

            @Override
            public void onSnapshot(IntervalSnapshot snapshot) {
            }
        };
        RunResult result = StepCatalog.engine().start(spec, dir.resolve("run"), listener)
                .await(Duration.ofSeconds(60));
        assertThat(result.status()).isEqualTo(RunResult.Status.COMPLETED);

        LoadResult loadResult = (LoadResult) result.steps().get(0).result();
        List<LoadSecond> live = events.stream().filter(e -> e instanceof LoadProgress && e.step().equals("load"))
                .map(e -> ((LoadProgress) e).second()).toList();
        assertThat(loadResult.seconds()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(live).as("seconds published live, in order").isEqualTo(loadResult.seconds());

        GridResult gridResult = (GridResult) result.steps().get(1).result();
        List<GridResult> cells = events.stream().filter(e -> e instanceof GridProgress)
                .map(e -> ((GridProgress) e).soFar()).toList();
        assertThat(cells).hasSize(2);
        assertThat(cells.get(0).values().get(0).get(0)).isNotNull();
        assertThat(cells.get(0).values().get(1).get(0)).as("second cell not yet run").isNull();
        assertThat(cells.get(1).values()).isEqualTo(gridResult.values());
        // the grid's cells are load steps too: their seconds are published under the cell labels
        assertThat(events.stream().filter(e -> e instanceof LoadProgress).map(StepProgress::step).distinct())
                .contains("load", "grid-concurrency=1,contextTokens=32", "grid-concurrency=2,contextTokens=32");
    }
}
