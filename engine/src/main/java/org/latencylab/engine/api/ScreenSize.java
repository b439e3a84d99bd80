package org.latencylab.engine.api;

import java.util.Locale;

/**
 * How much answer text makes the "first screen" of first-screen latency: a number of characters (Unicode code
 * points of answer text, reasoning excluded) or of tokens (of the events that carry answer text). Immutable and
 * thread-safe.
 *
 * @param amount characters or tokens, &gt;= 1
 * @param unit   what {@code amount} counts
 * @throws IllegalArgumentException when {@code amount < 1} or {@code unit} is null
 */
public record ScreenSize(int amount, Unit unit) {
    /** The default: 200 characters, about three lines of a phone screen. */
    public static final ScreenSize DEFAULT = new ScreenSize(200, Unit.CHARACTERS);

    /** What a screen size counts. */
    public enum Unit {
        /** Unicode code points of answer text. */
        CHARACTERS,
        /** Tokens of the events that carry answer text (the events' token counts). */
        TOKENS
    }

    public ScreenSize {
        if (amount < 1) {
            throw new IllegalArgumentException("screen size must be >= 1, was " + amount);
        }
        if (unit == null) {
            throw new IllegalArgumentException("screen size unit must be characters or tokens");
        }
    }

    /** @return e.g. {@code 200 characters} */
    @Override
    public String toString() {
        return amount + " " + unit.name().toLowerCase(Locale.ROOT);
    }
}
