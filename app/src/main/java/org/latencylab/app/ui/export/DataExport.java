package org.latencylab.app.ui.export;

import org.latencylab.engine.results.RunLayout;
import org.latencylab.engine.csv.CsvWriter;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.run.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Writes result data to files. Blocking (disk): call off the UI thread. Stateless and thread-safe.
 */
public final class DataExport {
    /** CSV header of {@link #writeCsv}. */
    public static final String CSV_HEADER = "id,label,context_tokens,outcome,error_kind,http_status,ttfb_ms,ttft_ms,"
            + "e2e_ms,tpot_ms,output_tokens,phase";

    private DataExport() {
    }

    /**
     * One line per request; times in milliseconds with a dot as decimal separator; empty cells where a metric is
     * undefined (e.g. TTFT of a failed request).
     *
     * @param runDirectory the run directory whose {@code requests.jsonl} is streamed (one request in memory at a
     *                     time)
     * @param out          CSV file (replaced)
     * @throws UncheckedIOException     when a file cannot be read or written
     * @throws IllegalArgumentException when a request line is malformed
     */
    public static void writeCsv(Path runDirectory, Path out) {
        try (Writer file = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            CsvWriter w = CsvWriter.to(file, CsvWriter.LineEnd.LF);
            w.row(List.of(CSV_HEADER.split(",")));
            RequestLog.forEach(runDirectory.resolve(RunLayout.REQUESTS_JSONL), r -> {
              try {
                w.row(r.id(), r.label(), r.contextTokens(), r.outcome().toString().toLowerCase(Locale.ROOT),
                        r.errorKind() == null ? "" : r.errorKind().id(), r.httpStatus(), ms(r.ttfbNanos()),
                        ms(r.ttftNanos()), ms(r.e2eNanos()), ms(r.tpotNanos()), r.outputTokens(), r.phase().id());
              } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
              }
            });
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /**
     * The engine's result model in the form of {@code run.json} (one writer for both: {@code RunFiles}).
     *
     * @param result the run shown
     * @param out    JSON file (replaced)
     * @throws UncheckedIOException when the file cannot be written
     */
    public static void writeJson(RunResult result, Path out) {
        try {
            RunFiles.mapper().writeValue(out.toFile(), RunFiles.finished(result));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "" : String.format(Locale.ROOT, "%.3f", org.latencylab.engine.api.Nanos.toMillis(nanos));
    }
}
