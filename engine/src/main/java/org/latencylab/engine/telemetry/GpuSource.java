package org.latencylab.engine.telemetry;

import java.io.IOException;
import java.util.List;

/**
 * Where GPU readings come from: the real {@link NvidiaSmi}, or a simulator's {@code /sim/gpu}
 * ({@link SimulatedGpu}). Implementations are thread-safe.
 */
public interface GpuSource {
    /**
     * Takes one reading of every GPU.
     *
     * @return one reading per GPU (time 0; the caller stamps it)
     * @throws IOException when the source cannot be read now (the caller records a gap and goes on)
     */
    List<GpuReading> read() throws IOException;

    /** @return a short description for notes, e.g. {@code nvidia-smi (/usr/bin/nvidia-smi)} */
    String describe();
}
