package org.latencylab.app.ui.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.compare.RunComparison;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The difference table of any number of runs, on run.json summaries in the layout the engine writes. */
class CompareViewModelTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RunDocument run(String dir, String name, String tool, List<String> missing,
                                   String metricsJson) throws Exception {
        String imported = tool.equals("latencylab") ? "" : "\"source_tool\":\"" + tool + "\",\"missing_metrics\":"
                + JSON.writeValueAsString(missing) + ",";
        return RunDocument.parse(Path.of(dir), "{\"format\":1,\"name\":\"" + name + "\",\"started_at\":"
                + "\"2026-11-30T09:00:00Z\"," + imported + "\"summary\":{\"metrics\":" + metricsJson + "}}",
                StepCatalog.types());
    }

    private static String metric(double p50, double p95, double p99) {
        return "{\"percentiles\":[{\"p\":50,\"value_ms\":" + p50 + "},{\"p\":95,\"value_ms\":" + p95
                + "},{\"p\":99,\"value_ms\":" + p99 + "}]}";
    }

    @Test
    void threeRunsAgainstTheSecondWithAMetricTheSourceLacks() throws Exception {
        var a = run("a", "probe", "latencylab", List.of(), "{\"ttft\":" + metric(100, 200, 400) + ",\"itl\":"
                + metric(10, 20, 40) + ",\"e2e\":" + metric(1000, 1500, 2000) + "}");
        var b = run("b", "probe", "latencylab", List.of(), "{\"ttft\":" + metric(80, 160, 320) + ",\"itl\":"
                + metric(8, 16, 32) + ",\"e2e\":" + metric(900, 1200, 1600) + "}");
        var c = run("c", "imported", "guidellm", List.of("itl"), "{\"ttft\":" + metric(120, 240, 480) + ",\"e2e\":"
                + metric(1100, 1650, 2200) + "}");
        List<CompareViewModel.DiffRow> rows = CompareViewModel.table(List.of(a, b, c), 1);
        assertThat(rows).extracting(CompareViewModel.DiffRow::statistic).containsExactly("TTFT P50", "TTFT P95",
                "TTFT P99", "ITL P50", "ITL P95", "ITL P99", "E2E P50", "E2E P95", "E2E P99");

        CompareViewModel.DiffRow ttft95 = rows.get(1);
        assertThat(ttft95.cells().get(1).baseline()).isTrue();
        assertThat(ttft95.cells().get(1).text()).isEqualTo("160 ms (baseline)");
        // 200 − 160 = +40 ms = +25 %; 240 − 160 = +80 ms = +50 %
        assertThat(ttft95.cells().get(0).deltaMs()).isEqualTo(40.0);
        assertThat(ttft95.cells().get(0).deltaPct()).isEqualTo(25.0);
        assertThat(ttft95.cells().get(0).text()).isEqualTo("200 ms · +40.0 ms (+25.0 %)");
        assertThat(ttft95.cells().get(2).text()).isEqualTo("240 ms · +80.0 ms (+50.0 %)");

        CompareViewModel.DiffRow itl50 = rows.get(3);
        assertThat(itl50.cells().get(2).text()).isEqualTo(CompareViewModel.NOT_IN_SOURCE);
        assertThat(itl50.cells().get(0).text()).isEqualTo("10.0 ms · +2.00 ms (+25.0 %)");

        // against the third run as baseline, a faster run gets a minus sign: 1600 − 2200 = −600 ms = −27.3 %
        CompareViewModel.DiffRow e2e99 = CompareViewModel.table(List.of(a, b, c), 2).get(8);
        assertThat(e2e99.cells().get(1).text()).isEqualTo("1.60 s · −600 ms (−27.3 %)");
        // the baseline lacking a metric leaves every difference of it empty
        assertThat(CompareViewModel.table(List.of(a, b, c), 2).get(3).cells().get(0).text())
                .isEqualTo("10.0 ms · Δ —");
    }

    @Test
    void aPercentileTheRunMarkedAsThinKeepsItsStar() throws Exception {
        String thinP99 = "{\"percentiles\":[{\"p\":50,\"value_ms\":100},{\"p\":95,\"value_ms\":200},"
                + "{\"p\":99,\"value_ms\":400,\"enough_samples\":false}]}";
        var a = run("a", "probe", "latencylab", List.of(), "{\"ttft\":" + thinP99 + "}");
        var b = run("b", "probe", "latencylab", List.of(), "{\"ttft\":" + metric(80, 160, 320) + "}");
        List<CompareViewModel.DiffRow> rows = CompareViewModel.table(List.of(a, b), 1);
        CompareViewModel.DiffRow p99 = rows.stream().filter(r -> r.statistic().equals("TTFT P99")).findFirst()
                .orElseThrow();
        assertThat(p99.cells().get(0).text()).isEqualTo("400 ms* · +80.0 ms (+25.0 %)");
        assertThat(p99.cells().get(1).text()).isEqualTo("320 ms (baseline)");
        CompareViewModel.DiffRow p95 = rows.stream().filter(r -> r.statistic().equals("TTFT P95")).findFirst()
                .orElseThrow();
        assertThat(p95.cells().get(0).text()).doesNotContain("*");
    }

    @Test
    void sameNamedRunsGetTheirStartTimeAndSharedTimesTheDirectory() throws Exception {
        var a = run("runs/a", "probe", "latencylab", List.of(), "{}");
        var b = run("runs/b", "probe", "latencylab", List.of(), "{}");
        var c = run("runs/c", "sweep", "latencylab", List.of(), "{}");
        assertThat(RunComparison.labels(List.of(a, b, c), false)).containsExactly(
                "probe · started 2026-11-30 09:00:00 UTC · a", "probe · started 2026-11-30 09:00:00 UTC · b", "sweep");
        assertThat(RunComparison.labels(List.of(a, c), true)).containsExactly(
                "probe · started 2026-11-30 09:00:00 UTC", "sweep · started 2026-11-30 09:00:00 UTC");
    }
}
