package org.latencylab.engine.telemetry;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What the telemetry of one variant came to. Means are over the samples taken while the variant was under load;
 * {@code null} where the server or GPU did not expose the quantity. Immutable and thread-safe.
 *
 * @param metricsSamples          scrapes of {@code /metrics} that succeeded
 * @param meanRunning             mean requests running on the server, count
 * @param maxWaiting              most requests waiting in the server's queue, count
 * @param meanKvCacheUsage        mean KV-cache usage, fraction
 * @param maxKvCacheUsage         peak KV-cache usage, fraction
 * @param prefixCacheHitRate      prefix-cache hit rate at the last scrape, fraction
 * @param serverTtftMeanMs        server-side mean TTFT over the variant: Δsum ÷ Δcount of the server's TTFT
 *                                histogram between the first and last scrape, ms
 * @param serverItlMeanMs         server-side mean inter-token latency likewise, ms
 * @param gpuSamples              GPU readings taken (one per GPU per tick)
 * @param gpus                    GPUs seen
 * @param gpuName                 product name of the first GPU
 * @param peakGpuMemoryMiB        peak over time of the memory used summed over GPUs, MiB
 * @param gpuMemoryTotalMiB       memory of all GPUs together, MiB
 * @param meanGpuUtilizationPct   mean utilisation over GPUs and time, %
 * @param meanPowerWatts          mean power draw summed over GPUs, W
 * @param maxSmClockMhz           highest SM clock seen, MHz
 * @param gpuSource               where GPU readings came from, or null without any
 * @param notes                   what was missing and why (e.g. no nvidia-smi)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TelemetrySummary(int metricsSamples, Double meanRunning, Double maxWaiting, Double meanKvCacheUsage,
                               Double maxKvCacheUsage, Double prefixCacheHitRate, Double serverTtftMeanMs,
                               Double serverItlMeanMs, int gpuSamples, int gpus, String gpuName,
                               Double peakGpuMemoryMiB, Double gpuMemoryTotalMiB, Double meanGpuUtilizationPct,
                               Double meanPowerWatts, Double maxSmClockMhz, String gpuSource, List<String> notes) {
    public TelemetrySummary {
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** @return the peak GPU memory in GiB, or null without GPU readings */
    public Double peakGpuMemoryGiB() {
        return peakGpuMemoryMiB == null ? null : peakGpuMemoryMiB / 1024;
    }
}
