package org.latencylab.engine.sim;

/**
 * Thrown when a simulator profile's engine model does not fit in its simulated GPU's memory (see
 * {@link SimProfile.Engine}): at start, when the memory reserved for weights, overhead and (with
 * {@code reserveFullBatch}) the whole batch's KV cache exceeds {@code engine.gpu.memoryGiB}. The message reads like
 * a real engine's ("CUDA out of memory") and carries the numbers. Immutable.
 */
public final class SimOutOfMemoryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what did not fit, in GiB */
    public SimOutOfMemoryException(String message) {
        super(message);
    }
}
