package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Converts a {@link RequestRecord} to the one-line JSON object of {@code requests.jsonl} and back.
 *
 * <p>Line fields (absent when the event did not happen):
 * {@code id, label, step (the run step, e.g. "sweep" for label "sweep-2048"), phase (warmup | measured | cooldown),
 * protocol, context_tokens, stream, outcome, error_kind, error_message, http_status, attempts,
 * rate_limited_attempts, input_tokens, output_tokens, output_token_source, output_chars, reasoning_chars};
 * metrics in milliseconds: {@code ttfb_ms, first_byte_ms, ttft_ms, first_content_ms, e2e_ms, tpot_ms,
 * dispatch_lag_ms, ttft_from_intended_ms, e2e_from_intended_ms, connect_ms} (connect only when a new connection
 * was opened and completed); {@code server_timings_ms} (what the server said
 * about itself); {@code stream_honoured: false} when a streaming request was answered with one complete body; {@code t}: raw timestamps in nanoseconds relative to the run start ({@code intended, send, dns_start,
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
     * @param r           the record
     * @param originNanos {@link System#nanoTime()} of the run start; timestamps are written relative to it
     * @return the JSON object (not yet serialised)
     */
    public static ObjectNode toJson(RequestRecord r, long originNanos) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("id", r.id());
        o.put("label", r.label());
        if (!r.step().isEmpty()) {
            o.put("step", r.step());
        }
        o.put("phase", r.phase().id());
        o.put("protocol", r.protocol().id());
        if (r.contextTokens() >= 0) {
            o.put("context_tokens", r.contextTokens());
        }
        o.put("stream", r.stream());
        o.put("outcome", r.outcome().id());
        if (r.errorKind() != null) {
            o.put("error_kind", r.errorKind().id());
        }
        if (r.errorMessage() != null) {
            o.put("error_message", r.errorMessage());
        }
        o.put("http_status", r.httpStatus());
        o.put("attempts", r.attempts());
        o.put("rate_limited_attempts", r.rateLimitedAttempts());
        if (r.inputTokens() >= 0) {
            o.put("input_tokens", r.inputTokens());
        }
        o.put("output_tokens", r.outputTokens());
        o.put("output_token_source", r.outputTokenSource().id());
        o.put("output_chars", r.outputText().length());
        o.put("reasoning_chars", r.reasoningText().length());
        ms(o, "ttfb_ms", r.ttfbNanos());
        ms(o, "first_byte_ms", r.timeToFirstByteOfBodyNanos());
        ms(o, "ttft_ms", r.ttftNanos());
        ms(o, "first_content_ms", r.timeToFirstContentNanos());
        ms(o, "e2e_ms", r.e2eNanos());
        ms(o, "tpot_ms", r.tpotNanos());
        ms(o, "dispatch_lag_ms", r.dispatchLagNanos());
        ms(o, "ttft_from_intended_ms", r.ttftFromIntendedNanos());
        ms(o, "e2e_from_intended_ms", r.e2eFromIntendedNanos());
        ms(o, "connect_ms", r.connectStartNanos() == RequestRecord.UNSET || r.connectEndNanos() == RequestRecord.UNSET
                ? -1 : r.connectNanos());
        if (!r.streamHonoured()) {
            o.put("stream_honoured", false);
        }
        if (!r.serverTimingsMs().isEmpty()) {
            ObjectNode st = o.putObject("server_timings_ms");
            r.serverTimingsMs().forEach(st::put);
        }
        ObjectNode t = o.putObject("t");
        rel(t, "intended", r.intendedStartNanos(), originNanos);
        rel(t, "send", r.sendNanos(), originNanos);
        rel(t, "dns_start", r.dnsStartNanos(), originNanos);
        rel(t, "dns_end", r.dnsEndNanos(), originNanos);
        rel(t, "connect_start", r.connectStartNanos(), originNanos);
        rel(t, "connect_end", r.connectEndNanos(), originNanos);
        rel(t, "tls_start", r.tlsStartNanos(), originNanos);
        rel(t, "tls_end", r.tlsEndNanos(), originNanos);
        rel(t, "request_sent", r.requestSentNanos(), originNanos);
        rel(t, "headers", r.responseHeadersNanos(), originNanos);
        rel(t, "first_byte", r.firstByteNanos(), originNanos);
        rel(t, "first_chunk", r.firstChunkNanos(), originNanos);
        rel(t, "first_token", r.firstTokenNanos(), originNanos);
        rel(t, "first_content", r.firstContentNanos(), originNanos);
        rel(t, "end", r.endNanos(), originNanos);
        TokenTimeline tl = r.tokens();
        ArrayNode ev = o.putArray("events");
        for (int i = 0; i < tl.size(); i++) {
            ArrayNode e = ev.addArray();
            e.add(tl.arrivalNanos(i) - originNanos);
            e.add(tl.tokens(i));
            boolean stamped = tl.serverStampNanos(i) != RequestRecord.UNSET;
            if (stamped) {
                e.add(tl.serverStampNanos(i) - originNanos);
            }
            if (tl.hasAnswerChars()) {
                if (!stamped) {
                    e.addNull();
                }
                e.add(tl.answerChars(i));
            }
        }
        return o;
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

    private static void ms(ObjectNode o, String field, long nanos) {
        if (nanos >= 0) {
            o.put(field, Math.round(nanos / 1_000.0) / 1_000.0);
        }
    }

    private static void rel(ObjectNode t, String field, long nanos, long origin) {
        if (nanos != RequestRecord.UNSET) {
            t.put(field, nanos - origin);
        }
    }

    private static long abs(JsonNode t, String field) {
        return t.has(field) ? t.get(field).asLong() : RequestRecord.UNSET;
    }
}
