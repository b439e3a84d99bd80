package org.latencylab.charts.results;

import org.latencylab.charts.data.Series;
import org.latencylab.engine.telemetry.GpuReading;
import org.latencylab.engine.telemetry.ServerSample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a server variant's telemetry (the engine's {@link ServerSample}s of {@code /metrics} and
 * {@link GpuReading}s of {@code nvidia-smi} or the simulator) into time series for a
 * {@link org.latencylab.charts.TimeSeriesChart}: x is seconds since the variant's telemetry started, as the engine
 * stamped it. Nothing is computed but unit changes (fraction → %, MiB → GiB). Stateless and thread-safe.
 */
public final class TelemetrySeries {
    private static final double MIB_PER_GIB = 1024;

    private TelemetrySeries() {
    }

    /**
     * @param samples scrapes in time order
     * @return "running" and "waiting" requests [count]; empty when the server exposes neither
     */
    public static List<Series> requests(List<ServerSample> samples) {
        List<Series> out = new ArrayList<>();
        double[] t = times(samples);
        double[] running = samples.stream().mapToDouble(ServerSample::running).toArray();
        double[] waiting = samples.stream().mapToDouble(ServerSample::waiting).toArray();
        if (anyFinite(running)) {
            out.add(new Series("running", t, running));
        }
        if (anyFinite(waiting)) {
            out.add(new Series("waiting", t, waiting));
        }
        return out;
    }

    /**
     * @param samples scrapes in time order
     * @return "KV-cache usage" [%] (the server's fraction × 100); empty when the server does not expose it
     */
    public static List<Series> kvCache(List<ServerSample> samples) {
        double[] kv = samples.stream().mapToDouble(s -> s.kvCacheUsage() * 100).toArray();
        return anyFinite(kv) ? List.of(new Series("KV-cache usage", times(samples), kv)) : List.of();
    }

    /**
     * @param readings GPU readings in time order (several GPUs interleaved)
     * @return one series per GPU, "GPU i used" [GiB], in GPU index order; empty without readings
     */
    public static List<Series> gpuMemory(List<GpuReading> readings) {
        Map<Integer, List<GpuReading>> byGpu = new TreeMap<>();
        readings.forEach(g -> byGpu.computeIfAbsent(g.index(), k -> new ArrayList<>()).add(g));
        List<Series> out = new ArrayList<>();
        byGpu.forEach((gpu, list) -> {
            double[] t = list.stream().mapToDouble(GpuReading::tSeconds).toArray();
            double[] used = list.stream().mapToDouble(g -> g.memoryUsedMiB() / MIB_PER_GIB).toArray();
            if (anyFinite(used)) {
                out.add(new Series("GPU " + gpu + " used", t, used));
            }
        });
        return out;
    }

    private static double[] times(List<ServerSample> samples) {
        return samples.stream().mapToDouble(ServerSample::tSeconds).toArray();
    }

    private static boolean anyFinite(double[] v) {
        for (double d : v) {
            if (Double.isFinite(d)) {
                return true;
            }
        }
        return false;
    }
}
