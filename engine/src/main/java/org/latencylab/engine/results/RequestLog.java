package org.latencylab.engine.results;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.api.RequestRecord;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code requests.jsonl}: one line per finished request, appended as requests finish: {@link #close} (Ctrl-C closes
 * the log) loses no finished request, and a crash of the process at most those queued in its last
 * {@value #FLUSH_PERIOD_MILLIS} ms.
 *
 * <p>{@link #append} only queues the record: one writer thread turns records into JSON lines, writes them and flushes
 * them to the operating system every {@value #FLUSH_PERIOD_MILLIS} ms, so a line reaches the file at most about
 * {@value #FLUSH_PERIOD_MILLIS} ms after its request ended (then a crash of this process no longer loses it), while the
 * request's thread does no serialisation or I/O (at thousands of requests per second these were on the measuring
 * threads) and wakes no other thread. Why a period: a writer woken by every record would cost the measuring process a
 * thread wake-up and a {@code write} call per request, a noticeable share of the client's CPU per request.
 * {@link #sync} wakes the writer and waits until everything appended is in the file; {@link #close} drains the queue
 * first. A write failure is reported by the next {@link #append}, {@link #sync} or {@link #close}.
 *
 * <p>Thread-safe: any number of threads may append at once.
 */
public final class RequestLog implements AutoCloseable {
    /**
     * Format of the lines written. 1: no header line, warmup/cooldown as label suffixes; 2: a header line
     * {@code {"requests_format": 2}}, fields {@code step} and {@code phase}.
     */
    public static final int FORMAT = 2;
    /** Field of the header line that carries the format. */
    public static final String HEADER_FIELD = "requests_format";
    /** Longest time a record waits in the queue before it is written and flushed, ms. */
    public static final long FLUSH_PERIOD_MILLIS = 20;
    private static final long FLUSH_PERIOD_NANOS = FLUSH_PERIOD_MILLIS * 1_000_000L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final OutputStream out;
    private final JsonGenerator json;
    private final long originNanos;
    private final java.util.concurrent.ConcurrentLinkedQueue<RequestRecord> queue =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicLong appended = new java.util.concurrent.atomic.AtomicLong();
    private final Thread writer;
    private long written;
    private volatile IOException failure;
    private volatile boolean closing;

    /**
     * Opens (creates or appends to) the log and starts its writer thread.
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
            this.out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE), 64 * 1024);
            // one generator for the whole file, lines separated by our own '\n' (not Jackson's root separator, which
            // would come before the next line instead of ending this one)
            this.json = MAPPER.getFactory().createGenerator(out, JsonEncoding.UTF8)
                    .setRootValueSeparator(null);
            if (fresh) {
                out.write(("{\"" + HEADER_FIELD + "\":" + FORMAT + "}\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + " for writing: " + e.getMessage(), e);
        }
        this.writer = Thread.ofPlatform().daemon().name("latencylab-requests-writer").start(this::writeLoop);
    }

    /**
     * Queues one record; the writer thread appends it as a line and flushes it within about
     * {@value #FLUSH_PERIOD_MILLIS} ms. Never blocks and wakes no thread.
     *
     * @param r the finished request
     * @throws UncheckedIOException  when an earlier write failed (disk full)
     * @throws IllegalStateException after {@link #close}
     */
    public void append(RequestRecord r) {
        IOException f = failure;
        if (f != null) {
            throw new UncheckedIOException("cannot append to " + file + ": " + f.getMessage(), f);
        }
        if (closing) {
            throw new IllegalStateException(file + " is closed");
        }
        appended.incrementAndGet();
        queue.add(r);
    }

    private void writeLoop() {
        while (true) {
            boolean last = closing; // read before draining: a record appended before close() is drained below
            RequestRecord r = queue.poll();
            if (r != null) {
                int n = 0;
                try {
                    do {
                        RequestJson.write(json, r, originNanos);
                        json.writeRaw('\n');
                        n++;
                    } while ((r = queue.poll()) != null);
                    json.flush(); // the generator's buffer, then the stream's, to the operating system
                } catch (IOException e) {
                    failure = e;
                }
                synchronized (this) {
                    written += n;
                    notifyAll();
                }
            }
            if (last) {
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(this, FLUSH_PERIOD_NANOS); // sync() and close() unpark
            if (Thread.interrupted()) {
                return;
            }
        }
    }

    /**
     * Waits until every record appended so far is written and flushed.
     *
     * @throws UncheckedIOException when a write failed
     */
    public void sync() {
        long target = appended.get();
        java.util.concurrent.locks.LockSupport.unpark(writer);
        synchronized (this) {
            while (written < target && failure == null && writer.isAlive()) {
                try {
                    wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        IOException f = failure;
        if (f != null) {
            throw new UncheckedIOException("cannot append to " + file + ": " + f.getMessage(), f);
        }
    }

    /** @return records appended through this instance (queued or written) */
    public long lines() {
        return appended.get();
    }

    /** @return the file written */
    public Path file() {
        return file;
    }

    /**
     * Writes what is queued, stops the writer and closes the file. Idempotent.
     *
     * @throws UncheckedIOException when a write or the close failed
     */
    @Override
    public void close() {
        if (!closing) {
            sync();
            closing = true;
            java.util.concurrent.locks.LockSupport.unpark(writer);
            try {
                writer.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            try {
                json.close(); // closes the stream too
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close " + file + ": " + e.getMessage(), e);
            }
        }
        IOException f = failure;
        if (f != null) {
            throw new UncheckedIOException("cannot append to " + file + ": " + f.getMessage(), f);
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
                        // one JSON value per line: the file's line number, and the column within that line
                        String column = ReadErrors.location(e).replaceFirst("^line \\d+, ", "");
                        throw new IllegalArgumentException(file + ": line " + no
                                + (column.startsWith("column") ? ", " + column : "") + ": not a JSON record: "
                                + ReadErrors.words(e), e);
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
