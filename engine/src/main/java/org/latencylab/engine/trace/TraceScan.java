package org.latencylab.engine.trace;

import java.io.IOException;
import java.util.List;

/**
 * What a first pass over a trace found in a replay's window: how many requests, when the first and last arrive, and
 * their mean lengths. A replay reads the file twice (this pass, then the replay itself) so memory stays bounded while
 * {@code --rate} can rescale to a mean rate. Immutable; thread-safe.
 *
 * @param requests          records in the window (after {@code start}, before {@code start + duration}, at most
 *                          {@code limit}), >= 0
 * @param firstArrivalNanos the first of them, trace time, ns (0 when none)
 * @param lastArrivalNanos  the last of them, trace time, ns (0 when none)
 * @param meanInputTokens   their mean prompt length, tokens (0 when none)
 * @param meanOutputTokens  their mean answer length, tokens (0 when none)
 * @param beyondWindow      valid records after the window's end or the limit, left out of the replay
 * @param skipped           records skipped as malformed or out of order (whole file)
 * @param filtered          BurstGPT rows left out by the model / log-type filter (whole file)
 * @param skipSamples       the first skip messages, each naming file, line and field
 */
public record TraceScan(long requests, long firstArrivalNanos, long lastArrivalNanos, double meanInputTokens,
                        double meanOutputTokens, long beyondWindow, long skipped, long filtered,
                        List<String> skipSamples) {

    public TraceScan {
        skipSamples = List.copyOf(skipSamples);
    }

    /** @return the window's span from its first to its last arrival, trace time, ns */
    public long spanNanos() {
        return lastArrivalNanos - firstArrivalNanos;
    }

    /**
     * Reads a whole trace once.
     *
     * @param window which part of it a replay sends
     * @return what it found
     * @throws TraceException when the file cannot be read (see {@link TraceReader#open}); not when it holds no valid
     *                        record in the window (then {@code requests == 0})
     */
    public static TraceScan of(ReplayWindow window) {
        long n = 0;
        long first = 0;
        long last = 0;
        double in = 0;
        double out = 0;
        long beyond = 0;
        try (TraceReader r = window.open()) {
            for (TraceEntry e = r.next(); e != null; e = r.next()) {
                int where = window.place(e.arrivalNanos(), n);
                if (where < 0) {
                    continue;
                }
                if (where > 0) {
                    beyond++;
                    continue;
                }
                if (n == 0) {
                    first = e.arrivalNanos();
                }
                last = e.arrivalNanos();
                n++;
                in += e.inputTokens();
                out += e.outputTokens();
            }
            return new TraceScan(n, first, last, n == 0 ? 0 : in / n, n == 0 ? 0 : out / n, beyond, r.skipped(),
                    r.filtered(), r.skipSamples());
        } catch (IOException e) {
            throw new TraceException(window.file().getFileName() + ": cannot read the trace: " + e.getMessage());
        }
    }
}
