package org.latencylab.engine.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads a trace file one record at a time, never the whole file: memory stays bounded by one line whatever the
 * trace's length. JSON Lines are parsed per line with Jackson, CSV with Jackson's CSV parser (rows as string arrays,
 * columns found by the header's names, so a trace with extra or reordered columns reads the same).
 *
 * <p>A malformed record is skipped and counted ({@link #skipped()}, with the first {@value #SAMPLES} messages in
 * {@link #skipSamples()}), each message naming the file, line and field. A record whose arrival is before the
 * previous one's is skipped too: a replay sends in arrival order, so the file must be sorted. What makes the whole
 * file unusable (missing, unreadable, a header or first line of another format) throws a {@link TraceException}.
 *
 * <p>BurstGPT rows can be filtered by {@code Model} and {@code Log Type}; rows with 0 {@code Response tokens} (the
 * trace's failed requests) are skipped as such. Not thread-safe: one reader per thread.
 */
public final class TraceReader implements Closeable {
    /** Skip messages kept for the report. */
    public static final int SAMPLES = 5;

    /** Azure timestamps: {@code 2023-11-16 18:15:46.6805900} (0 to 9 fraction digits). */
    private static final DateTimeFormatter AZURE_TIME = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter(Locale.ROOT);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final String name;
    private final TraceFormat format;
    private final String model;
    private final String logType;
    private final BufferedReader lines; // JSON Lines
    private final MappingIterator<String[]> rows; // CSV
    private final boolean csvStartsWithJson;
    private int[] columns; // CSV: index of each required column, then Model, Log Type (-1 when absent)
    private long line;
    private long skipped;
    private long filtered;
    private final List<String> samples = new ArrayList<>();
    private long previousArrivalNanos = -1;
    private long firstEpochNanos = Long.MIN_VALUE; // Azure: the first record's wall-clock time

    private TraceReader(Path file, TraceFormat format, String model, String logType) throws IOException {
        this.file = file;
        this.name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        this.format = format;
        this.model = model;
        this.logType = logType;
        BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        if (format == TraceFormat.MOONCAKE) {
            this.csvStartsWithJson = false;
            this.lines = in;
            this.rows = null;
        } else {
            this.lines = null;
            // a JSON line would fail the CSV parser with a message about separators: look first
            in.mark(1 << 16);
            int c = in.read();
            while (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xFEFF) {
                c = in.read();
            }
            in.reset();
            this.csvStartsWithJson = c == '{';
            this.rows = new CsvMapper().readerFor(String[].class).with(CsvParser.Feature.WRAP_AS_ARRAY)
                    .with(CsvParser.Feature.TRIM_SPACES).readValues(in);
        }
    }

    /**
     * Opens a trace and checks that its start is of the format asked.
     *
     * @param file    the trace file
     * @param format  its format
     * @param model   BurstGPT only: keep only rows of this {@code Model} (e.g. {@code ChatGPT}); null keeps all
     * @param logType BurstGPT only: keep only rows of this {@code Log Type} (e.g. {@code Conversation log}); null keeps all
     * @return a reader positioned before the first record; close it
     * @throws TraceException when the file is missing, unreadable, empty, or starts like another format (the message
     *                        says which format to give)
     */
    public static TraceReader open(Path file, TraceFormat format, String model, String logType) {
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        if (!Files.isRegularFile(file)) {
            throw new TraceException(name + ": no such trace file (give the path of a ." + (format
                    == TraceFormat.MOONCAKE ? "jsonl" : "csv") + " file)");
        }
        try {
            if (Files.size(file) == 0) {
                throw new TraceException(name + ": the trace file is empty: nothing to replay");
            }
            TraceReader r = new TraceReader(file, format, model, logType);
            try {
                r.checkStart();
            } catch (RuntimeException e) {
                r.close();
                throw e;
            }
            return r;
        } catch (NoSuchFileException e) {
            throw new TraceException(name + ": no such trace file");
        } catch (IOException | java.io.UncheckedIOException e) {
            String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new TraceException(name + ": cannot read the trace: " + why);
        }
    }

    private void checkStart() throws IOException {
        if (format == TraceFormat.MOONCAKE) {
            lines.mark(1 << 16);
            String first = lines.readLine();
            while (first != null && first.isBlank()) {
                first = lines.readLine();
            }
            lines.reset();
            if (first == null) {
                throw new TraceException(name + ": the trace file is empty: nothing to replay");
            }
            if (!first.stripLeading().startsWith("{")) {
                TraceFormat csv = formatOfHeader(Arrays.asList(first.split(",")));
                throw new TraceException(name + ": line 1 is not a JSON object, so this is not a mooncake trace"
                        + (csv != null ? ": it looks like a " + csv.id() + " CSV trace, give --format " + csv.id()
                        : " (one JSON object per line with timestamp, input_length, output_length)"));
            }
            return;
        }
        if (csvStartsWithJson) {
            throw new TraceException(name + ": line 1 is a JSON object, not a " + format.id()
                    + " CSV header: it looks like a mooncake trace, give --format mooncake");
        }
        if (!rows.hasNextValue()) {
            throw new TraceException(name + ": the trace file is empty: nothing to replay");
        }
        String[] header = rows.nextValue();
        line = 1;
        List<String> names = Arrays.stream(header).map(String::strip).toList();
        columns = new int[format.requiredFields().size() + 2];
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < format.requiredFields().size(); i++) {
            columns[i] = names.indexOf(format.requiredFields().get(i));
            if (columns[i] < 0) {
                missing.add(format.requiredFields().get(i));
            }
        }
        columns[columns.length - 2] = names.indexOf("Model");
        columns[columns.length - 1] = names.indexOf("Log Type");
        if (!missing.isEmpty()) {
            TraceFormat other = formatOfHeader(names);
            throw new TraceException(name + ": line 1: the header lacks column" + (missing.size() > 1 ? "s " : " ")
                    + String.join(", ", missing) + " of a " + format.id() + " trace"
                    + (other != null && other != format ? "; it looks like a " + other.id() + " trace, give --format "
                    + other.id() : "; header was: " + String.join(",", names)));
        }
        if ((model != null || logType != null) && format != TraceFormat.BURSTGPT) {
            throw new TraceException(name + ": --model and --log-type filter BurstGPT traces only, not " + format.id());
        }
    }

    private static TraceFormat formatOfHeader(List<String> names) {
        List<String> stripped = names.stream().map(String::strip).toList();
        for (TraceFormat f : List.of(TraceFormat.BURSTGPT, TraceFormat.AZURE)) {
            if (stripped.containsAll(f.requiredFields())) {
                return f;
            }
        }
        return null;
    }

    /**
     * Reads the next valid record, skipping (and counting) malformed, filtered and out-of-order ones.
     *
     * @return the next record, or null at the end of the file
     * @throws TraceException when the file cannot be read further (an I/O error, a CSV quote never closed); the
     *                        message names the file and line
     */
    public TraceEntry next() {
        try {
            while (true) {
                TraceEntry e;
                if (format == TraceFormat.MOONCAKE) {
                    String text = lines.readLine();
                    if (text == null) {
                        return null;
                    }
                    line++;
                    if (text.isBlank()) {
                        continue;
                    }
                    e = jsonEntry(text);
                } else {
                    if (!rows.hasNextValue()) {
                        return null;
                    }
                    String[] row = rows.nextValue();
                    line++;
                    if (row.length == 0 || row.length == 1 && row[0].isBlank()) {
                        continue;
                    }
                    e = csvEntry(row);
                }
                if (e == null) {
                    continue;
                }
                if (e.arrivalNanos() < previousArrivalNanos) {
                    skip(null, String.format(Locale.ROOT, "arrival %.3f s is before the previous record's %.3f s"
                            + " (a replay sends in arrival order: sort the file by timestamp)",
                            e.arrivalNanos() / 1e9, previousArrivalNanos / 1e9));
                    continue;
                }
                previousArrivalNanos = e.arrivalNanos();
                return e;
            }
        } catch (IOException | RuntimeException ex) {
            if (ex instanceof TraceException t) {
                throw t;
            }
            String why = ex instanceof JsonProcessingException j ? j.getOriginalMessage() : ex.getMessage();
            throw new TraceException(name + ": line " + (line + 1) + ": cannot read the trace further: " + why);
        }
    }

    private TraceEntry jsonEntry(String text) {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException ex) {
            skip(null, "not a JSON object (" + ex.getOriginalMessage() + ")");
            return null;
        }
        if (node == null || !node.isObject()) {
            skip(null, "not a JSON object");
            return null;
        }
        Double ts = number(node.get("timestamp"), "timestamp");
        Double in = ts == null ? null : number(node.get("input_length"), "input_length");
        Double out = in == null ? null : number(node.get("output_length"), "output_length");
        if (out == null || !positive(ts, "timestamp", true) || !tokens(in, "input_length")
                || !tokens(out, "output_length")) {
            return null;
        }
        long[] hashes = new long[0];
        JsonNode h = node.get("hash_ids");
        if (h != null && !h.isNull()) {
            if (!h.isArray()) {
                skip("hash_ids", "must be an array of block ids, was " + h.getNodeType().name().toLowerCase(Locale.ROOT));
                return null;
            }
            hashes = new long[h.size()];
            for (int i = 0; i < hashes.length; i++) {
                if (!h.get(i).canConvertToLong()) {
                    skip("hash_ids", "element " + i + " is not an integer block id: " + h.get(i));
                    return null;
                }
                hashes[i] = h.get(i).asLong();
            }
        }
        return new TraceEntry(line, Math.round(ts * 1e6), (int) Math.round(in), (int) Math.round(out), hashes);
    }

    private TraceEntry csvEntry(String[] row) {
        int model = columns[columns.length - 2];
        int type = columns[columns.length - 1];
        if (this.model != null && (model < 0 || model >= row.length || !this.model.equalsIgnoreCase(row[model]))
                || logType != null && (type < 0 || type >= row.length || !logType.equalsIgnoreCase(row[type]))) {
            filtered++;
            return null;
        }
        String tsText = cell(row, 0);
        String inText = tsText == null ? null : cell(row, 1);
        String outText = inText == null ? null : cell(row, 2);
        if (outText == null) {
            return null;
        }
        long arrival;
        if (format == TraceFormat.AZURE) {
            long epochNanos;
            try {
                LocalDateTime t = LocalDateTime.parse(tsText, AZURE_TIME);
                epochNanos = t.toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + t.getNano();
            } catch (DateTimeParseException ex) {
                skip(field(0), "not a date-time like 2023-11-16 18:15:46.6805900: '" + tsText + "'");
                return null;
            }
            if (firstEpochNanos == Long.MIN_VALUE) {
                firstEpochNanos = epochNanos;
            }
            if (epochNanos < firstEpochNanos) {
                skip(field(0), "'" + tsText + "' is before the trace's first record (sort the file by timestamp)");
                return null;
            }
            arrival = epochNanos - firstEpochNanos;
        } else {
            Double s = parse(tsText, field(0));
            if (s == null || !positive(s, field(0), true)) {
                return null;
            }
            arrival = Math.round(s * 1e9);
        }
        Double in = parse(inText, field(1));
        Double out = in == null ? null : parse(outText, field(2));
        if (out == null || !tokens(in, field(1))) {
            return null;
        }
        if (format == TraceFormat.BURSTGPT && out == 0) {
            skip(field(2), "0 (a request that failed in the traced service: nothing to replay)");
            return null;
        }
        if (!tokens(out, field(2))) {
            return null;
        }
        return new TraceEntry(line, arrival, (int) Math.round(in), (int) Math.round(out), new long[0]);
    }

    private String field(int i) {
        return format.requiredFields().get(i);
    }

    private String cell(String[] row, int i) {
        int c = columns[i];
        if (c >= row.length || row[c].isBlank()) {
            skip(field(i), "missing (the row has " + row.length + " columns)");
            return null;
        }
        return row[c];
    }

    private Double parse(String text, String field) {
        try {
            double v = Double.parseDouble(text);
            if (!Double.isFinite(v)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException ex) {
            skip(field, "not a number: '" + text + "'");
            return null;
        }
    }

    private Double number(JsonNode v, String field) {
        if (v == null || v.isNull()) {
            skip(field, "missing");
            return null;
        }
        if (!v.isNumber()) {
            skip(field, "must be a number, was " + v);
            return null;
        }
        return v.asDouble();
    }

    private boolean positive(double v, String field, boolean zeroOk) {
        if (v < 0 || v == 0 && !zeroOk) {
            skip(field, "must be >= 0, was " + v);
            return false;
        }
        return true;
    }

    private boolean tokens(double v, String field) {
        if (v < 1 || v > Integer.MAX_VALUE) {
            skip(field, "a token count must be >= 1, was " + (v == Math.rint(v) ? Long.toString((long) v) : v));
            return false;
        }
        return true;
    }

    private void skip(String field, String why) {
        skipped++;
        if (samples.size() < SAMPLES) {
            samples.add(name + ": line " + line + (field == null ? "" : ": field '" + field + "'") + ": " + why);
        }
    }

    /** @return records skipped as malformed or out of order so far */
    public long skipped() {
        return skipped;
    }

    /** @return BurstGPT rows left out by the {@code Model} / {@code Log Type} filter so far */
    public long filtered() {
        return filtered;
    }

    /** @return the first {@value #SAMPLES} skip messages, each naming file, line and field; unmodifiable */
    public List<String> skipSamples() {
        return List.copyOf(samples);
    }

    /** @return the last line read, 1-based (0 before the first) */
    public long line() {
        return line;
    }

    /** @return the trace's file name as messages write it */
    public String fileName() {
        return name;
    }

    /** @return the trace file */
    public Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        if (lines != null) {
            lines.close();
        }
        if (rows != null) {
            rows.close();
        }
    }
}
