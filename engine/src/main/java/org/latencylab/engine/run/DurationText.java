package org.latencylab.engine.run;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations as people write them in scenario files: {@code 250ms}, {@code 15s}, {@code 1.5s},
 * {@code 10m}, {@code 2h}, {@code 500us}, a bare number (seconds), or ISO-8601 ({@code PT15S}).
 * Thread-safe (stateless).
 */
public final class DurationText {
    private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|min|h)?");

    private DurationText() {
    }

    /**
     * @param text a duration such as {@code "15s"}
     * @return the duration
     * @throws IllegalArgumentException when the text is not a duration >= 0 (the message shows the accepted forms), or
     *                                  when it is longer than a {@code long} of nanoseconds holds (about 292 years)
     */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("expected a duration like 250ms, 15s, 10m or PT15S, was empty");
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            double v = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            double nanos = switch (unit) {
                case "ns" -> v;
                case "us", "µs" -> v * 1e3;
                case "ms" -> v * 1e6;
                case "s" -> v * 1e9;
                case "m", "min" -> v * 60e9;
                case "h" -> v * 3600e9;
                default -> throw new IllegalStateException(unit);
            };
            if (nanos >= Long.MAX_VALUE) { // Math.round would clamp it silently
                throw new IllegalArgumentException("duration too long: '" + text + "' (at most about 292 years)");
            }
            return Duration.ofNanos(Math.round(nanos));
        }
        try {
            Duration d = Duration.parse(text.strip().toUpperCase(Locale.ROOT));
            if (d.isNegative()) {
                throw new IllegalArgumentException("duration must be >= 0, was " + text);
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("expected a duration like 250ms, 15s, 10m or PT15S, was '" + text + "'");
        }
    }

    /**
     * @param d a duration
     * @return a short text that {@link #parse} reads back, e.g. {@code "15s"} or {@code "250ms"}
     */
    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 3_600_000_000_000L == 0 && nanos > 0) {
            return nanos / 3_600_000_000_000L + "h";
        }
        if (nanos % 60_000_000_000L == 0 && nanos > 0) {
            return nanos / 60_000_000_000L + "m";
        }
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + "ms";
        }
        return nanos + "ns";
    }
}
