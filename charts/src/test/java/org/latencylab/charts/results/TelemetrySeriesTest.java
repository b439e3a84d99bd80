package org.latencylab.charts.results;

import org.junit.jupiter.api.Test;
import org.latencylab.charts.data.Series;
import org.latencylab.engine.telemetry.GpuReading;
import org.latencylab.engine.telemetry.PrometheusText;
import org.latencylab.engine.telemetry.ServerSample;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TelemetrySeriesTest {
    private static ServerSample vllm(double t, int running, int waiting, double kv) {
        String text = """
                # TYPE vllm:num_requests_running gauge
                vllm:num_requests_running{model_name="m"} %d
                # TYPE vllm:num_requests_waiting gauge
                vllm:num_requests_waiting{model_name="m"} %d
                # TYPE vllm:gpu_cache_usage_perc gauge
                vllm:gpu_cache_usage_perc{model_name="m"} %s
                """.formatted(running, waiting, kv);
        return ServerSample.of(t, PrometheusText.parse(text));
    }

    @Test
    void requestsAndKvCacheComeFromParsedScrapesWithKvInPercent() {
        List<ServerSample> s = List.of(vllm(0.0, 0, 0, 0.0), vllm(1.0, 8, 3, 0.25), vllm(2.0, 8, 0, 0.5));
        List<Series> req = TelemetrySeries.requests(s);
        assertThat(req).extracting(Series::name).containsExactly("running", "waiting");
        assertThat(req.get(0).x()).containsExactly(0.0, 1.0, 2.0);
        assertThat(req.get(0).y()).containsExactly(0.0, 8.0, 8.0);
        assertThat(req.get(1).y()).containsExactly(0.0, 3.0, 0.0);
        List<Series> kv = TelemetrySeries.kvCache(s);
        assertThat(kv).hasSize(1);
        assertThat(kv.get(0).y()[2]).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void aServerWithoutTheseMetricsGivesNoSeries() {
        List<ServerSample> s = List.of(ServerSample.of(0.5, PrometheusText.parse("# TYPE other gauge\nother 1\n")));
        assertThat(TelemetrySeries.requests(s)).isEmpty();
        assertThat(TelemetrySeries.kvCache(s)).isEmpty();
    }

    @Test
    void gpuMemoryIsOneSeriesPerGpuInGib() {
        List<GpuReading> g = List.of(
                new GpuReading(0, 0, "H100", 1024, 81559, 10, 100, 1980),
                new GpuReading(0, 1, "H100", 2048, 81559, 10, 100, 1980),
                new GpuReading(1, 0, "H100", 40960, 81559, 90, 600, 1980),
                new GpuReading(1, 1, "H100", Double.NaN, 81559, 90, 600, 1980));
        List<Series> m = TelemetrySeries.gpuMemory(g);
        assertThat(m).extracting(Series::name).containsExactly("GPU 0 used", "GPU 1 used");
        assertThat(m.get(0).x()).containsExactly(0.0, 1.0);
        assertThat(m.get(0).y()).containsExactly(1.0, 40.0);
        assertThat(m.get(1).y()[0]).isEqualTo(2.0);
        assertThat(m.get(1).y()[1]).isNaN();
    }
}
