package org.latencylab.app.ui.results;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.experiment.ProbeRunner;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.StepResult;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Results layout is chosen from the step's typed result when it has ended and from its spec type while it runs,
 * and names no panel whose data the experiment cannot have. Without the JavaFX toolkit.
 */
class ResultsLayoutTest {
    private static RunResult.StepOutcome step(String type, StepResult result) {
        return new RunResult.StepOutcome("s", type, null, result, null, null, null, null, result == null, null, null);
    }

    @Test
    void typedResultsChooseTheirLayout() {
        SweepRunner.SweepResult sweep = new SweepRunner.SweepResult("s", "sweep", false, List.of(), null, null,
                "", List.of());
        assertThat(ResultsLayout.of(step("sweep", sweep))).isEqualTo(ResultsLayout.SWEEP);
        // the typed result wins over the type string
        assertThat(ResultsLayout.of(step("probe", sweep))).isEqualTo(ResultsLayout.SWEEP);
        assertThat(ResultsLayout.of(step("probe", new ProbeRunner.ProbeResult("s", "probe", 10, 2, 64))))
                .isEqualTo(ResultsLayout.PROBE);
    }

    @Test
    void runningStepsChooseByTheirSpecType() {
        assertThat(ResultsLayout.of(step("load", null))).isEqualTo(ResultsLayout.LOAD);
        assertThat(ResultsLayout.of(step("grid", null))).isEqualTo(ResultsLayout.GRID);
        assertThat(ResultsLayout.of(step("transports", null))).isEqualTo(ResultsLayout.TRANSPORTS);
        assertThat(ResultsLayout.of(step("server-bench", null))).isEqualTo(ResultsLayout.SERVER_BENCH);
        assertThat(ResultsLayout.of(step("compare-endpoints", null))).isEqualTo(ResultsLayout.RANKING);
        assertThat(ResultsLayout.of(step("sweep", null))).isEqualTo(ResultsLayout.SWEEP);
        assertThat(ResultsLayout.of(null)).isEqualTo(ResultsLayout.EMPTY);
    }

    @Test
    void noLayoutShowsPanelsItsExperimentCannotFill() {
        assertThat(ResultsLayout.PROBE.panels()).doesNotContain(ResultsLayout.Panel.LOAD_SECONDS,
                ResultsLayout.Panel.SWEEP, ResultsLayout.Panel.HEATMAP);
        assertThat(ResultsLayout.SWEEP.panels()).contains(ResultsLayout.Panel.SWEEP, ResultsLayout.Panel.CDF)
                .doesNotContain(ResultsLayout.Panel.LOAD_SECONDS, ResultsLayout.Panel.TIME);
        assertThat(ResultsLayout.LOAD.panels()).contains(ResultsLayout.Panel.LOAD_SECONDS, ResultsLayout.Panel.TIME)
                .doesNotContain(ResultsLayout.Panel.SWEEP, ResultsLayout.Panel.HEATMAP);
        assertThat(ResultsLayout.GRID.shows(ResultsLayout.Panel.HEATMAP)).isTrue();
        assertThat(ResultsLayout.TRANSPORTS.panels()).containsExactlyInAnyOrder(ResultsLayout.Panel.TRANSPORTS,
                ResultsLayout.Panel.SUMMARY);
        assertThat(ResultsLayout.SERVER_BENCH.panels()).containsExactlyInAnyOrder(ResultsLayout.Panel.SERVER_BENCH,
                ResultsLayout.Panel.SUMMARY);
    }
}
