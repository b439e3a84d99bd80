package org.latencylab.engine.load;

/**
 * Arrivals given one by one instead of drawn from a rate profile: an open loop that replays a trace sends each at its
 * offset, with its own prompt and answer lengths. The step still keeps its schedule's rules: each request is timed
 * from its intended start (no coordinated omission), late sends show as dispatch lag (send − intended), and the
 * step's duration and request count still end it. Called on the step's dispatcher thread only, so an implementation
 * need not be thread-safe.
 */
public interface ArrivalFeed {

    /**
     * @return the next arrival, with an offset not before the previous one's; or null when there is none left
     * @throws RuntimeException when the feed cannot go on (e.g. a trace that cannot be read further); the step ends
     *                          with that message as its stop reason, the requests sent so far recorded
     */
    Arrival next();

    /**
     * One arrival of a feed.
     *
     * @param offsetNanos     intended start, ns from the step's start, >= 0
     * @param promptTokens    prompt length, tokens, >= 1
     * @param maxOutputTokens answer length asked ({@code max_tokens}), tokens, >= 1
     */
    record Arrival(long offsetNanos, int promptTokens, int maxOutputTokens) {
        public Arrival {
            if (offsetNanos < 0) {
                throw new IllegalArgumentException("offsetNanos must be >= 0, was " + offsetNanos);
            }
            if (promptTokens < 1 || maxOutputTokens < 1) {
                throw new IllegalArgumentException("promptTokens and maxOutputTokens must be >= 1, were "
                        + promptTokens + ", " + maxOutputTokens);
            }
        }
    }
}
