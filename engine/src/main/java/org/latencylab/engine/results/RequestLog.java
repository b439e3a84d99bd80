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
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
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
     * Reads a log back. A torn last line (the process died mid-write) is skipped.
     *
     * @param file a {@code requests.jsonl}
     * @return the records in file order, timestamps relative to the run start
     * @throws UncheckedIOException     when the file cannot be read
     * @throws IllegalArgumentException when a complete line is malformed; the message names file and line
     */
    public static List<RequestRecord> read(Path file) {
        List<RequestRecord> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int no = 0;
            List<String> all = new ArrayList<>();
            while ((line = r.readLine()) != null) {
                all.add(line);
            }
            for (String l : all) {
                no++;
                if (l.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = MAPPER.readTree(l);
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    if (no == all.size()) {
                        break; // torn last line
                    }
                    throw new IllegalArgumentException(file + ":" + no + ": not JSON: " + e.getOriginalMessage(), e);
                }
                try {
                    out.add(RequestJson.fromJson(node));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ":" + no + ": " + e.getMessage(), e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return out;
    }
}
