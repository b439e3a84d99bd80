package org.latencylab.engine.load;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;

import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes the durations of scenario files: {@code "500ms"}, {@code "30s"}, {@code "10m"}, {@code "1h"},
 * {@code "250us"}, {@code "1.5s"}, or ISO-8601 such as {@code "PT30S"}. Stateless and thread-safe.
 *
 * <p>Hand-written because {@link Duration#parse} only reads ISO-8601, which is awkward in hand-edited YAML, and
 * the unit suffixes here are the ones load-testing tools (wrk, k6, vegeta) use.
 */
public final class Durations {
    private static final Pattern TEXT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|h)");

    private Durations() {
    }

    /**
     * Parses a duration.
     *
     * @param text  e.g. {@code "500ms"}, {@code "30s"}, {@code "10m"}, {@code "PT1M"}; units ns, us, ms, s, m, h
     * @param field name of the field being read, for the error message (e.g. {@code "warmup"})
     * @return the duration, >= 0
     * @throws IllegalArgumentException when the text is null, negative or not a duration; the message names the
     *                                  field, the text and the accepted forms
     */
    public static Duration parse(String text, String field) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(field + ": a duration is needed, e.g. \"500ms\", \"30s\", \"10m\"");
        }
        String s = text.strip();
        if (s.startsWith("P") || s.startsWith("p")) {
            try {
                Duration d = Duration.parse(s.toUpperCase(java.util.Locale.ROOT));
                if (d.isNegative()) {
                    throw new IllegalArgumentException(field + ": duration must be >= 0, was '" + text + "'");
                }
                return d;
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(field + ": '" + text + "' is not an ISO-8601 duration", e);
            }
        }
        Matcher m = TEXT.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException(field + ": '" + text
                    + "' is not a duration; write a number and a unit (ns, us, ms, s, m, h), e.g. \"500ms\", "
                    + "\"30s\", \"10m\", or ISO-8601 like \"PT30S\"");
        }
        double value = Double.parseDouble(m.group(1));
        double nanosPerUnit = switch (m.group(2)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> throw new IllegalStateException("unreachable unit " + m.group(2));
        };
        double nanos = value * nanosPerUnit;
        if (nanos > Long.MAX_VALUE) {
            throw new IllegalArgumentException(field + ": '" + text + "' is too long");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    /**
     * Formats a duration the way {@link #parse} reads it, in the largest unit that keeps it exact.
     *
     * @param d a duration >= 0; null gives null
     * @return e.g. {@code "500ms"}, {@code "30s"}, {@code "10m"}
     */
    public static String format(Duration d) {
        if (d == null) {
            return null;
        }
        long n = d.toNanos();
        if (n == 0) {
            return "0s";
        }
        long[] per = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
        String[] unit = {"h", "m", "s", "ms", "us", "ns"};
        for (int i = 0; i < per.length; i++) {
            if (n % per[i] == 0) {
                return n / per[i] + unit[i];
            }
        }
        return n + "ns";
    }

    /** Jackson deserializer for {@link Duration} fields written as text (see {@link #parse}). Thread-safe. */
    public static final class Reader extends JsonDeserializer<Duration> {
        @Override
        public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = p.currentName() == null ? "duration" : p.currentName();
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT || p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
                throw ctxt.weirdStringException(p.getText(), Duration.class, field
                        + ": a bare number is ambiguous; write a unit, e.g. \"" + p.getText() + "s\" or \""
                        + p.getText() + "ms\"");
            }
            try {
                return parse(p.getValueAsString(), field);
            } catch (IllegalArgumentException e) {
                throw ctxt.weirdStringException(p.getText(), Duration.class, e.getMessage());
            }
        }
    }

    /** Jackson serializer writing {@link Duration} as text (see {@link #format}). Thread-safe. */
    public static final class Writer extends JsonSerializer<Duration> {
        @Override
        public void serialize(Duration value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            gen.writeString(format(value));
        }
    }
}
