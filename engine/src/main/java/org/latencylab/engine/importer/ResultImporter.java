package org.latencylab.engine.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a result file of another tool into an {@link ImportedRun}. Stateless and thread-safe.
 *
 * <p>Field sources (read from each tool's code and documentation, 2025–2026):
 * <ul>
 *   <li>vLLM ({@code vllm/benchmarks/serve.py}, {@code --save-detailed}): {@code ttfts[i]} (s),
 *       {@code itls[i][]} (s, one gap per chunk), {@code input_lens[i]}, {@code output_lens[i]}, {@code errors[i]}
 *       (empty when the request succeeded), plus {@code model_id}, {@code date}, {@code duration}. No per-request
 *       start or end time is stored: every request starts at 0 and its end is TTFT + Σ ITL (exactly vLLM's own
 *       latency, which ends at the last chunk).</li>
 *   <li>GuideLLM ({@code guidellm/schemas/request_stats.py}): {@code benchmarks[].requests.successful|errored|
 *       incomplete[]} with {@code request_start_time}, {@code request_end_time} (epoch s),
 *       {@code time_to_first_token_ms}, {@code prompt_tokens}, {@code output_tokens} and {@code info.timings}
 *       ({@code first_token_iteration}, {@code last_token_iteration}, {@code token_iterations}). Only the first
 *       and last token times are stored, so events in between are spread evenly, as GuideLLM itself does.</li>
 *   <li>AIPerf ({@code docs/tutorials/working-with-profile-exports.md}): one JSON object per line with
 *       {@code metadata.request_start_ns}/{@code request_end_ns} (epoch ns), {@code metadata.was_cancelled},
 *       {@code metrics.NAME = {value, unit}} ({@code time_to_first_token}, {@code request_latency},
 *       {@code inter_chunk_latency} (list), {@code output_sequence_length}, {@code input_sequence_length}) and
 *       {@code error = {code, type, message}}.</li>
 * </ul>
 */
public final class ResultImporter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultImporter() {
    }

    /**
     * @param file a result file
     * @param tool the tool that wrote it, or null to detect it ({@link SourceTool#detect})
     * @return the imported run
     * @throws IllegalArgumentException when the file is malformed; the message names the file and the field
     * @throws UncheckedIOException     when it cannot be read
     */
    public static ImportedRun read(Path file, SourceTool tool) {
        SourceTool t = tool == null ? SourceTool.detect(file) : tool;
        try {
            return switch (t) {
                case VLLM_BENCH -> vllm(file, JSON.readTree(Files.readAllBytes(file)));
                case GUIDELLM -> guidellm(file, JSON.readTree(Files.readAllBytes(file)));
                case AIPERF -> aiperf(file, Files.readAllLines(file));
            };
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw notJson(file, e);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    // ---- vLLM ---------------------------------------------------------------------------------------------

    private static ImportedRun vllm(Path file, JsonNode n) {
        JsonNode ttfts = array(file, n, "ttfts");
        JsonNode itls = array(file, n, "itls");
        JsonNode outs = array(file, n, "output_lens");
        JsonNode ins = n.path("input_lens");
        JsonNode errors = n.path("errors");
        int count = ttfts.size();
        if (itls.size() != count || outs.size() != count) {
            throw new IllegalArgumentException(file + ": fields 'ttfts', 'itls' and 'output_lens' must have one entry"
                    + " per request, had " + count + ", " + itls.size() + " and " + outs.size());
        }
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String err = errors.path(i).isTextual() ? errors.get(i).asText() : "";
            RequestRecord.Builder b = base(i, "import", ins.path(i).asInt(-1));
            b.sendNanos = 0;
            b.intendedStartNanos = 0;
            if (!err.isBlank()) {
                b.error(classify(err), firstLine(err));
                b.outputTokens = 0;
                records.add(b.build());
                continue;
            }
            double ttftS = number(file, ttfts.get(i), "ttfts[" + i + "]");
            JsonNode gaps = itls.get(i);
            if (!gaps.isArray()) {
                throw new IllegalArgumentException(file + ": field 'itls[" + i + "]' must be a list of seconds");
            }
            long[] arrivals = new long[gaps.size() + 1];
            arrivals[0] = seconds(ttftS);
            for (int k = 0; k < gaps.size(); k++) {
                arrivals[k + 1] = arrivals[k] + seconds(number(file, gaps.get(k), "itls[" + i + "][" + k + "]"));
            }
            int tokens = outs.get(i).asInt();
            b.firstTokenNanos = arrivals[0];
            b.firstContentNanos = arrivals[0];
            b.endNanos = arrivals[arrivals.length - 1];
            b.tokens = new TokenTimeline(arrivals, spread(tokens, arrivals.length), null);
            b.outputTokens = tokens;
            b.outputTokenSource = TokenSource.SERVER;
            records.add(b.build());
        }
        Instant started = null;
        String date = n.path("date").asText("");
        if (date.matches("\\d{8}-\\d{6}")) {
            started = java.time.LocalDateTime.parse(date, java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                    .atZone(java.time.ZoneId.systemDefault()).toInstant();
        }
        return new ImportedRun(SourceTool.VLLM_BENCH, file.getFileName().toString(),
                n.path("label").isTextual() && !n.get("label").asText().isBlank() ? n.get("label").asText()
                        : name(SourceTool.VLLM_BENCH, file),
                n.path("model_id").asText(""), n.path("base_url").asText(""), started, records,
                List.of("ttfb", "time_to_first_content", "dispatch_lag", "requests_per_s"),
                List.of("TTFT, ITL and E2E follow vLLM's definitions: the TTFT clock stops at the first chunk with"
                                + " choices (a role-only chunk counts), ITL is one value per chunk, E2E ends at the"
                                + " last chunk (TTFT + sum of ITLs).",
                        "vLLM stores no per-request start time: every request starts at 0, so rates are not"
                                + " known; the tool's own request_throughput was "
                                + n.path("request_throughput").asText("not stored") + " req/s.",
                        "Output tokens per chunk are spread evenly over the chunks (vLLM stores only the total)."));
    }

    // ---- GuideLLM ------------------------------------------------------------------------------------------

    private static ImportedRun guidellm(Path file, JsonNode n) {
        JsonNode benchmarks = array(file, n, "benchmarks");
        record Raw(String label, JsonNode req, Outcome outcome, String field) {
        }
        List<Raw> raws = new ArrayList<>();
        double base = Double.MAX_VALUE;
        for (int bi = 0; bi < benchmarks.size(); bi++) {
            JsonNode reqs = benchmarks.get(bi).path("requests");
            String label = benchmarks.size() == 1 ? "import" : "import/b" + bi;
            for (String status : List.of("successful", "errored", "incomplete")) {
                JsonNode list = reqs.path(status);
                for (int k = 0; k < list.size(); k++) {
                    JsonNode r = list.get(k);
                    String field = "benchmarks[" + bi + "].requests." + status + "[" + k + "]";
                    Outcome o = status.equals("successful") ? Outcome.SUCCESS
                            : status.equals("errored") ? Outcome.ERROR : Outcome.CANCELLED;
                    raws.add(new Raw(label, r, o, field));
                    double start = startSeconds(r);
                    if (!Double.isNaN(start)) {
                        base = Math.min(base, start);
                    }
                }
            }
        }
        if (raws.isEmpty()) {
            throw new IllegalArgumentException(file + ": field 'benchmarks[].requests' holds no request");
        }
        List<RequestRecord> records = new ArrayList<>();
        long id = 0;
        for (Raw raw : raws) {
            JsonNode r = raw.req();
            JsonNode timings = r.path("info").path("timings");
            double start = startSeconds(r);
            if (Double.isNaN(start)) {
                throw new IllegalArgumentException(file + ": field '" + raw.field()
                        + ".request_start_time' (or info.timings.request_start) is missing");
            }
            RequestRecord.Builder b = base(id++, raw.label(), r.path("prompt_tokens").asInt(-1));
            b.sendNanos = seconds(start - base);
            b.intendedStartNanos = b.sendNanos;
            double end = r.path("request_end_time").asDouble(timings.path("request_end").asDouble(Double.NaN));
            if (!Double.isNaN(end)) {
                b.endNanos = seconds(end - base);
            }
            int tokens = r.path("output_tokens").asInt(0);
            if (raw.outcome() == Outcome.ERROR) {
                String msg = r.path("info").path("error").asText(r.path("error").asText("errored request"));
                b.error(classify(msg), firstLine(msg));
            } else if (raw.outcome() == Outcome.CANCELLED) {
                b.outcome = Outcome.CANCELLED;
            } else {
                double first = timings.path("first_token_iteration").asDouble(Double.NaN);
                if (Double.isNaN(first) && r.hasNonNull("time_to_first_token_ms")) {
                    first = start + r.get("time_to_first_token_ms").asDouble() / 1000;
                }
                double last = timings.path("last_token_iteration").asDouble(Double.NaN);
                if (Double.isNaN(last) && r.hasNonNull("inter_token_latency_ms") && !Double.isNaN(first)) {
                    last = first + r.get("inter_token_latency_ms").asDouble() / 1000 * Math.max(0, tokens - 1);
                }
                if (Double.isNaN(first)) {
                    throw new IllegalArgumentException(file + ": field '" + raw.field()
                            + ".time_to_first_token_ms' (or info.timings.first_token_iteration) is missing");
                }
                if (Double.isNaN(last)) {
                    last = first;
                }
                int iterations = timings.path("token_iterations").asInt(Math.max(1, tokens));
                iterations = Math.max(1, iterations);
                long f = seconds(first - base);
                long l = seconds(last - base);
                long[] arrivals = new long[iterations];
                for (int k = 0; k < iterations; k++) {
                    arrivals[k] = iterations == 1 ? f : f + (l - f) * k / (iterations - 1);
                }
                b.firstTokenNanos = f;
                b.firstContentNanos = f;
                b.tokens = new TokenTimeline(arrivals, spread(tokens, iterations), null);
                if (b.endNanos == RequestRecord.UNSET) {
                    b.endNanos = l;
                }
                b.outputTokens = tokens;
                b.outputTokenSource = TokenSource.SERVER;
            }
            records.add(b.build());
        }
        JsonNode args = n.path("args");
        return new ImportedRun(SourceTool.GUIDELLM, file.getFileName().toString(), name(SourceTool.GUIDELLM, file),
                args.path("model").asText(""), args.path("target").asText(""),
                Instant.ofEpochMilli(Math.round(base * 1000)), records,
                List.of("ttfb", "time_to_first_content", "dispatch_lag"),
                List.of("TTFT follows GuideLLM: the first streamed iteration that carried tokens.",
                        "GuideLLM stores only the first and last token times of a request: the events in between"
                                + " are spread evenly between them (as GuideLLM does itself), so per-event ITL is"
                                + " interpolated; its mean per request is exact."));
    }

    private static double startSeconds(JsonNode r) {
        if (r.hasNonNull("request_start_time")) {
            return r.get("request_start_time").asDouble();
        }
        JsonNode t = r.path("info").path("timings").path("request_start");
        return t.isNumber() ? t.asDouble() : Double.NaN;
    }

    // ---- AIPerf --------------------------------------------------------------------------------------------

    private static ImportedRun aiperf(Path file, List<String> lines) {
        List<JsonNode> nodes = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                nodes.add(JSON.readTree(lines.get(i)));
            } catch (IOException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": not JSON: "
                        + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                        ? jsonProblem(j) : e.getMessage()), e);
            }
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException(file + ": no request lines");
        }
        long base = Long.MAX_VALUE;
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode s = nodes.get(i).path("metadata").path("request_start_ns");
            if (!s.isNumber()) {
                throw new IllegalArgumentException(file + ":" + lineOf(lines, i) + ": field 'metadata.request_start_ns'"
                        + " is missing");
            }
            base = Math.min(base, s.asLong());
        }
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode n = nodes.get(i);
            JsonNode md = n.path("metadata");
            JsonNode m = n.path("metrics");
            String where = file + ":" + lineOf(lines, i);
            RequestRecord.Builder b = base(md.path("session_num").asLong(i), "import",
                    (int) metric(where, m, "input_sequence_length", -1));
            b.sendNanos = md.get("request_start_ns").asLong() - base;
            b.intendedStartNanos = b.sendNanos;
            if (md.path("request_end_ns").isNumber()) {
                b.endNanos = md.get("request_end_ns").asLong() - base;
            }
            JsonNode err = n.path("error");
            if (md.path("was_cancelled").asBoolean(false)) {
                b.outcome = Outcome.CANCELLED;
            } else if (err.isObject()) {
                String msg = err.path("type").asText("") + ": " + err.path("message").asText("");
                b.httpStatus = err.path("code").asInt(0);
                b.error(b.httpStatus == 429 ? ErrorKind.RATE_LIMITED : classify(msg), msg);
            } else {
                double ttft = metric(where, m, "time_to_first_token", Double.NaN);
                double latency = metric(where, m, "request_latency", Double.NaN);
                if (Double.isNaN(ttft) || Double.isNaN(latency)) {
                    throw new IllegalArgumentException(where + ": field 'metrics.time_to_first_token' and"
                            + " 'metrics.request_latency' are needed for a successful request");
                }
                int tokens = (int) metric(where, m, "output_sequence_length",
                        metric(where, m, "output_token_count", 0));
                List<Long> arrivals = new ArrayList<>();
                long t = b.sendNanos + Math.round(ttft * 1e6);
                arrivals.add(t);
                JsonNode icl = m.path("inter_chunk_latency");
                double scale = unitToNanos(icl.path("unit").asText("ms"), where);
                for (JsonNode g : icl.path("value")) {
                    t += Math.round(g.asDouble() * scale);
                    arrivals.add(t);
                }
                long[] arr = arrivals.stream().mapToLong(Long::longValue).toArray();
                b.firstTokenNanos = arr[0];
                b.firstContentNanos = arr[0];
                b.endNanos = b.sendNanos + Math.round(latency * 1e6);
                b.tokens = new TokenTimeline(arr, spread(tokens, arr.length), null);
                b.outputTokens = tokens;
                b.outputTokenSource = TokenSource.SERVER;
            }
            records.add(b.build());
        }
        return new ImportedRun(SourceTool.AIPERF, file.getFileName().toString(), name(SourceTool.AIPERF, file), "", "",
                Instant.ofEpochMilli(base / 1_000_000), records,
                List.of("ttfb", "time_to_first_content", "dispatch_lag"),
                List.of("TTFT follows AIPerf: the first response with content (role-only responses do not count).",
                        "Token events are AIPerf's content chunks (inter_chunk_latency); output tokens are spread"
                                + " evenly over them."));
    }

    /** @return a metric's value converted to milliseconds, or {@code dflt} when absent */
    private static double metric(String where, JsonNode metrics, String name, double dflt) {
        JsonNode m = metrics.path(name);
        if (!m.isObject() || !m.path("value").isNumber()) {
            return dflt;
        }
        String unit = m.path("unit").asText("ms");
        if (unit.equals("tokens")) {
            return m.get("value").asDouble();
        }
        return m.get("value").asDouble() * unitToNanos(unit, where) / 1e6;
    }

    private static double unitToNanos(String unit, String where) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s", "sec" -> 1e9;
            case "tokens" -> 1;
            default -> throw new IllegalArgumentException(where + ": unit '" + unit + "' is not a time unit");
        };
    }

    private static int lineOf(List<String> lines, int nonBlankIndex) {
        int seen = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).isBlank() && ++seen == nonBlankIndex) {
                return i + 1;
            }
        }
        return nonBlankIndex + 1;
    }

    // ---- shared --------------------------------------------------------------------------------------------

    private static RequestRecord.Builder base(long id, String label, int inputTokens) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.label = label;
        b.protocol = Protocol.OPENAI_CHAT;
        b.stream = true;
        b.attempts = 1;
        b.inputTokens = inputTokens;
        b.contextTokens = inputTokens;
        return b;
    }

    private static JsonNode array(Path file, JsonNode n, String field) {
        JsonNode a = n == null ? null : n.get(field);
        if (a == null || !a.isArray()) {
            throw new IllegalArgumentException(file + ": field '" + field + "' must be a list");
        }
        return a;
    }

    private static double number(Path file, JsonNode v, String field) {
        if (v == null || !v.isNumber() || v.asDouble() < 0) {
            throw new IllegalArgumentException(file + ": field '" + field + "' must be a number >= 0, was " + v);
        }
        return v.asDouble();
    }

    private static long seconds(double s) {
        return Math.round(s * 1e9);
    }

    /** Spreads {@code tokens} over {@code events} events, at least 1 each, earlier events taking the remainder. */
    static int[] spread(int tokens, int events) {
        int[] out = new int[events];
        int baseCount = Math.max(1, tokens / Math.max(1, events));
        int rest = Math.max(0, tokens - baseCount * events);
        for (int i = 0; i < events; i++) {
            out[i] = baseCount + (i < rest ? 1 : 0);
        }
        return out;
    }

    /** Maps another tool's error text to the nearest LatencyLab error kind. */
    static ErrorKind classify(String message) {
        String m = message.toLowerCase(Locale.ROOT);
        if (m.contains("429") || m.contains("rate limit") || m.contains("too many requests")) {
            return ErrorKind.RATE_LIMITED;
        }
        if (m.contains("timeout") || m.contains("timed out")) {
            return ErrorKind.TIMEOUT;
        }
        if (m.contains("connect") || m.contains("refused") || m.contains("reset")) {
            return ErrorKind.CONNECTION;
        }
        if (m.matches("(?s).*\\b[45]\\d\\d\\b.*") || m.contains("status")) {
            return ErrorKind.HTTP_STATUS;
        }
        return ErrorKind.STREAM_ERROR;
    }

    private static String firstLine(String s) {
        String t = s.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }

    /** The file's name without extension, prefixed with the tool's id unless it already starts with it. */
    private static String name(SourceTool tool, Path file) {
        String stem = stem(file);
        String prefix = tool.id().replace("-bench", "");
        return stem.toLowerCase(Locale.ROOT).startsWith(prefix) ? stem : tool.id() + "-" + stem;
    }

    private static String stem(Path file) {
        String n = file.getFileName().toString();
        int dot = n.indexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /**
     * @param file the file being read
     * @param e    its JSON parse failure
     * @return "FILE: not JSON at line L, column C: " and {@link #jsonProblem}, for the command line (exit status 2)
     */
    static IllegalArgumentException notJson(Path file, com.fasterxml.jackson.core.JsonProcessingException e) {
        return new IllegalArgumentException(file + ": not JSON"
                + (e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr()) + ": " + jsonProblem(e), e);
    }

    /**
     * @param e a JSON parse failure
     * @return Jackson's own words for it, with a nested location ("start marker at [Source: REDACTED (...); line: 1,
     * column: 1]") written as "line 1, column 1"
     */
    static String jsonProblem(com.fasterxml.jackson.core.JsonProcessingException e) {
        return String.valueOf(e.getOriginalMessage())
                .replaceAll("\\[Source: [^\\]]*?line: (\\d+), column: (\\d+)\\]", "line $1, column $2");
    }
}
