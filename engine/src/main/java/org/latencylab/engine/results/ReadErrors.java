package org.latencylab.engine.results;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

import java.io.CharConversionException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file LatencyLab could not read (run files, scenarios, profiles), said in one line of words:
 * {@code FILE: line L, column C: what was wrong}. The parser's own wording ("Unexpected end-of-input within/between
 * Object entries", "at [Source: REDACTED ...]", exception class names) stays out of the words; the exception keeps it
 * for the log file.
 *
 * <p>What it says, by what the parser met (Jackson 2 core and databind, SnakeYAML through jackson-dataformat-yaml):
 * <ul>
 *   <li>end of input inside a value: the file ends before the JSON is complete (cut short: a crash, a full disk or a
 *       copy that did not finish);</li>
 *   <li>bytes that are not UTF-8 ({@link CharConversionException}, "Invalid UTF-8 start byte 0x89"): not UTF-8 text,
 *       with the byte (is it a binary file?);</li>
 *   <li>no content at all: the file is empty;</li>
 *   <li>any other syntax error: the parser's sentence with Jackson's source excerpt, character codes and
 *       back-quoted class names taken out.</li>
 * </ul>
 * The line and column are Jackson's ({@link JsonProcessingException#getLocation()}, 1-based); without one the words
 * follow the file name directly.
 *
 * <p>Stateless; thread-safe.
 */
public final class ReadErrors {
    private static final Pattern SOURCE = Pattern.compile("\\s*at \\[Source: .*", Pattern.DOTALL);
    private static final Pattern CODE = Pattern.compile(" \\((?:CTRL-CHAR, )?code -?\\d+\\)");
    private static final Pattern CLASS_NAME = Pattern.compile("`(?:[a-z][a-z0-9_]*\\.)+([A-Za-z0-9_$]+)`");
    private static final Pattern BAD_BYTE = Pattern.compile("Invalid UTF-8 (start|middle) byte (0x[0-9a-fA-F]+)"
            + "(?: \\(at char #(\\d+), byte #(\\d+)\\))?");

    private ReadErrors() {
    }

    /**
     * @param file the file that was read; not null
     * @param e    what the parser or the read threw; not null
     * @return {@code FILE: line L, column C: WORDS}, or {@code FILE: WORDS} when the failure has no location; one
     * line, no exception class name
     * @throws NullPointerException when an argument is null
     */
    public static String describe(Path file, Throwable e) {
        return describe(file.toString(), e);
    }

    /**
     * @param fileName the name shown for the file (a path, or a name such as {@code scenario.yaml}); not null
     * @param e        what the parser or the read threw; not null
     * @return as {@link #describe(Path, Throwable)}
     * @throws NullPointerException when an argument is null
     */
    public static String describe(String fileName, Throwable e) {
        String words = words(e);
        String at = location(e);
        return fileName + ": " + (at.isEmpty() ? "" : at + ": ") + words;
    }

    /**
     * @param file the file that was read
     * @param e    what the parser or the read threw
     * @return an {@link IllegalArgumentException} (bad input, exit status 2 on the command line) with
     * {@link #describe(Path, Throwable)}'s words and {@code e} as its cause
     */
    public static IllegalArgumentException badInput(Path file, Throwable e) {
        return new IllegalArgumentException(describe(file, e), e);
    }

    /**
     * @param e what the parser or the read threw; not null
     * @return {@code line L, column C} of a Jackson failure with a known location, else ""
     */
    public static String location(Throwable e) {
        if (e instanceof JsonProcessingException j && !(eof(j) && empty(j))) {
            JsonLocation l = j.getLocation();
            if (l != null && l.getLineNr() > 0) {
                return "line " + l.getLineNr() + (l.getColumnNr() > 0 ? ", column " + l.getColumnNr() : "");
            }
        }
        return "";
    }

    /**
     * @param e what the parser or the read threw; not null
     * @return what was wrong, in words, without the file name or the location
     */
    public static String words(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            Matcher bad = BAD_BYTE.matcher(String.valueOf(t.getMessage()));
            if (t instanceof CharConversionException || bad.find() && t instanceof JsonProcessingException) {
                bad.reset();
                if (bad.find()) {
                    return "not UTF-8 text: byte " + bad.group(2).toLowerCase(Locale.ROOT)
                            + (bad.group(4) == null ? "" : " at byte " + bad.group(4))
                            + " cannot be read as UTF-8 (is it a binary file, or saved in another encoding?)";
                }
                return "not UTF-8 text (is it a binary file, or saved in another encoding?)";
            }
        }
        if (e instanceof JsonProcessingException j) {
            if (eof(j)) {
                return empty(j) ? "the file is empty"
                        : "the file ends before the JSON is complete (was it cut short, e.g. by a crash, a full disk"
                        + " or a copy that did not finish?)";
            }
            return clean(j.getOriginalMessage());
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof IOException) {
            return "cannot read (" + clean(e.getMessage()) + ")";
        }
        return clean(e.getMessage());
    }

    private static boolean eof(JsonProcessingException e) {
        String m = String.valueOf(e.getOriginalMessage());
        return e instanceof com.fasterxml.jackson.core.io.JsonEOFException || m.startsWith("Unexpected end-of-input")
                || m.startsWith("No content to map due to end-of-input");
    }

    private static boolean empty(JsonProcessingException e) {
        return String.valueOf(e.getOriginalMessage()).startsWith("No content to map due to end-of-input");
    }

    /** The parser's sentence without its source excerpt, character codes and qualified class names. */
    private static String clean(String message) {
        if (message == null || message.isBlank()) {
            return "not readable";
        }
        String m = SOURCE.matcher(message).replaceAll("");
        m = CODE.matcher(m).replaceAll("");
        m = CLASS_NAME.matcher(m).replaceAll("$1");
        return m.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
