package org.latencylab.engine.results;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Converts a {@link RequestRecord} to the one-line JSON object of {@code requests.jsonl} and back.
 *
 * <p>Line fields (absent when the event did not happen):
 * {@code id, label, step (the run step, e.g. "sweep" for label "sweep-2048"), phase (warmup | measured | cooldown),
 * protocol, context_tokens, stream, outcome, error_kind, error_message, http_status, attempts,
 * rate_limited_attempts, input_tokens, output_tokens, output_token_source, output_chars, reasoning_chars}
 * ({@code *_chars} in UTF-16 code units, {@link String#length()}); metrics in milliseconds: {@code ttfb_ms, first_byte_ms, ttft_ms, first_content_ms, e2e_ms, tpot_ms,
 * dispatch_lag_ms, ttft_from_intended_ms, e2e_from_intended_ms, connect_ms, cap_wait_ms} (connect only when a new
 * connection was opened and completed; {@code cap_wait_ms}, the part of the dispatch lag spent waiting at the load
 * step's {@code maxInFlight} or {@code maxRateRps} cap, only when it waited there); {@code server_timings_ms} (what the server said
 * about itself); {@code stream_honoured: false} when a streaming request was answered with one complete body;
 * {@code trace_id}, {@code span_id} (the W3C {@code traceparent} ids the request carried, when tracing was on);
 * {@code resend} (a {@link Resend} id) and {@code resend_wasted_ms} when the request was sent once more on a new
 * connection after its pooled one failed before any response byte ({@code t.first_send} is then the first attempt's
 * send and {@code t.send} the re-send's, from which TTFT and E2E count); {@code t}: raw timestamps in nanoseconds relative to the run start ({@code intended, send, dns_start,
 * dns_end, connect_start, connect_end, tls_start, tls_end, request_sent, headers, first_byte, first_chunk, first_token,
 * first_content, end}); {@code events}: {@code [[arrival_ns, tokens, server_stamp_ns?, answer_chars?], ...]} relative to the run
 * start ({@code server_stamp_ns} is null when the event has answer characters but no stamp). Reading a line back gives a record whose timestamps are relative to the run start (origin 0).
 *
 * <p>Thread-safe: stateless apart from a shared, thread-safe {@link ObjectMapper}.
 */
public final class RequestJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RequestJson() {
    }

    /**
     * Writes the record as one JSON object (no line end) with a streaming generator: no tree and no intermediate
     * string, since this runs once per finished request while requests are being timed.
     *
     * @param g           the generator; the object is written at its current position
     * @param r           the record
     * @param originNanos {@link System#nanoTime()} of the run start; timestamps are written relative to it
     * @throws IOException when the generator's target fails
     */
    public static void write(JsonGenerator g, RequestRecord r, long originNanos) throws IOException {
        g.writeStartObject();
        g.writeNumberField("id", r.id());
        g.writeStringField("label", r.label());
        if (!r.step().isEmpty()) {
            g.writeStringField("step", r.step());
        }
        g.writeStringField("phase", r.phase().id());
        g.writeStringField("protocol", r.protocol().id());
        if (r.contextTokens() >= 0) {
            g.writeNumberField("context_tokens", r.contextTokens());
        }
        g.writeBooleanField("stream", r.stream());
        g.writeStringField("outcome", r.outcome().id());
        if (r.errorKind() != null) {
            g.writeStringField("error_kind", r.errorKind().id());
        }
        if (r.errorMessage() != null) {
            g.writeStringField("error_message", r.errorMessage());
        }
        g.writeNumberField("http_status", r.httpStatus());
        g.writeNumberField("attempts", r.attempts());
        g.writeNumberField("rate_limited_attempts", r.rateLimitedAttempts());
        if (r.inputTokens() >= 0) {
            g.writeNumberField("input_tokens", r.inputTokens());
        }
        g.writeNumberField("output_tokens", r.outputTokens());
        g.writeStringField("output_token_source", r.outputTokenSource().id());
        g.writeNumberField("output_chars", r.outputText().length());
        g.writeNumberField("reasoning_chars", r.reasoningText().length());
        ms(g, "ttfb_ms", r.ttfbNanos());
        ms(g, "first_byte_ms", r.timeToFirstByteOfBodyNanos());
        ms(g, "ttft_ms", r.ttftNanos());
        ms(g, "first_content_ms", r.timeToFirstContentNanos());
        ms(g, "e2e_ms", r.e2eNanos());
        ms(g, "tpot_ms", r.tpotNanos());
        ms(g, "dispatch_lag_ms", r.dispatchLagNanos());
        ms(g, "ttft_from_intended_ms", r.ttftFromIntendedNanos());
        ms(g, "e2e_from_intended_ms", r.e2eFromIntendedNanos());
        ms(g, "connect_ms", r.connectStartNanos() == RequestRecord.UNSET || r.connectEndNanos() == RequestRecord.UNSET
                ? -1 : r.connectNanos());
        if (r.capWaitNanos() > 0) {
            ms(g, "cap_wait_ms", r.capWaitNanos());
        }
        if (!r.streamHonoured()) {
            g.writeBooleanField("stream_honoured", false);
        }
        if (!r.traceId().isEmpty()) {
            g.writeStringField("trace_id", r.traceId());
            g.writeStringField("span_id", r.spanId());
        }
        if (r.resent()) {
            g.writeStringField("resend", r.resend().id());
            ms(g, "resend_wasted_ms", r.resendWastedNanos());
        }
        if (!r.serverTimingsMs().isEmpty()) {
            g.writeObjectFieldStart("server_timings_ms");
            for (Map.Entry<String, Double> e : r.serverTimingsMs().entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        }
        g.writeObjectFieldStart("t");
        rel(g, "intended", r.intendedStartNanos(), originNanos);
        if (r.resent()) {
            rel(g, "first_send", r.firstSendNanos(), originNanos);
        }
        rel(g, "send", r.sendNanos(), originNanos);
        rel(g, "dns_start", r.dnsStartNanos(), originNanos);
        rel(g, "dns_end", r.dnsEndNanos(), originNanos);
        rel(g, "connect_start", r.connectStartNanos(), originNanos);
        rel(g, "connect_end", r.connectEndNanos(), originNanos);
        rel(g, "tls_start", r.tlsStartNanos(), originNanos);
        rel(g, "tls_end", r.tlsEndNanos(), originNanos);
        rel(g, "request_sent", r.requestSentNanos(), originNanos);
        rel(g, "headers", r.responseHeadersNanos(), originNanos);
        rel(g, "first_byte", r.firstByteNanos(), originNanos);
        rel(g, "first_chunk", r.firstChunkNanos(), originNanos);
        rel(g, "first_token", r.firstTokenNanos(), originNanos);
        rel(g, "first_content", r.firstContentNanos(), originNanos);
        rel(g, "end", r.endNanos(), originNanos);
        g.writeEndObject();
        TokenTimeline tl = r.tokens();
        g.writeArrayFieldStart("events");
        for (int i = 0; i < tl.size(); i++) {
            g.writeStartArray();
            g.writeNumber(tl.arrivalNanos(i) - originNanos);
            g.writeNumber(tl.tokens(i));
            boolean stamped = tl.serverStampNanos(i) != RequestRecord.UNSET;
            if (stamped) {
                g.writeNumber(tl.serverStampNanos(i) - originNanos);
            }
            if (tl.hasAnswerChars()) {
                if (!stamped) {
                    g.writeNull();
                }
                g.writeNumber(tl.answerChars(i));
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * The record as a JSON tree, as {@link #write} writes it (for callers that edit or inspect a line; slower).
     *
     * @param r           the record
     * @param originNanos {@link System#nanoTime()} of the run start; timestamps are written relative to it
     * @return the JSON object
     */
    public static ObjectNode toJson(RequestRecord r, long originNanos) {
        try (TokenBuffer buffer = new TokenBuffer(MAPPER, false)) {
            write(buffer, r, originNanos);
            return MAPPER.readTree(buffer.asParser());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // an in-memory buffer does not fail
        }
    }

    /**
     * Reads a line back. Output and reasoning text are not stored in the log; the record gets empty text.
     *
     * @param o a JSON object written by {@link #toJson}
     * @return the record, timestamps relative to the run start
     * @throws IllegalArgumentException when a required field is missing or malformed
     */
    public static RequestRecord fromJson(JsonNode o) {
        try {
            RequestRecord.Builder b = RequestRecord.builder();
            b.id = o.path("id").asLong();
            b.label = o.path("label").asText("");
            b.step = o.path("step").asText("");
            if (o.hasNonNull("phase")) {
                b.phase = Phase.fromId(o.get("phase").asText());
            } else {
                legacyPhase(b); // format 1 lines: the phase was a label suffix
            }
            b.protocol = Protocol.fromId(o.path("protocol").asText());
            b.contextTokens = o.path("context_tokens").asInt(-1);
            b.stream = o.path("stream").asBoolean(true);
            String outcome = o.path("outcome").asText();
            b.outcome = switch (outcome) {
                case "success" -> Outcome.SUCCESS;
                case "error" -> Outcome.ERROR;
                case "cancelled" -> Outcome.CANCELLED;
                default -> throw new IllegalArgumentException("field 'outcome' must be success|error|cancelled, was '"
                        + outcome + "'");
            };
            if (o.hasNonNull("error_kind")) {
                b.errorKind = ErrorKind.fromId(o.get("error_kind").asText());
            }
            b.errorMessage = o.hasNonNull("error_message") ? o.get("error_message").asText() : null;
            b.httpStatus = o.path("http_status").asInt();
            b.attempts = o.path("attempts").asInt();
            b.rateLimitedAttempts = o.path("rate_limited_attempts").asInt();
            b.inputTokens = o.path("input_tokens").asInt(-1);
            b.outputTokens = o.path("output_tokens").asInt();
            String src = o.path("output_token_source").asText("none");
            b.outputTokenSource = switch (src) {
                case "server" -> TokenSource.SERVER;
                case "tokenizer" -> TokenSource.TOKENIZER;
                default -> TokenSource.NONE;
            };
            JsonNode t = o.path("t");
            b.intendedStartNanos = abs(t, "intended");
            b.sendNanos = abs(t, "send");
            b.dnsStartNanos = abs(t, "dns_start");
            b.dnsEndNanos = abs(t, "dns_end");
            b.connectStartNanos = abs(t, "connect_start");
            b.connectEndNanos = abs(t, "connect_end");
            b.tlsStartNanos = abs(t, "tls_start");
            b.tlsEndNanos = abs(t, "tls_end");
            b.requestSentNanos = abs(t, "request_sent");
            b.responseHeadersNanos = abs(t, "headers");
            b.firstByteNanos = abs(t, "first_byte");
            b.firstChunkNanos = abs(t, "first_chunk");
            b.firstTokenNanos = abs(t, "first_token");
            b.firstContentNanos = abs(t, "first_content");
            b.endNanos = abs(t, "end");
            JsonNode ev = o.path("events");
            int n = ev.size();
            long[] arr = new long[n];
            int[] tok = new int[n];
            long[] st = new long[n];
            int[] chars = new int[n];
            boolean withChars = n > 0;
            for (int i = 0; i < n; i++) {
                JsonNode e = ev.get(i);
                arr[i] = e.get(0).asLong();
                tok[i] = e.get(1).asInt();
                st[i] = e.size() > 2 && !e.get(2).isNull() ? e.get(2).asLong() : RequestRecord.UNSET;
                withChars &= e.size() > 3;
                chars[i] = e.size() > 3 ? e.get(3).asInt() : -1;
            }
            b.tokens = new TokenTimeline(arr, tok, st, withChars ? chars : null);
            if (o.has("server_timings_ms")) {
                Map<String, Double> m = new HashMap<>();
                Iterator<Map.Entry<String, JsonNode>> it = o.get("server_timings_ms").fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    m.put(e.getKey(), e.getValue().asDouble());
                }
                b.serverTimingsMs = m;
            }
            b.streamHonoured = o.path("stream_honoured").asBoolean(true);
            b.traceId = o.path("trace_id").asText("");
            b.spanId = o.path("span_id").asText("");
            b.capWaitNanos = Math.round(o.path("cap_wait_ms").asDouble(0) * 1e6);
            b.resend = Resend.fromId(o.path("resend").asText(""));
            long firstSend = abs(t, "first_send");
            if (b.resend != Resend.NONE && firstSend != RequestRecord.UNSET && b.sendNanos != RequestRecord.UNSET) {
                b.resendWastedNanos = b.sendNanos - firstSend;
            }
            return b.build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad request line (id " + o.path("id").asText("?") + "): "
                    + e.getMessage(), e);
        }
    }

    /** Format 1 wrote warmup / cooldown as label suffixes {@code #warmup} / {@code #cooldown}. */
    private static void legacyPhase(RequestRecord.Builder b) {
        for (Phase p : new Phase[]{Phase.WARMUP, Phase.COOLDOWN}) {
            String suffix = "#" + p.id();
            if (b.label.endsWith(suffix)) {
                b.label = b.label.substring(0, b.label.length() - suffix.length());
                b.phase = p;
            }
        }
    }

    private static void ms(JsonGenerator g, String field, long nanos) throws IOException {
        if (nanos >= 0) {
            g.writeNumberField(field, Math.round(nanos / 1_000.0) / 1_000.0);
        }
    }

    private static void rel(JsonGenerator g, String field, long nanos, long origin) throws IOException {
        if (nanos != RequestRecord.UNSET) {
            g.writeNumberField(field, nanos - origin);
        }
    }

    private static long abs(JsonNode t, String field) {
        return t.has(field) ? t.get(field).asLong() : RequestRecord.UNSET;
    }
}
