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

    private long[] arrivals = new long[16];
    private int[] tokens = new int[16];
    private long[] stamps = new long[16];
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
     * @param counter   tokenizer for per-event counts and the fallback output count
     * @param streaming true when events are timed one by one; false for one response body (no timeline)
     */
    ResponseCollector(TokenCounter counter, boolean streaming) {
        this.counter = counter;
        this.streaming = streaming;
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
            FirstTokenSignal.fire();
        }
        if (hasAnswer && firstContent == UNSET) {
            firstContent = arrivalNanos;
        }
        int n = 0;
        if (hasReasoning) {
            n += counter.count(reasoningText);
        }
        if (hasAnswer) {
            n += counter.count(answerText);
        }
        if (hasTool) {
            n += counter.count(toolText);
        }
        if (events == arrivals.length) {
            arrivals = Arrays.copyOf(arrivals, events * 2);
            tokens = Arrays.copyOf(tokens, events * 2);
            stamps = Arrays.copyOf(stamps, events * 2);
        }
        arrivals[events] = arrivalNanos;
        tokens[events] = Math.max(1, n);
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
        b.tokens = new TokenTimeline(Arrays.copyOf(arrivals, events), Arrays.copyOf(tokens, events),
                Arrays.copyOf(stamps, events));
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
