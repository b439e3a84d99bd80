package org.latencylab.engine.api;

import java.util.Map;
import java.util.Objects;

/**
 * Everything measured about one request, from intended start to end of stream.
 *
 * <p>Timestamps are {@link System#nanoTime()} readings of the measuring process; a timestamp that did not
 * happen is {@link #UNSET}. Durations returned by the derived methods are nanoseconds, or {@code -1} when the
 * events they need did not happen. Metric definitions: see the package documentation. Immutable and
 * thread-safe; build one with {@link #builder()}.
 *
 * @param id                   request number within the run, from 0
 * @param label                the experiment step the request belongs to, e.g. {@code "probe"} or
 *                             {@code "sweep-2048"}; never null
 * @param protocol             wire protocol used
 * @param contextTokens        prompt tokens LatencyLab intended to send (its own tokenizer), or -1
 * @param stream               whether the request streamed
 * @param intendedStartNanos   when the schedule wanted the request to start ({@code == sendNanos} in closed loop)
 * @param sendNanos            when the measured attempt was handed to the HTTP client: the first (retries after 429
 *                             or 5xx count from it), or the re-send on a new connection ({@code resend})
 * @param dnsStartNanos        DNS lookup start (last attempt), or UNSET
 * @param dnsEndNanos          DNS lookup end, or UNSET
 * @param connectStartNanos    TCP connect start, or UNSET (a pooled connection was reused)
 * @param connectEndNanos      TCP connect end (after TLS), or UNSET
 * @param tlsStartNanos        TLS handshake start, or UNSET
 * @param tlsEndNanos          TLS handshake end, or UNSET
 * @param requestSentNanos     request body fully written, or UNSET
 * @param responseHeadersNanos response headers received (last attempt), or UNSET
 * @param firstByteNanos       first response body byte read (last attempt), or UNSET
 * @param firstTokenNanos      first token-bearing event (any generated text), or UNSET
 * @param firstContentNanos    first answer (non-reasoning) text, or UNSET
 * @param endNanos             end of the stream or body (end marker, close, or error), or UNSET
 * @param tokens               token-bearing events; never null
 * @param inputTokens          prompt tokens reported by the server, or -1
 * @param outputTokens         generated tokens (server usage when reported, else tokenizer), >= 0
 * @param outputTokenSource    where {@code outputTokens} came from
 * @param attempts             attempts made (1 + retries, and one more for a re-send on a new connection), >= 1 once
 *                             sent
 * @param rateLimitedAttempts  attempts refused with 429
 * @param httpStatus           HTTP status of the last attempt, or 0 when no response arrived
 * @param outcome              how the request ended
 * @param errorKind            classification when {@code outcome == ERROR}, else null
 * @param errorMessage         human-readable detail of the error, else null
 * @param outputText           generated answer text (empty when not kept)
 * @param reasoningText        generated reasoning text (empty when none or not kept)
 * @param serverTimingsMs      timings the server reported about itself, in milliseconds, keyed by a stable name
 *                             (e.g. {@code "prompt_eval"}); never null
 * @param step                 label of the run step the request was sent in (e.g. {@code "sweep"} for a request
 *                             labelled {@code "sweep-2048"}); "" until the run engine records it
 * @param phase                warmup, measured or cooldown; only measured requests enter statistics; never null
 * @param streamHonoured       false when a streaming request was answered with one complete, unstreamed body
 *                             (the server or a proxy ignored {@code stream: true}); true otherwise
 * @param firstChunkNanos      first streamed event that belongs to the generation whatever it carries, or UNSET:
 *                             for OpenAI-compatible streams the first chunk with a {@code choices} entry, a
 *                             role-only chunk included (the event vLLM's benchmark starts its TTFT clock on; see
 *                             {@code org.latencylab.engine.lens}); UNSET for protocols that do not stamp it
 * @param capWaitNanos         how long the request waited at its load step's own caps ({@code maxInFlight},
 *                             {@code maxRateRps} with {@code atCap: queue}) before it could be sent, ns, >= 0 (0: it
 *                             did not wait); part of the dispatch lag, but a wait the user's configuration asked for,
 *                             not the client falling behind ({@link #clientDispatchLagNanos})
 * @param resend               why the request was sent once more on a new connection ({@link Resend#NONE}: it was
 *                             not); then {@code sendNanos} is the send of that second attempt, the one that got the
 *                             answer, so TTFT and E2E measure the server's answer and not the dead connection
 * @param resendWastedNanos    time from the first send to the re-send (the failed attempt on the pooled
 *                             connection), ns, >= 0; 0 when not re-sent. Latencies from the intended start include it
 * @param traceId              the W3C trace id (32 lower-case hex digits) the request carried in its {@code traceparent}
 *                             header, or "" when tracing was off; never null
 * @param spanId               the W3C parent span id (16 hex digits) of that header, or ""; never null
 */
public record RequestRecord(
        long id, String label, Protocol protocol, int contextTokens, boolean stream,
        long intendedStartNanos, long sendNanos,
        long dnsStartNanos, long dnsEndNanos, long connectStartNanos, long connectEndNanos,
        long tlsStartNanos, long tlsEndNanos, long requestSentNanos, long responseHeadersNanos,
        long firstByteNanos, long firstTokenNanos, long firstContentNanos, long endNanos,
        TokenTimeline tokens, int inputTokens, int outputTokens, TokenSource outputTokenSource,
        int attempts, int rateLimitedAttempts, int httpStatus,
        Outcome outcome, ErrorKind errorKind, String errorMessage,
        String outputText, String reasoningText, Map<String, Double> serverTimingsMs, String step, Phase phase,
        boolean streamHonoured, long firstChunkNanos, long capWaitNanos, Resend resend,
        long resendWastedNanos, String traceId, String spanId) {

    /** Marks a timestamp that did not happen. */
    public static final long UNSET = Long.MIN_VALUE;

    public RequestRecord {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(outcome, "outcome");
        label = label == null ? "" : label;
        tokens = tokens == null ? TokenTimeline.EMPTY : tokens;
        outputTokenSource = outputTokenSource == null ? TokenSource.NONE : outputTokenSource;
        outputText = outputText == null ? "" : outputText;
        reasoningText = reasoningText == null ? "" : reasoningText;
        serverTimingsMs = serverTimingsMs == null ? Map.of() : Map.copyOf(serverTimingsMs);
        step = step == null ? "" : step;
        phase = phase == null ? Phase.MEASURED : phase;
        capWaitNanos = Math.max(0, capWaitNanos);
        resend = resend == null ? Resend.NONE : resend;
        resendWastedNanos = resend == Resend.NONE ? 0 : Math.max(0, resendWastedNanos);
        traceId = traceId == null ? "" : traceId;
        spanId = spanId == null ? "" : spanId;
        if (outcome == Outcome.ERROR && errorKind == null) {
            throw new IllegalArgumentException("request " + id + ": an ERROR outcome needs an errorKind");
        }
        if (outcome != Outcome.ERROR && errorKind != null) {
            throw new IllegalArgumentException("request " + id + ": errorKind " + errorKind + " on outcome " + outcome);
        }
    }

    private static long span(long from, long to) {
        return from == UNSET || to == UNSET ? -1 : to - from;
    }

    /** @return true when the request is in the measured phase (its values enter statistics) */
    public boolean measured() {
        return phase == Phase.MEASURED;
    }

    /** @return true when the request succeeded */
    public boolean succeeded() {
        return outcome == Outcome.SUCCESS;
    }

    /** @return TTFT from the send time, ns, or -1 */
    public long ttftNanos() {
        return span(sendNanos, firstTokenNanos);
    }

    /** @return TTFT from the intended start (includes client queueing), ns, or -1 */
    public long ttftFromIntendedNanos() {
        return span(intendedStartNanos, firstTokenNanos);
    }

    /** @return time to first answer (non-reasoning) text from the send time, ns, or -1 */
    public long timeToFirstContentNanos() {
        return span(sendNanos, firstContentNanos);
    }

    /** @return TTFB (send to response headers), ns, or -1 */
    public long ttfbNanos() {
        return span(sendNanos, responseHeadersNanos);
    }

    /** @return send to first body byte, ns, or -1 */
    public long timeToFirstByteOfBodyNanos() {
        return span(sendNanos, firstByteNanos);
    }

    /** @return E2E from the send time, ns, or -1 */
    public long e2eNanos() {
        return span(sendNanos, endNanos);
    }

    /** @return E2E from the intended start (includes client queueing), ns, or -1 */
    public long e2eFromIntendedNanos() {
        return span(intendedStartNanos, endNanos);
    }

    /**
     * @return client dispatch lag (first send − intended start), ns, or -1; a re-send's wasted attempt
     *         ({@link #resendWastedNanos}) is the server's closed connection, not the client's dispatch, and is not in it
     */
    public long dispatchLagNanos() {
        return span(intendedStartNanos, firstSendNanos());
    }

    /** @return when the first attempt was handed to the client: {@code sendNanos} less a re-send's wasted time */
    public long firstSendNanos() {
        return sendNanos == UNSET ? UNSET : sendNanos - resendWastedNanos;
    }

    /** @return true when the request was sent once more on a new connection ({@link #resend}) */
    public boolean resent() {
        return resend != Resend.NONE;
    }

    /**
     * The client's own dispatch lag: {@link #dispatchLagNanos} less the wait at the load step's caps
     * ({@link #capWaitNanos}), which the user's {@code maxInFlight} or {@code maxRateRps} asked for. This is what the
     * trust check judges: queueing at a cap is the configured system falling behind the schedule (it stays in the
     * latencies from the intended start), not the client's scheduling.
     *
     * @return ns, >= 0, or -1 when the request has no dispatch lag
     */
    public long clientDispatchLagNanos() {
        long lag = dispatchLagNanos();
        return lag < 0 ? -1 : Math.max(0, lag - capWaitNanos);
    }

    /** @return TCP connect time (0 when a pooled connection was reused), ns */
    public long connectNanos() {
        long c = span(connectStartNanos, connectEndNanos);
        return Math.max(0, c);
    }

    /**
     * TPOT = (E2E − TTFT) / (outputTokens − 1).
     *
     * @return ns per token, or -1 when TTFT/E2E are missing or fewer than 2 output tokens
     */
    public long tpotNanos() {
        long e2e = e2eNanos();
        long ttft = ttftNanos();
        if (e2e < 0 || ttft < 0 || outputTokens < 2) {
            return -1;
        }
        return (e2e - ttft) / (outputTokens - 1);
    }

    /**
     * First-screen latency: from the send (which, for a request on a new connection, comes before DNS, TCP and
     * TLS) until the client holds the first {@code screen} of answer text — the arrival of the event at which the
     * answer characters (or the tokens of answer-bearing events) received so far reach the screen size. An answer
     * shorter than a screen counts at its last answer event; a non-streamed answer at the end of its body.
     *
     * @param screen how much text fills the first screen; not null
     * @return ns from the send, or -1 when the request produced no answer text, or (for characters) the record
     *         does not know per-event character counts
     */
    public long firstScreenNanos(ScreenSize screen) {
        if (!stream) {
            return outputTokens > 0 || !outputText.isEmpty() ? span(sendNanos, endNanos) : -1;
        }
        long cumulative = 0;
        long lastAnswer = UNSET;
        boolean chars = screen.unit() == ScreenSize.Unit.CHARACTERS;
        for (int i = 0; i < tokens.size(); i++) {
            int c = tokens.answerChars(i);
            if (c < 0 && chars) {
                return -1;
            }
            if (c == 0) {
                continue; // reasoning or tool text only: not on the screen
            }
            cumulative += chars ? c : tokens.tokens(i);
            lastAnswer = tokens.arrivalNanos(i);
            if (cumulative >= screen.amount()) {
                return span(sendNanos, lastAnswer);
            }
        }
        return span(sendNanos, lastAnswer);
    }

    /** @return a builder with every timestamp UNSET */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this record's values */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id; b.label = label; b.protocol = protocol; b.contextTokens = contextTokens; b.stream = stream;
        b.intendedStartNanos = intendedStartNanos; b.sendNanos = sendNanos;
        b.dnsStartNanos = dnsStartNanos; b.dnsEndNanos = dnsEndNanos;
        b.connectStartNanos = connectStartNanos; b.connectEndNanos = connectEndNanos;
        b.tlsStartNanos = tlsStartNanos; b.tlsEndNanos = tlsEndNanos;
        b.requestSentNanos = requestSentNanos; b.responseHeadersNanos = responseHeadersNanos;
        b.firstByteNanos = firstByteNanos; b.firstTokenNanos = firstTokenNanos;
        b.firstContentNanos = firstContentNanos; b.endNanos = endNanos;
        b.tokens = tokens; b.inputTokens = inputTokens; b.outputTokens = outputTokens;
        b.outputTokenSource = outputTokenSource; b.attempts = attempts;
        b.rateLimitedAttempts = rateLimitedAttempts; b.httpStatus = httpStatus;
        b.outcome = outcome; b.errorKind = errorKind; b.errorMessage = errorMessage;
        b.outputText = outputText; b.reasoningText = reasoningText; b.serverTimingsMs = serverTimingsMs;
        b.step = step; b.phase = phase;
        b.streamHonoured = streamHonoured;
        b.firstChunkNanos = firstChunkNanos;
        b.capWaitNanos = capWaitNanos;
        b.resend = resend;
        b.resendWastedNanos = resendWastedNanos;
        b.traceId = traceId;
        b.spanId = spanId;
        return b;
    }

    /** Mutable builder; not thread-safe. Every timestamp starts as {@link #UNSET}. */
    public static final class Builder {
        public long id;
        public String label = "";
        public Protocol protocol = Protocol.OPENAI_CHAT;
        public int contextTokens = -1;
        public boolean stream = true;
        public long intendedStartNanos = UNSET;
        public long sendNanos = UNSET;
        public long dnsStartNanos = UNSET;
        public long dnsEndNanos = UNSET;
        public long connectStartNanos = UNSET;
        public long connectEndNanos = UNSET;
        public long tlsStartNanos = UNSET;
        public long tlsEndNanos = UNSET;
        public long requestSentNanos = UNSET;
        public long responseHeadersNanos = UNSET;
        public long firstByteNanos = UNSET;
        public long firstTokenNanos = UNSET;
        public long firstContentNanos = UNSET;
        public long endNanos = UNSET;
        public TokenTimeline tokens = TokenTimeline.EMPTY;
        public int inputTokens = -1;
        public int outputTokens;
        public TokenSource outputTokenSource = TokenSource.NONE;
        public int attempts;
        public int rateLimitedAttempts;
        public int httpStatus;
        public Outcome outcome = Outcome.SUCCESS;
        public ErrorKind errorKind;
        public String errorMessage;
        public String outputText = "";
        public String reasoningText = "";
        public Map<String, Double> serverTimingsMs = Map.of();
        public String step = "";
        public Phase phase = Phase.MEASURED;
        public boolean streamHonoured = true;
        public long firstChunkNanos = UNSET;
        /** Wait at the load step's caps, ns ({@link RequestRecord#capWaitNanos}); 0 when none. */
        public long capWaitNanos;
        /** Why the request was re-sent on a new connection ({@link RequestRecord#resend}). */
        public Resend resend = Resend.NONE;
        /** First send to re-send, ns ({@link RequestRecord#resendWastedNanos}); 0 when not re-sent. */
        public long resendWastedNanos;
        /** W3C trace id sent in {@code traceparent} ({@link RequestRecord#traceId}); "" when none. */
        public String traceId = "";
        /** W3C parent span id sent in {@code traceparent} ({@link RequestRecord#spanId}); "" when none. */
        public String spanId = "";

        private Builder() {
        }

        /** Marks the request failed. @param kind classification @param message detail @return this */
        public Builder error(ErrorKind kind, String message) {
            this.outcome = Outcome.ERROR;
            this.errorKind = kind;
            this.errorMessage = message;
            return this;
        }

        /** @return the immutable record @throws IllegalArgumentException on inconsistent fields */
        public RequestRecord build() {
            return new RequestRecord(id, label, protocol, contextTokens, stream, intendedStartNanos, sendNanos,
                    dnsStartNanos, dnsEndNanos, connectStartNanos, connectEndNanos, tlsStartNanos, tlsEndNanos,
                    requestSentNanos, responseHeadersNanos, firstByteNanos, firstTokenNanos, firstContentNanos,
                    endNanos, tokens, inputTokens, outputTokens, outputTokenSource, attempts, rateLimitedAttempts,
                    httpStatus, outcome, errorKind, errorMessage, outputText, reasoningText, serverTimingsMs,
                    step, phase, streamHonoured, firstChunkNanos, capWaitNanos, resend, resendWastedNanos, traceId, spanId);
        }
    }
}
