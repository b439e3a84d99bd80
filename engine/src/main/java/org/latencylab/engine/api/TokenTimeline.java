package org.latencylab.engine.api;

import java.util.Arrays;

/**
 * The token-bearing events of one streamed response: when each arrived and how many tokens it carried.
 *
 * <p>Arrays are copied in and out, so an instance is immutable and thread-safe. Event {@code i} arrived at
 * {@code arrivalNanos[i]} ({@link System#nanoTime()} of the client) and carried {@code tokens[i] >= 1} tokens
 * (counted with the tokenizer on the event's text, at least 1). When the server stamped its events
 * (the simulator's stamping mode) {@code serverStampNanos[i]} is the server's send time, else
 * {@link RequestRecord#UNSET}.
 */
public final class TokenTimeline {
    /** A timeline without events. */
    public static final TokenTimeline EMPTY = new TokenTimeline(new long[0], new int[0], new long[0]);

    private final long[] arrivalNanos;
    private final int[] tokens;
    private final long[] serverStampNanos;
    private final int[] answerChars;

    /**
     * @param arrivalNanos     client receive time of each event, non-decreasing
     * @param tokens           tokens per event, each >= 1
     * @param serverStampNanos server send time per event or {@link RequestRecord#UNSET}; may be null (no stamps)
     * @throws IllegalArgumentException when lengths differ
     */
    public TokenTimeline(long[] arrivalNanos, int[] tokens, long[] serverStampNanos) {
        this(arrivalNanos, tokens, serverStampNanos, null);
    }

    /**
     * @param arrivalNanos     client receive time of each event, non-decreasing
     * @param tokens           tokens per event, each >= 1
     * @param serverStampNanos server send time per event or {@link RequestRecord#UNSET}; may be null (no stamps)
     * @param answerChars      answer characters (Unicode code points, reasoning excluded) per event, each >= 0; may
     *                         be null when not known (first-screen latency in characters is then unavailable)
     * @throws IllegalArgumentException when lengths differ
     */
    public TokenTimeline(long[] arrivalNanos, int[] tokens, long[] serverStampNanos, int[] answerChars) {
        if (arrivalNanos.length != tokens.length
                || serverStampNanos != null && serverStampNanos.length != arrivalNanos.length
                || answerChars != null && answerChars.length != arrivalNanos.length) {
            throw new IllegalArgumentException("timeline arrays must have equal length: arrivals="
                    + arrivalNanos.length + ", tokens=" + tokens.length
                    + ", stamps=" + (serverStampNanos == null ? "null" : serverStampNanos.length));
        }
        this.arrivalNanos = arrivalNanos.clone();
        this.tokens = tokens.clone();
        if (serverStampNanos == null) {
            this.serverStampNanos = new long[arrivalNanos.length];
            Arrays.fill(this.serverStampNanos, RequestRecord.UNSET);
        } else {
            this.serverStampNanos = serverStampNanos.clone();
        }
        this.answerChars = answerChars == null ? null : answerChars.clone();
    }

    /** @return true when per-event answer character counts are known */
    public boolean hasAnswerChars() {
        return answerChars != null;
    }

    /** @param i event index @return answer characters carried by event i (>= 0), or -1 when not known */
    public int answerChars(int i) {
        return answerChars == null ? -1 : answerChars[i];
    }

    /** @return number of token-bearing events */
    public int size() {
        return arrivalNanos.length;
    }

    /** @param i event index, 0 &lt;= i &lt; size() @return client receive time, nanoTime */
    public long arrivalNanos(int i) {
        return arrivalNanos[i];
    }

    /** @param i event index @return tokens carried by event i (>= 1) */
    public int tokens(int i) {
        return tokens[i];
    }

    /** @param i event index @return server send time, nanoTime, or {@link RequestRecord#UNSET} */
    public long serverStampNanos(int i) {
        return serverStampNanos[i];
    }

    /** @return true when at least one event carries a server stamp */
    public boolean hasServerStamps() {
        for (long s : serverStampNanos) {
            if (s != RequestRecord.UNSET) {
                return true;
            }
        }
        return false;
    }

    /** @return the sum of tokens over all events */
    public int totalTokens() {
        int sum = 0;
        for (int t : tokens) {
            sum += t;
        }
        return sum;
    }

    /**
     * Inter-token latencies: gap between event i-1 and event i, for i = 1..size()-1.
     *
     * @param perToken when true each gap is divided by the tokens event i carries
     * @return gaps in nanoseconds (length {@code max(0, size()-1)})
     */
    public long[] itlNanos(boolean perToken) {
        if (arrivalNanos.length < 2) {
            return new long[0];
        }
        long[] out = new long[arrivalNanos.length - 1];
        for (int i = 1; i < arrivalNanos.length; i++) {
            long gap = arrivalNanos[i] - arrivalNanos[i - 1];
            out[i - 1] = perToken ? gap / Math.max(1, tokens[i]) : gap;
        }
        return out;
    }

    /** @return a copy of the arrival times */
    public long[] arrivalsCopy() {
        return arrivalNanos.clone();
    }

    /** @return a copy of the per-event token counts */
    public int[] tokensCopy() {
        return tokens.clone();
    }

    /** @return a copy of the server stamps */
    public long[] serverStampsCopy() {
        return serverStampNanos.clone();
    }
}
