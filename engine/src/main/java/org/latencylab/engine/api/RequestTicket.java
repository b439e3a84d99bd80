package org.latencylab.engine.api;

/**
 * Identity and schedule of one request, handed by a scheduler to the client. Immutable and thread-safe.
 *
 * @param id                 request number within the run, >= 0
 * @param label              experiment step, e.g. {@code "probe"} or {@code "sweep-2048"}; null becomes ""
 * @param contextTokens      prompt tokens intended (LatencyLab's tokenizer), or -1
 * @param intendedStartNanos {@link System#nanoTime()} at which the schedule wanted the request sent; in a
 *                           closed loop the scheduler passes the moment it hands the ticket over
 * @throws IllegalArgumentException when {@code id < 0}
 */
public record RequestTicket(long id, String label, int contextTokens, long intendedStartNanos) {
    public RequestTicket {
        if (id < 0) {
            throw new IllegalArgumentException("id must be >= 0, was " + id);
        }
        label = label == null ? "" : label;
    }
}
