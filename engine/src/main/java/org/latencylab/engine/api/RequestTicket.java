package org.latencylab.engine.api;

/**
 * Identity and schedule of one request, handed by a scheduler to the client. Immutable and thread-safe.
 *
 * @param id                 request number within the run, >= 0
 * @param label              experiment step, e.g. {@code "probe"} or {@code "sweep-2048"}; null becomes ""
 * @param contextTokens      prompt tokens intended (LatencyLab's tokenizer), or -1
 * @param intendedStartNanos {@link System#nanoTime()} at which the schedule wanted the request sent; in a
 *                           closed loop the scheduler passes the moment it hands the ticket over
 * @param phase              warmup, measured or cooldown (decided by the scheduler from the intended start); null
 *                           becomes {@link Phase#MEASURED}
 * @param capWaitNanos       how long the scheduler held the request at the step's caps ({@code maxInFlight},
 *                           {@code maxRateRps} with {@code atCap: queue}) after its intended start, ns; 0 when it did
 *                           not (negative values become 0); copied to {@link RequestRecord#capWaitNanos}
 * @throws IllegalArgumentException when {@code id < 0}
 */
public record RequestTicket(long id, String label, int contextTokens, long intendedStartNanos, Phase phase,
                            long capWaitNanos) {
    public RequestTicket {
        if (id < 0) {
            throw new IllegalArgumentException("id must be >= 0, was " + id);
        }
        label = label == null ? "" : label;
        phase = phase == null ? Phase.MEASURED : phase;
        capWaitNanos = Math.max(0, capWaitNanos);
    }

    /**
     * A ticket that waited at no cap.
     *
     * @param id                 request number within the run, >= 0
     * @param label              experiment step label
     * @param contextTokens      prompt tokens intended, or -1
     * @param intendedStartNanos intended start, {@link System#nanoTime()}
     * @param phase              warmup, measured or cooldown; null becomes {@link Phase#MEASURED}
     * @throws IllegalArgumentException when {@code id < 0}
     */
    public RequestTicket(long id, String label, int contextTokens, long intendedStartNanos, Phase phase) {
        this(id, label, contextTokens, intendedStartNanos, phase, 0);
    }

    /**
     * A ticket of the measured phase.
     *
     * @param id                 request number within the run, >= 0
     * @param label              experiment step label
     * @param contextTokens      prompt tokens intended, or -1
     * @param intendedStartNanos intended start, {@link System#nanoTime()}
     * @throws IllegalArgumentException when {@code id < 0}
     */
    public RequestTicket(long id, String label, int contextTokens, long intendedStartNanos) {
        this(id, label, contextTokens, intendedStartNanos, Phase.MEASURED);
    }
}
