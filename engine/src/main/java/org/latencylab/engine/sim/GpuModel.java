package org.latencylab.engine.sim;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.Consumer;

/**
 * The simulated GPU of one server: the memory model of {@link SimProfile.Engine} (weights + overhead + KV cache of
 * the tokens in flight, or of the whole batch when reserved at start) and a reading in {@code nvidia-smi}'s CSV
 * format for {@code /sim/gpu}. Without a GPU in the profile every method is a no-op that always admits.
 * Thread-safe (atomics).
 */
final class GpuModel {
    /** Bytes per GiB (2^30). */
    static final double GIB = 1024.0 * 1024 * 1024;
    /** Bytes per MiB (2^20), the unit of {@code nvidia-smi}'s memory columns. */
    static final double MIB = 1024.0 * 1024;
    /** The header of {@link #nvidiaSmiCsv}: the columns LatencyLab asks {@code nvidia-smi} for, with its units. */
    static final String CSV_HEADER = "index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%], "
            + "power.draw [W], clocks.sm [MHz]";

    private final SimProfile profile;
    private final SimProfile.Engine engine;
    private final AtomicLong tokensInFlight = new AtomicLong();
    private final LongAccumulator peakBytes = new LongAccumulator(Math::max, 0);
    private volatile Consumer<String> onOutOfMemory = m -> { };

    /** @param profile the server's profile */
    GpuModel(SimProfile profile) {
        this.profile = profile;
        this.engine = profile.engine();
        peakBytes.accumulate(baseBytes());
    }

    /**
     * Checks that the start-time reserve fits.
     *
     * @param profile a profile
     * @throws SimOutOfMemoryException when weights, overhead and a reserved batch exceed the GPU's memory
     */
    static void checkStart(SimProfile profile) {
        SimProfile.Engine e = profile.engine();
        if (e.gpu() == null) {
            return;
        }
        double need = baseBytes(profile) / GIB;
        if (need > e.gpu().memoryGiB()) {
            throw new SimOutOfMemoryException(String.format(Locale.ROOT,
                    "CUDA out of memory (simulated): %.2f GiB needed at start (weights %.2f GiB + overhead %.2f GiB"
                            + "%s) but the GPU has %.2f GiB", need, e.weightsGiB(), e.overheadGiB(),
                    e.reserveFullBatch() ? String.format(Locale.ROOT, " + KV of %d sequences × %d prefill tokens "
                            + "%.2f GiB", profile.maxRunningSeqs(), e.maxBatchedTokens(),
                            reservedKvBytes(profile) / GIB) : "", e.gpu().memoryGiB()));
        }
    }

    /** @param handler called with a message when a request overflows the memory (e.g. to end the process) */
    void onOutOfMemory(Consumer<String> handler) {
        onOutOfMemory = handler;
    }

    private static double reservedKvBytes(SimProfile p) {
        SimProfile.Engine e = p.engine();
        return e.reserveFullBatch() ? (double) e.kvBytesPerToken() * p.maxRunningSeqs() * e.maxBatchedTokens() : 0;
    }

    private static long baseBytes(SimProfile p) {
        SimProfile.Engine e = p.engine();
        return Math.round((e.weightsGiB() + e.overheadGiB()) * GIB + reservedKvBytes(p));
    }

    private long baseBytes() {
        return baseBytes(profile);
    }

    /**
     * Takes KV memory for a sequence's prompt.
     *
     * @param promptTokens prompt tokens
     * @return false when they do not fit (nothing taken; the out-of-memory handler was called)
     */
    boolean admit(int promptTokens) {
        if (engine.gpu() == null || engine.reserveFullBatch()) {
            tokensInFlight.addAndGet(promptTokens);
            return true;
        }
        long after = tokensInFlight.addAndGet(promptTokens);
        long bytes = baseBytes() + after * engine.kvBytesPerToken();
        if (bytes > engine.gpu().memoryGiB() * GIB) {
            tokensInFlight.addAndGet(-promptTokens);
            onOutOfMemory.accept(String.format(Locale.ROOT, "CUDA out of memory (simulated): %d tokens in flight "
                    + "need %.2f GiB of KV cache beyond weights and overhead (%.2f GiB); the GPU has %.2f GiB",
                    after, after * engine.kvBytesPerToken() / GIB, baseBytes() / GIB, engine.gpu().memoryGiB()));
            return false;
        }
        peakBytes.accumulate(bytes);
        return true;
    }

    /** Counts one generated token of a running sequence (its KV grows by one token). */
    void token() {
        long after = tokensInFlight.incrementAndGet();
        peakBytes.accumulate(usedBytes(after));
    }

    /** @param tokens prompt plus generated tokens of a sequence that ended */
    void release(long tokens) {
        tokensInFlight.addAndGet(-tokens);
    }

    private long usedBytes(long tokens) {
        if (engine.gpu() == null) {
            return 0;
        }
        return engine.reserveFullBatch() ? baseBytes() : baseBytes() + tokens * engine.kvBytesPerToken();
    }

    /** @return GPU memory in use now, bytes (0 without a GPU) */
    long usedBytes() {
        return usedBytes(tokensInFlight.get());
    }

    /** @return KV-cache usage in [0, 1]: KV of the tokens in flight over the memory left after weights and overhead */
    double kvCacheUsage() {
        if (engine.gpu() == null || engine.kvBytesPerToken() == 0) {
            return 0;
        }
        double capacity = engine.gpu().memoryGiB() * GIB - (engine.weightsGiB() + engine.overheadGiB()) * GIB;
        return capacity <= 0 ? 1 : Math.min(1, tokensInFlight.get() * (double) engine.kvBytesPerToken() / capacity);
    }

    /**
     * @param running sequences running now
     * @return the reading as {@code nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu,
     *         power.draw,clocks.sm --format=csv} prints it (header line, one line for GPU 0), or null without a GPU
     */
    String nvidiaSmiCsv(int running) {
        SimProfile.Gpu g = engine.gpu();
        if (g == null) {
            return null;
        }
        double util = running <= 0 ? 0 : Math.min(100, 35 + 65.0 * running / profile.maxRunningSeqs());
        double power = g.idleWatts() + (g.maxWatts() - g.idleWatts()) * util / 100;
        return CSV_HEADER + "\n" + String.format(Locale.ROOT, "0, %s, %d MiB, %d MiB, %d %%, %.2f W, %d MHz%n",
                g.name(), Math.round(usedBytes() / MIB), Math.round(g.memoryGiB() * GIB / MIB), Math.round(util),
                power, running <= 0 ? 210 : g.smClockMhz());
    }
}
