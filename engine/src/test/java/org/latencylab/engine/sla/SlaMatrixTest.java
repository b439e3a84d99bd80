package org.latencylab.engine.sla;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.importer.ImportWriter;
import org.latencylab.engine.importer.ResultImporter;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.stats.SloBudget;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SlaMatrixTest {
    @Test
    void eachCellIsJudgedOnTheRunsOwnSummary(@TempDir Path tmp) throws Exception {
        Path dir = ImportWriter.write(ResultImporter.read(Path.of(System.getProperty("latencylab.repo.dir", ".."))
                .resolve("sample-data/imports/aiperf-profile_export.jsonl"), null), tmp.resolve("run"));
        RunDocument json = RunDocument.read(dir, StepCatalog.types());
        SlaMatrix m = new SlaMatrix(List.of(SlaMatrix.Cell.parse("e2e:p99:305"), SlaMatrix.Cell.parse("e2e:p99:400"),
                SlaMatrix.Cell.parse("ttft:p99:150"), SlaMatrix.Cell.parse("output_tokens_per_s:min:1")));
        List<SlaMatrix.Row> rows = m.judge(json);
        assertThat(rows).hasSize(1);
        List<SlaMatrix.Verdict> v = rows.get(0).verdicts();
        // two successful requests of 300 and 310 ms: P99 (nearest rank) is 310 ms
        assertThat(v.get(0).measured()).isCloseTo(310.0, within(1e-6));
        assertThat(v.get(0).passed()).isFalse();
        assertThat(v.get(1).passed()).isTrue();
        assertThat(v.get(2).measured()).isCloseTo(120.0, within(1e-6));
        assertThat(v.get(2).passed()).isTrue();
        assertThat(v.get(3).passed()).isTrue();
        assertThat(rows.get(0).passed()).isFalse();
    }

    @Test
    void cellsAreParsedOrRejectedWithTheirText() {
        SlaMatrix.Cell c = SlaMatrix.Cell.parse("ttft:p99.9:500");
        assertThat(c.percentile()).isEqualTo(99.9);
        assertThat(c.label()).isEqualTo("P99.9 ttft ≤ 500 ms");
        assertThatThrownBy(() -> SlaMatrix.Cell.parse("e2e:99:500")).hasMessageContaining("pNN");
        assertThatThrownBy(() -> SlaMatrix.Cell.parse("e2e:p99")).hasMessageContaining("METRIC:pNN:MAX_MS");
        assertThatThrownBy(() -> SlaMatrix.Cell.parse("latency:p99:5")).hasMessageContaining("unknown metric");
        assertThatThrownBy(() -> SlaMatrix.Cell.parse("output_tokens_per_s:max:5")).hasMessageContaining("'min'");
    }

    @Test
    void theSloBudgetLeavesTheModelWhatInfrastructureAndMarginDoNotTake() {
        assertThat(SloBudget.modelSlo(Duration.ofMillis(1200), Duration.ofMillis(200), 0.2))
                .isEqualTo(Duration.ofMillis(800));
    }
}
