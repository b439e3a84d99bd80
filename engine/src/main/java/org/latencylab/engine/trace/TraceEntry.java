package org.latencylab.engine.trace;

/**
 * One request of a trace, as read: when it arrived and how long its prompt and answer were. Immutable; thread-safe.
 *
 * @param line          the 1-based line of the file it was read from
 * @param arrivalNanos  its arrival, ns from the trace's first record (trace time, before any speed-up), >= 0
 * @param inputTokens   prompt length, tokens as the trace counts them, >= 1
 * @param outputTokens  answer length, tokens, >= 1
 * @param hashIds       ids of the prompt's {@value #BLOCK_TOKENS}-token blocks, in order (equal ids: equal block text),
 *                      or an empty array when the trace has none; not copied (callers must not change it)
 */
public record TraceEntry(long line, long arrivalNanos, int inputTokens, int outputTokens, long[] hashIds) {

    /** Tokens per hash-id block in Mooncake traces (the block size its README gives). */
    public static final int BLOCK_TOKENS = 512;

    public TraceEntry {
        if (line < 1) {
            throw new IllegalArgumentException("line must be >= 1, was " + line);
        }
        if (arrivalNanos < 0) {
            throw new IllegalArgumentException("arrivalNanos must be >= 0, was " + arrivalNanos);
        }
        if (inputTokens < 1 || outputTokens < 1) {
            throw new IllegalArgumentException("inputTokens and outputTokens must be >= 1, were " + inputTokens + ", "
                    + outputTokens);
        }
        if (hashIds == null) {
            throw new IllegalArgumentException("hashIds must not be null (empty when the trace has none)");
        }
    }
}
