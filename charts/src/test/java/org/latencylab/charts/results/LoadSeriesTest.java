package org.latencylab.charts.results;

import org.junit.jupiter.api.Test;
import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.data.TierBand;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadSecond;
import org.latencylab.engine.stats.TierTable;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LoadSeriesTest {
    private static LoadSecond second(int i, String phase, double target, long sent, long failed, long http429,
                                     Double ttftP50, Double ttftP95, Double ttftP99, Double e2eP99) {
        return new LoadSecond(i, phase, target, sent, 0, sent, sent - failed, failed, 0, 0, 0, http429, 0, 0,
                sent - failed, sent == 0 ? 0 : (double) failed / sent, 3, ttftP50, ttftP95, ttftP99,
                ttftP99 == null ? null : ttftP99 - ttftP50, 20.0, 30.0, e2eP99, 5.0, null, null, 0.2, ttftP95,
                ttftP95 == null ? null : "Tier-1");
    }

    @Test
    void latencyRatesAndBandsComeFromTheSecondsAsTheEngineConcludedThem() {
        List<LoadSecond> s = List.of(
                second(0, "measure", 50, 49, 0, 0, 100.0, 150.0, 180.0, 400.0),
                second(1, "measure", 50, 51, 2, 3, null, null, null, null),
                second(2, "drain", 0, 0, 0, 0, 110.0, 160.0, 350.0, 500.0));
        List<Series> lat = LoadSeries.latency(s);
        assertThat(lat).extracting(Series::name).containsExactly("P50 TTFT", "P95 TTFT", "P99 TTFT");
        assertThat(lat.get(2).x()).containsExactly(0, 1, 2);
        assertThat(lat.get(2).y()[0]).isEqualTo(180.0);
        assertThat(lat.get(2).y()[1]).as("a second without an ended request is a gap").isNaN();
        assertThat(LoadSeries.top(lat)).isEqualTo(350.0);

        List<Series> rates = LoadSeries.rates(s);
        assertThat(rates).extracting(Series::name).containsExactly("target rate", "achieved (sent/s)", "errors/s",
                "429 responses/s");
        assertThat(rates.get(0).y()[1]).isEqualTo(50.0);
        assertThat(rates.get(0).y()[2]).as("no target once scheduling stopped").isNaN();
        assertThat(rates.get(1).y()).containsExactly(49, 51, 0);
        assertThat(rates.get(2).y()).containsExactly(0, 2, 0);
        assertThat(rates.get(3).y()).containsExactly(0, 3, 0);

        // bands up to the one holding the top value (350 ms is Tier-2), the last cut 10 % above it
        List<TierBand> bands = LoadSeries.tierBands(TierTable.DEFAULT, 350);
        assertThat(bands).extracting(TierBand::label).containsExactly("Tier-0 ≤ 80 ms", "Tier-1 ≤ 300 ms",
                "Tier-2 ≤ 1.2 s");
        assertThat(bands.get(2).lower()).isEqualTo(300.0);
        assertThat(bands.get(2).upper()).isEqualTo(385.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(LoadSeries.tierBands(TierTable.DEFAULT, 9000)).extracting(TierBand::label).last()
                .isEqualTo("Tier-4");
        assertThat(LoadSeries.tierBands(TierTable.DEFAULT, 0)).isEmpty();
    }

    @Test
    void warmUpAndCoolDownAreMarkedAsLeftOutButTheDrainIsNot() {
        List<LoadSecond> s = List.of(
                second(0, "warmup", 50, 49, 0, 0, 100.0, 150.0, 180.0, 400.0),
                second(1, "warmup", 50, 50, 0, 0, 100.0, 150.0, 180.0, 400.0),
                second(2, "measure", 50, 51, 0, 0, 100.0, 150.0, 180.0, 400.0),
                second(3, "measure", 50, 50, 0, 0, 100.0, 150.0, 180.0, 400.0),
                second(4, "cooldown", 50, 50, 0, 0, 100.0, 150.0, 180.0, 400.0),
                second(5, "drain", 0, 0, 0, 0, 110.0, 160.0, 350.0, 500.0));
        List<org.latencylab.charts.data.TimeSpan> spans = LoadSeries.phaseSpans(s);
        assertThat(spans).extracting(org.latencylab.charts.data.TimeSpan::label)
                .containsExactly("warm-up: not in the statistics", "cool-down: not in the statistics");
        assertThat(spans.get(0).from()).isEqualTo(0.0);
        assertThat(spans.get(0).to()).as("second 1 covers [1 s, 2 s)").isEqualTo(2.0);
        assertThat(spans.get(1).from()).isEqualTo(4.0);
        assertThat(spans.get(1).to()).isEqualTo(5.0);
        assertThat(LoadSeries.phaseSpans(s.subList(2, 4))).isEmpty();
    }

    @Test
    void aClosedLoopWithoutStreamingDrawsE2eAndNoTarget() {
        List<LoadSecond> s = List.of(second(0, "measure", 0, 10, 0, 0, null, null, null, 420.0));
        assertThat(LoadSeries.latencyName(s)).isEqualTo("E2E");
        assertThat(LoadSeries.latency(s).get(2).y()[0]).isEqualTo(420.0);
        assertThat(LoadSeries.rates(s)).extracting(Series::name).containsExactly("achieved (sent/s)", "errors/s");
    }

    @Test
    void aGridWithSomeCellsRunBecomesAHeatGridWithGaps() {
        GridResult none = new GridResult("grid", "concurrency", "requests", List.of(1.0, 4.0), "context", "tokens",
                List.of(512.0, 2048.0), "ttft_from_intended p99", "ms",
                List.of(Arrays.asList(null, null), Arrays.asList(null, null)), List.of());
        assertThat(LoadSeries.heatGrid(none)).isNull();
        GridResult one = new GridResult("grid", "concurrency", "requests", List.of(1.0, 4.0), "context", "tokens",
                List.of(512.0, 2048.0), "ttft_from_intended p99", "ms",
                List.of(Arrays.asList(12.5, null), Arrays.asList(null, null)), List.of());
        HeatGrid h = LoadSeries.heatGrid(one);
        assertThat(h.xLabels()).containsExactly("512", "2048");
        assertThat(h.yLabels()).containsExactly("1", "4");
        assertThat(h.z()[0][0]).isEqualTo(12.5);
        assertThat(h.z()[1][1]).isNaN();
    }
}
