package org.latencylab.engine.telemetry;

/**
 * One GPU's reading from {@code nvidia-smi} (or the simulator's {@code /sim/gpu}, which prints the same CSV). NaN
 * where {@code nvidia-smi} printed {@code [N/A]} or {@code [Not Supported]}. Immutable and thread-safe.
 *
 * @param tSeconds       time of the reading since the variant's start, s
 * @param index          GPU index as {@code nvidia-smi} numbers it, &gt;= 0
 * @param name           product name, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param memoryUsedMiB  memory used, MiB
 * @param memoryTotalMiB memory total, MiB
 * @param utilizationPct GPU utilisation (share of time a kernel ran), %
 * @param powerWatts     power draw, W
 * @param smClockMhz     SM clock, MHz
 */
public record GpuReading(double tSeconds, int index, String name, double memoryUsedMiB, double memoryTotalMiB,
                         double utilizationPct, double powerWatts, double smClockMhz) {
    /** @param t time since the variant's start, s @return this reading at that time */
    public GpuReading at(double t) {
        return new GpuReading(t, index, name, memoryUsedMiB, memoryTotalMiB, utilizationPct, powerWatts, smClockMhz);
    }
}
