package org.latencylab.engine.telemetry;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Reads GPU telemetry from NVIDIA's {@code nvidia-smi}: runs {@value #QUERY} (documented in {@code nvidia-smi
 * --help-query-gpu}) and parses its CSV (Jackson's CSV reader; one row per GPU). Both forms are read: with the
 * header line ({@code --format=csv}, units in brackets after each column name and after each value) and without
 * ({@code csv,noheader,nounits}, columns in the query's order). Values {@code [N/A]} and {@code [Not Supported]}
 * become NaN. Thread-safe.
 */
public final class NvidiaSmi implements GpuSource {
    /** The query fields, in order. */
    public static final List<String> FIELDS = List.of("index", "name", "memory.used", "memory.total",
            "utilization.gpu", "power.draw", "clocks.sm");
    /** The arguments LatencyLab passes to {@code nvidia-smi}. */
    public static final String QUERY = "--query-gpu=" + String.join(",", FIELDS) + " --format=csv";

    private static final CsvMapper CSV = CsvMapper.builder().enable(CsvParser.Feature.TRIM_SPACES)
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES).build();

    private final Path executable;

    private NvidiaSmi(Path executable) {
        this.executable = executable;
    }

    /**
     * @param executable an {@code nvidia-smi} executable (tests use a script that answers like it)
     * @return a source that runs it
     */
    static NvidiaSmi at(Path executable) {
        return new NvidiaSmi(executable);
    }

    /**
     * @return {@code nvidia-smi} from the {@code PATH}, or empty when it is not installed (no NVIDIA driver)
     */
    public static Optional<NvidiaSmi> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            for (String n : List.of("nvidia-smi", "nvidia-smi.exe")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, n);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(new NvidiaSmi(p));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Runs {@code nvidia-smi} once (at most 5 s).
     *
     * @return one reading per GPU, time 0
     * @throws IOException when it cannot be run, fails or times out; the message says which
     */
    @Override
    public List<GpuReading> read() throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable.toString());
        cmd.addAll(List.of(QUERY.split(" ")));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("nvidia-smi did not answer within 5 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running nvidia-smi", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException("nvidia-smi exited with " + p.exitValue() + ": " + out.strip());
        }
        return parse(out);
    }

    @Override
    public String describe() {
        return "nvidia-smi (" + executable + ")";
    }

    /**
     * Parses {@code nvidia-smi --query-gpu=index,name,memory.used,memory.total,utilization.gpu,power.draw,clocks.sm}
     * output, with or without the header line and units.
     *
     * @param csv the command's standard output
     * @return one reading per GPU row, in order, time 0
     * @throws IllegalArgumentException when a row lacks a column or a number is malformed; the message names the
     *                                  row and column
     */
    public static List<GpuReading> parse(String csv) {
        String text = csv.strip();
        if (text.isEmpty()) {
            return List.of();
        }
        boolean header = text.lines().findFirst().orElse("").toLowerCase(Locale.ROOT).contains("memory.used");
        CsvSchema schema;
        if (header) {
            schema = CsvSchema.emptySchema().withHeader();
        } else {
            CsvSchema.Builder b = CsvSchema.builder();
            FIELDS.forEach(b::addColumn);
            schema = b.build();
        }
        List<GpuReading> out = new ArrayList<>();
        try (MappingIterator<Map<String, String>> rows = CSV.readerForMapOf(String.class).with(schema)
                .readValues(text)) {
            int row = 0;
            while (rows.hasNext()) {
                Map<String, String> raw = rows.next();
                row++;
                Map<String, String> r = new java.util.HashMap<>();
                raw.forEach((k, v) -> r.put(k.replaceAll("\\s*\\[.*]$", "").strip(), v));
                out.add(new GpuReading(0, (int) number(r, "index", row), text(r, "name", row),
                        number(r, "memory.used", row), number(r, "memory.total", row),
                        number(r, "utilization.gpu", row), number(r, "power.draw", row),
                        number(r, "clocks.sm", row)));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("nvidia-smi CSV is malformed: " + e.getMessage(), e);
        }
        return out;
    }

    private static String text(Map<String, String> r, String column, int row) {
        String v = r.get(column);
        if (v == null) {
            throw new IllegalArgumentException("nvidia-smi CSV row " + row + " has no column '" + column + "'");
        }
        return v.strip();
    }

    private static double number(Map<String, String> r, String column, int row) {
        String v = text(r, column, row);
        if (v.startsWith("[") || v.equalsIgnoreCase("N/A")) {
            return Double.NaN;
        }
        String n = v.replaceAll("\\s*(MiB|%|W|MHz)$", "");
        try {
            return Double.parseDouble(n);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("nvidia-smi CSV row " + row + " column '" + column
                    + "' is not a number: '" + v + "'", e);
        }
    }
}
