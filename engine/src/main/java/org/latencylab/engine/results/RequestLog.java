package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.api.RequestRecord;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code requests.jsonl}: one line per finished request, appended and flushed to the operating system before
 * {@link #append} returns, so a crash or Ctrl-C loses no finished request.
 *
 * <p>Thread-safe: appends are serialised on this object (one short write per request). Not a hot-path concern:
 * a line is written after the request ended, never while it is being timed.
 */
public final class RequestLog implements AutoCloseable {
    /** File name inside the run directory. */
    public static final String FILE_NAME = "requests.jsonl";
    /**
     * Format of the lines written. 1: no header line, warmup/cooldown as label suffixes; 2: a header line
     * {@code {"requests_format": 2}}, fields {@code step} and {@code phase}.
     */
    public static final int FORMAT = 2;
    /** Field of the header line that carries the format. */
    public static final String HEADER_FIELD = "requests_format";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final Writer out;
    private final long originNanos;
    private long lines;

    /**
     * Opens (creates or appends to) the log.
     *
     * @param file        path of {@code requests.jsonl}
     * @param originNanos {@link System#nanoTime()} of the run start
     * @throws UncheckedIOException when the file cannot be opened
     */
    public RequestLog(Path file, long originNanos) {
        this.file = file;
        this.originNanos = originNanos;
        try {
            boolean fresh = !Files.exists(file) || Files.size(file) == 0;
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
            if (fresh) {
                out.write("{\"" + HEADER_FIELD + "\":" + FORMAT + "}\n");
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + " for writing: " + e.getMessage(), e);
        }
    }

    /**
     * Appends one record as a line and flushes it.
     *
     * @param r the finished request
     * @throws UncheckedIOException when the write fails (disk full, closed)
     */
    public synchronized void append(RequestRecord r) {
        try {
            out.write(MAPPER.writeValueAsString(RequestJson.toJson(r, originNanos)));
            out.write('\n');
            out.flush();
            lines++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    /** @return lines appended through this instance */
    public synchronized long lines() {
        return lines;
    }

    /** @return the file written */
    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a log back into memory. Prefer {@link #forEach} for large logs (a 10-minute soak has 100,000+ lines).
     *
     * @param file a {@code requests.jsonl}
     * @return the records in file order, timestamps relative to the run start
     * @throws UncheckedIOException     when the file cannot be read
     * @throws IllegalArgumentException when a complete line is malformed or the format is newer than this reader;
     *                                  the message names file and line
     */
    public static List<RequestRecord> read(Path file) {
        List<RequestRecord> out = new ArrayList<>();
        forEach(file, out::add);
        return out;
    }

    /**
     * Streams a log line by line (one record in memory at a time). A first line {@code {"requests_format": N}}
     * declares the format (absent in format 1); a torn last line (the process died mid-write) is skipped.
     *
     * @param file a {@code requests.jsonl}
     * @param sink receives the records in file order, timestamps relative to the run start
     * @return lines read (header included)
     * @throws UncheckedIOException     when the file cannot be read
     * @throws IllegalArgumentException when a complete line is malformed, or the header names a format newer than
     *                                  {@value #FORMAT}; the message names file and line
     */
    public static long forEach(Path file, Consumer<RequestRecord> sink) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            long no = 0;
            String line = r.readLine();
            while (line != null) {
                String next = r.readLine();
                no++;
                if (!line.isBlank()) {
                    JsonNode node;
                    try {
                        node = MAPPER.readTree(line);
                    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                        if (next == null) {
                            break; // torn last line
                        }
                        throw new IllegalArgumentException(file + ":" + no + ": not JSON: " + e.getOriginalMessage(), e);
                    }
                    if (node.has(HEADER_FIELD)) {
                        checkFormat(file, no, node.get(HEADER_FIELD));
                    } else {
                        try {
                            sink.accept(RequestJson.fromJson(node));
                        } catch (IllegalArgumentException e) {
                            throw new IllegalArgumentException(file + ":" + no + ": " + e.getMessage(), e);
                        }
                    }
                }
                line = next;
            }
            return no;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static void checkFormat(Path file, long line, JsonNode version) {
        if (!version.canConvertToInt() || version.asInt() < 1) {
            throw new IllegalArgumentException(file + ":" + line + ": field '" + HEADER_FIELD
                    + "' must be a positive whole number, was " + version);
        }
        if (version.asInt() > FORMAT) {
            throw new IllegalArgumentException(file + ":" + line + ": requests format " + version.asInt()
                    + " is newer than this LatencyLab reads (up to " + FORMAT + "); open it with a newer LatencyLab");
        }
    }
}
