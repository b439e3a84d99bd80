package org.latencylab.app.ui.export;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.app.ui.results.ResultData;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.results.RunFiles;

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
            + "e2e_ms,tpot_ms,output_tokens";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DataExport() {
    }

    /**
     * One line per request; times in milliseconds with a dot as decimal separator; empty cells where a metric is
     * undefined (e.g. TTFT of a failed request).
     *
     * @param records the requests
     * @param out     CSV file (replaced)
     * @throws UncheckedIOException when the file cannot be written
     */
    public static void writeCsv(List<RequestRecord> records, Path out) {
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER);
            w.write('\n');
            for (RequestRecord r : records) {
                w.write(String.join(",", Long.toString(r.id()), csv(r.label()), Integer.toString(r.contextTokens()),
                        r.outcome().toString().toLowerCase(Locale.ROOT),
                        r.errorKind() == null ? "" : r.errorKind().id(), Integer.toString(r.httpStatus()),
                        ms(r.ttfbNanos()), ms(r.ttftNanos()), ms(r.e2eNanos()), ms(r.tpotNanos()),
                        Integer.toString(r.outputTokens())));
                w.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /**
     * The summary (the engine's {@code run.json} summary form), sweep points and fit as JSON.
     *
     * @param title run title
     * @param data  computed results
     * @param out   JSON file (replaced)
     * @throws UncheckedIOException when the file cannot be written
     */
    public static void writeJson(String title, ResultData data, Path out) {
        ObjectNode o = JSON.createObjectNode();
        o.put("title", title);
        o.put("requests", data.records());
        o.set("summary", RunFiles.summary(data.report()));
        ArrayNode pts = o.putArray("sweep_points");
        for (ResultData.SweepPoint p : data.sweepPoints()) {
            ObjectNode n = pts.addObject();
            n.put("context_tokens", p.contextTokens());
            n.put("succeeded", p.succeeded());
            n.put("p50_ttft_ms", p.p50Ms());
            n.put("p50_lower_ms", p.p50LowerMs());
            n.put("p50_upper_ms", p.p50UpperMs());
            n.put("p95_ttft_ms", p.p95Ms());
        }
        if (data.fit() != null) {
            ObjectNode f = o.putObject("fit_p50_ttft_ms");
            f.put("a", data.fit().a());
            f.put("alpha", data.fit().alpha());
            f.put("alpha_lower", data.fit().alphaLower());
            f.put("alpha_upper", data.fit().alphaUpper());
            f.put("r_squared", data.fit().rSquared());
        }
        try {
            JSON.writeValue(out.toFile(), o);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    private static String csv(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
