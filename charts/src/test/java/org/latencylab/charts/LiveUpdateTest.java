package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fair_acc.dataset.DataSet;

import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;

/** Live updates: replace data in place on the FX thread, refuse other threads. */
class LiveUpdateTest {

    @Test
    void updateOffTheFxThreadIsRefused() {
        CdfChart cdf = Fx.call(() -> new CdfChart("t", new Quantity("TTFT", "ms"), CdfChart.YScale.PERCENTILE,
                false, ChartTheme.LIGHT));
        assertThatThrownBy(() -> cdf.update(List.of())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("JavaFX application thread");
    }

    @Test
    void cdfUpdateReusesAndTrimsDataSetsAndNamesThemWithTheSampleCountAndMaximum() {
        List<DataSet> after = Fx.call(() -> {
            CdfChart cdf = new CdfChart("t", new Quantity("TTFT", "ms"), CdfChart.YScale.PERCENTILE, false,
                    ChartTheme.LIGHT);
            cdf.update(SampleData.ttftSets());
            DataSet first = cdf.chart().getAllDatasets().get(0);
            cdf.update(List.of(new SampleSet("only", new double[] {3, 1, 2})));
            List<DataSet> now = List.copyOf(cdf.chart().getAllDatasets());
            assertThat(now.get(0)).as("the data set object is reused").isSameAs(first);
            return now;
        });
        assertThat(after).hasSize(1);
        DataSet ds = after.get(0);
        assertThat(ds.getName()).isEqualTo("only (n = 3, max 3 ms)");
        assertThat(ds.getValues(DataSet.DIM_X)).startsWith(1.0, 2.0, 3.0);
        // Hazen positions on the nines scale: p = 1/6, 3/6, 5/6
        assertThat(ds.get(DataSet.DIM_Y, 1)).isCloseTo(-Math.log10(0.5), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void timeSeriesUpdateReplacesTheLines() {
        int count = Fx.call(() -> {
            TimeSeriesChart ts = new TimeSeriesChart("t", new Quantity("TTFT", "ms"), false, ChartTheme.DARK);
            ts.update(SampleData.latencyOverTime());
            ts.update(List.of(new Series("P50", new double[] {1, 2}, new double[] {100, 120})));
            return ts.chart().getAllDatasets().size();
        });
        assertThat(count).isEqualTo(1);
    }

    @Test
    void groupedBarsRejectASeriesWithTheWrongNumberOfValues() {
        assertThatThrownBy(() -> Fx.run(() -> new GroupedBarChart("t", new Quantity("profile", "profile"),
                new Quantity("latency", "ms"), ChartTheme.LIGHT).update(List.of("a", "b"),
                List.of(new org.latencylab.charts.data.BarSeries("SSE", new double[] {1})))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 1 values for 2 categories");
    }

    @Test
    void powerLawRejectsValuesALogAxisCannotShow() {
        assertThatThrownBy(() -> Fx.run(() -> new PowerLawChart("t", new Quantity("Context", "tokens"),
                new Quantity("TTFT", "ms"), ChartTheme.LIGHT).update(
                List.of(new Series("P50", new double[] {0, 10}, new double[] {5, 6})), List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs values > 0");
    }

    @Test
    void paretoChartKeepsTheFrontOfTheLastUpdate() {
        var front = Fx.call(() -> {
            ParetoChart p = new ParetoChart("t", new Quantity("Throughput", "tokens/s"),
                    org.latencylab.engine.analysis.ParetoSet.Goal.MAXIMIZE, new Quantity("P99", "ms"),
                    org.latencylab.engine.analysis.ParetoSet.Goal.MINIMIZE, ChartTheme.LIGHT);
            p.update(SampleData.configGrid());
            return p.front();
        });
        assertThat(front).extracting(org.latencylab.charts.data.LabelledPoint::label)
                .containsExactly("b16/p8k", "b32/p8k", "b64/p8k", "b128/p2k", "b128/p8k");
    }
}
