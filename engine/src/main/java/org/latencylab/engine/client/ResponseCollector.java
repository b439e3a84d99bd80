package org.latencylab.engine.client;

import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.tokens.TokenCounter;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * What a protocol adapter learned from one response: token-bearing events, texts, usage, end marker, errors.
 *
 * <p>Adapters call it while they parse; {@link #applyTo} turns it into the record's fields and decides the
 * outcome of a body that was read without an I/O failure:
 * <ul>
 *   <li>an error seen in the stream (error event/object, bad JSON) wins;</li>
 *   <li>a stream that ended without the protocol's end marker and without a finish reason is
 *       {@code truncated};</li>
 *   <li>a finished stream without any generated text is {@code empty_response};</li>
 *   <li>anything else is a success.</li>
 * </ul>
 * A stream that closes after a finish reason but without the end marker (OpenAI {@code [DONE]}) counts as
 * complete: several OpenAI-compatible servers and proxies omit the marker.
 *
 * <p>Not thread-safe: one collector belongs to one attempt and is used by the thread that reads its body.
 */
final class ResponseCollector {
    private final TokenCounter counter;
    private final boolean streaming;
    /** For a stream request answered with one whole body: every text arrived with the body; else UNSET. */
    private final long wholeBodyArrival;
    /** Told once when the first token-bearing event was stamped; or null. */
    private final Runnable onFirstToken;

    private long[] arrivals = new long[16];
    /** Per event: where its text ends in {@code answer}, {@code reasoning} and {@code otherText}. */
    private int[] answerEnds = new int[16];
    private int[] reasoningEnds = new int[16];
    private int[] otherEnds = new int[16];
    private long[] stamps = new long[16];
    private int[] answerChars = new int[16];
    private int events;
    private long firstChunk = UNSET;
    private long firstToken = UNSET;
    private long firstContent = UNSET;
    private long end = UNSET;
    private final StringBuilder answer = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    private final StringBuilder otherText = new StringBuilder();
    private int inputTokens = -1;
    private int serverOutputTokens = -1;
    private boolean endMarker;
    private boolean finished;
    private ErrorKind error;
    private String errorMessage;
    private final Map<String, Double> serverTimings = new LinkedHashMap<>();

    /**
     * @param counter      tokenizer for per-event counts and the fallback output count
     * @param streaming    true when events are timed one by one; false for one response body (no timeline)
     * @param onFirstToken run once when the first token-bearing event is recorded, or null
     */
    ResponseCollector(TokenCounter counter, boolean streaming, Runnable onFirstToken) {
        this(counter, streaming, UNSET, onFirstToken);
    }

    private ResponseCollector(TokenCounter counter, boolean streaming, long wholeBodyArrival, Runnable onFirstToken) {
        this.counter = counter;
        this.streaming = streaming;
        this.wholeBodyArrival = wholeBodyArrival;
        this.onFirstToken = onFirstToken;
    }

    /**
     * A collector for a streaming request that the server answered with one complete JSON body (it, or a proxy,
     * ignored {@code stream: true}): the whole answer, and so its first token, arrived with the body. The texts an
     * adapter reports from the body become one token-bearing event at {@code arrivalNanos}.
     *
     * @param counter      tokenizer for the event's token count when the body has no usage
     * @param arrivalNanos when the body's last byte was read (nanoTime)
     * @return a streaming collector that times every text at {@code arrivalNanos}
     */
    static ResponseCollector forUnstreamedBody(TokenCounter counter, long arrivalNanos) {
        return new ResponseCollector(counter, true, arrivalNanos, null);
    }

    /** @return true when this collector reads a streaming request's whole, unstreamed body */
    boolean unstreamed() {
        return wholeBodyArrival != UNSET;
    }

    /**
     * Records one event's generated text. Empty or null texts are ignored; an event whose texts are all empty
     * is not token-bearing and leaves no trace.
     *
     * @param arrivalNanos when the parser delivered the event (nanoTime)
     * @param answerText   answer (content) text, or null
     * @param reasoningText reasoning/thinking text, or null
     * @param toolText     tool-call argument text (counts for TTFT and tokens, not kept as answer), or null
     * @param serverStamp  the server's send time of the event, or UNSET
     */
    void text(long arrivalNanos, String answerText, String reasoningText, String toolText, long serverStamp) {
        boolean hasAnswer = answerText != null && !answerText.isEmpty();
        boolean hasReasoning = reasoningText != null && !reasoningText.isEmpty();
        boolean hasTool = toolText != null && !toolText.isEmpty();
        if (!hasAnswer && !hasReasoning && !hasTool) {
            return;
        }
        if (wholeBodyArrival != UNSET) {
            arrivalNanos = wholeBodyArrival;
            serverStamp = UNSET;
        }
        if (hasAnswer) {
            answer.append(answerText);
        }
        if (hasReasoning) {
            reasoning.append(reasoningText);
        }
        if (hasTool) {
            otherText.append(toolText);
        }
        if (!streaming) {
            return;
        }
        if (firstToken == UNSET) {
            firstToken = arrivalNanos;
            if (onFirstToken != null) {
                try {
                    onFirstToken.run();
                } catch (RuntimeException ignored) {
                    // an observer must not break the measurement of the request
                }
            }
        }
        if (hasAnswer && firstContent == UNSET) {
            firstContent = arrivalNanos;
        }
        if (events == arrivals.length) {
            arrivals = Arrays.copyOf(arrivals, events * 2);
            answerEnds = Arrays.copyOf(answerEnds, events * 2);
            reasoningEnds = Arrays.copyOf(reasoningEnds, events * 2);
            otherEnds = Arrays.copyOf(otherEnds, events * 2);
            stamps = Arrays.copyOf(stamps, events * 2);
            answerChars = Arrays.copyOf(answerChars, events * 2);
        }
        answerChars[events] = hasAnswer ? answerText.codePointCount(0, answerText.length()) : 0;
        arrivals[events] = arrivalNanos;
        answerEnds[events] = answer.length();
        reasoningEnds[events] = reasoning.length();
        otherEnds[events] = otherText.length();
        stamps[events] = serverStamp;
        events++;
    }

    /**
     * A streamed event that belongs to the generation arrived, whatever it carries (e.g. an OpenAI chunk with a
     * role-only delta). Only the first call counts; it feeds the metric-definition lens, not TTFT.
     *
     * @param arrivalNanos when the parser delivered the event (nanoTime)
     */
    void chunk(long arrivalNanos) {
        if (streaming && firstChunk == UNSET) {
            firstChunk = arrivalNanos;
        }
    }

    /** @param prompt server-reported prompt tokens, or a negative value for "not in this event" */
    void inputTokens(int prompt) {
        if (prompt >= 0) {
            inputTokens = prompt;
        }
    }

    /**
     * @param completion server-reported output tokens; the last reported value wins (cumulative counts are
     *                   never summed); negative = not reported in this event
     */
    void outputTokens(int completion) {
        if (completion >= 0) {
            serverOutputTokens = completion;
        }
    }

    /** @param key stable timing name, e.g. {@code prompt_eval} @param ms milliseconds */
    void serverTiming(String key, double ms) {
        serverTimings.put(key, ms);
    }

    /** The protocol's end marker arrived at {@code nanos}; later events are ignored by adapters. */
    void endMarker(long nanos) {
        if (!endMarker) {
            endMarker = true;
            if (end == UNSET) {
                end = nanos;
            }
        }
    }

    /** A finish reason / stop reason was seen: a close after this point is a complete stream. */
    void finished() {
        finished = true;
    }

    /** @return true once the end marker was seen */
    boolean endMarkerSeen() {
        return endMarker;
    }

    /** @return true when the stream is complete enough that a later close or failure does not matter */
    boolean complete() {
        return endMarker;
    }

    /**
     * Records an error; the first one wins.
     *
     * @param kind    classification
     * @param message detail (must not contain secrets)
     * @param nanos   when it was seen
     */
    void fail(ErrorKind kind, String message, long nanos) {
        if (error == null) {
            error = kind;
            errorMessage = message;
            if (end == UNSET) {
                end = nanos;
            }
        }
    }

    /** @return true once an error was recorded */
    boolean failed() {
        return error != null;
    }

    /** @return number of token-bearing events so far */
    int events() {
        return events;
    }

    /** @return the answer text so far */
    String answerText() {
        return answer.toString();
    }

    /**
     * Tokens per token-bearing event, worked out after the stream ended so no tokenizer runs while events are being
     * read: one each when the server's output count equals the number of events (one token per event, as vLLM,
     * SGLang and llama.cpp stream by default); otherwise the tokenizer's count of each event's text (at least 1).
     */
    private int[] tokensPerEvent() {
        int[] t = new int[events];
        if (serverOutputTokens == events) {
            Arrays.fill(t, 1);
            return t;
        }
        int a = 0;
        int r = 0;
        int o = 0;
        for (int i = 0; i < events; i++) {
            int n = count(reasoning, r, reasoningEnds[i]) + count(answer, a, answerEnds[i])
                    + count(otherText, o, otherEnds[i]);
            t[i] = Math.max(1, n);
            a = answerEnds[i];
            r = reasoningEnds[i];
            o = otherEnds[i];
        }
        return t;
    }

    private int count(StringBuilder text, int from, int to) {
        return to > from ? counter.count(text.substring(from, to)) : 0;
    }

    /**
     * Writes the collected values into {@code b} and decides the outcome for a body read to its end (or to an
     * error). Does not touch the timing fields of the transport.
     *
     * @param b          the record builder
     * @param closeNanos when reading stopped (close of the stream or body fully read)
     * @param keepText   whether texts go into the record
     */
    void applyTo(RequestRecord.Builder b, long closeNanos, boolean keepText) {
        if (end == UNSET) {
            end = closeNanos;
        }
        b.endNanos = end;
        b.firstTokenNanos = firstToken;
        b.firstChunkNanos = firstChunk;
        b.firstContentNanos = firstContent;
        b.tokens = new TokenTimeline(Arrays.copyOf(arrivals, events), tokensPerEvent(),
                Arrays.copyOf(stamps, events), Arrays.copyOf(answerChars, events));
        b.inputTokens = inputTokens;
        if (serverOutputTokens >= 0) {
            b.outputTokens = serverOutputTokens;
            b.outputTokenSource = TokenSource.SERVER;
        } else if (streaming && events > 0) {
            b.outputTokens = b.tokens.totalTokens();
            b.outputTokenSource = TokenSource.TOKENIZER;
        } else if (!streaming && (answer.length() + reasoning.length() + otherText.length()) > 0) {
            b.outputTokens = counter.count(answer.toString()) + counter.count(reasoning.toString())
                    + counter.count(otherText.toString());
            b.outputTokenSource = TokenSource.TOKENIZER;
        } else {
            b.outputTokens = 0;
            b.outputTokenSource = TokenSource.NONE;
        }
        if (keepText) {
            b.outputText = answer.toString();
            b.reasoningText = reasoning.toString();
        }
        b.serverTimingsMs = Map.copyOf(serverTimings);
        boolean anyText = answer.length() + reasoning.length() + otherText.length() > 0;
        if (error != null) {
            b.error(error, errorMessage);
        } else if (streaming && !endMarker && !finished) {
            b.error(ErrorKind.TRUNCATED, "stream closed before the end marker after " + events
                    + " token-bearing events");
        } else if (!anyText) {
            b.error(ErrorKind.EMPTY_RESPONSE, "the response carried no generated text");
        }
    }
}
