package org.latencylab.engine.stats;

import org.latencylab.engine.api.RequestRecord;

import java.util.Arrays;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The latency metrics LatencyLab summarizes, each read from a {@link RequestRecord}'s derived methods (which define
 * them; see the package documentation). Values are nanoseconds. Thread-safe (an enum).
 */
public enum Metric {
    /** Send to first generated text of any kind. */
    TTFT("ttft", "TTFT", "TTFT (time to first token): send → the first event that carries generated text of any kind"
            + " (answer, reasoning, tool-call arguments). Role-only events, empty strings, SSE comments, pings and"
            + " usage-only events do not count.", RequestRecord::ttftNanos),
    /** Send to first answer (non-reasoning) text. */
    TIME_TO_FIRST_CONTENT("time_to_first_content", "time to first content",
            "Time to first content: send → the first answer (non-reasoning) text.",
            RequestRecord::timeToFirstContentNanos),
    /** Send to response headers. */
    TTFB("ttfb", "TTFB", "TTFB (time to first byte): send → response headers received.", RequestRecord::ttfbNanos),
    /** Send to end of stream. */
    E2E("e2e", "E2E", "E2E (end-to-end latency): send → end of the stream (end marker or close).",
            RequestRecord::e2eNanos),
    /** (E2E − TTFT) / (output tokens − 1). */
    TPOT("tpot", "TPOT", "TPOT (time per output token): (E2E − TTFT) / (output tokens − 1).", RequestRecord::tpotNanos),
    /** Gap between consecutive token-bearing events (one value per gap, not per request). */
    ITL("itl", "ITL", "ITL (inter-token latency): gaps between consecutive token-bearing events.", null),
    /** Gap between consecutive token-bearing events divided by the tokens of the later event (one value per gap). */
    ITL_PER_TOKEN("itl_per_token", "ITL per token", "ITL per token: each gap between consecutive token-bearing events"
            + " divided by the number of tokens the later event carries.", null),
    /** Intended start to first generated text (includes client queueing). */
    TTFT_FROM_INTENDED("ttft_from_intended", "TTFT from intended start", "TTFT from the intended start: when the"
            + " schedule wanted the request to start → first token; includes queueing inside the client (coordinated"
            + " omission is not hidden).", RequestRecord::ttftFromIntendedNanos),
    /** Intended start to end of stream (includes client queueing). */
    E2E_FROM_INTENDED("e2e_from_intended", "E2E from intended start",
            "E2E from the intended start: intended start → end of stream.", RequestRecord::e2eFromIntendedNanos),
    /** Actual send minus intended start. */
    DISPATCH_LAG("dispatch_lag", "dispatch lag", "Dispatch lag: actual send minus intended start.",
            RequestRecord::dispatchLagNanos);

    private final String id;
    private final String displayName;
    private final String definition;
    private final ToLongFunction<RequestRecord> perRequest;

    Metric(String id, String displayName, String definition, ToLongFunction<RequestRecord> perRequest) {
        this.id = id;
        this.displayName = displayName;
        this.definition = definition;
        this.perRequest = perRequest;
    }

    /** @return the name used in files, reports and SLOs, e.g. {@code "ttft"} */
    public String id() {
        return id;
    }

    /**
     * @return the metric's name for people in the standard terms of the field, as charts, tables and the console
     *         show it, e.g. {@code "TTFT"}, {@code "time to first content"} (lower case unless an abbreviation)
     */
    public String displayName() {
        return displayName;
    }

    /**
     * @return the metric's definition in one or two sentences, word for word the package documentation's (what
     *         the window's tooltips and the glossaries show), e.g. {@code "TPOT (time per output token): (E2E −
     *         TTFT) / (output tokens − 1)."}
     */
    public String definition() {
        return definition;
    }

    /**
     * @param metrics some metrics
     * @return their ids in the order given, e.g. for a list of choices
     */
    public static java.util.List<String> ids(Metric... metrics) {
        return Arrays.stream(metrics).map(Metric::id).toList();
    }

    /**
     * @param id a metric id or any other word
     * @return the metric of that id (case-insensitive), or empty when it names none
     */
    public static java.util.Optional<Metric> find(String id) {
        for (Metric m : values()) {
            if (id != null && m.id.equalsIgnoreCase(id.strip())) {
                return java.util.Optional.of(m);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * @return true when only a streamed request has this metric (its tokens are timed one event at a time); a
     *         non-streaming request has no TTFT, time to first content, TPOT or ITL
     */
    public boolean streamOnly() {
        return switch (this) {
            case TTFT, TIME_TO_FIRST_CONTENT, TPOT, ITL, ITL_PER_TOKEN, TTFT_FROM_INTENDED -> true;
            case TTFB, E2E, E2E_FROM_INTENDED, DISPATCH_LAG -> false;
        };
    }

    /**
     * @return true when the metric contains the prompt's prefill and so grows with the context length (a sweep's
     *         values pooled over its lengths then mean little); false for the decode-side metrics and dispatch lag.
     *         TTFB counts as growing: servers that send their header fields with the first token include prefill.
     */
    public boolean growsWithPrompt() {
        return switch (this) {
            case TTFT, TIME_TO_FIRST_CONTENT, TTFB, E2E, TTFT_FROM_INTENDED, E2E_FROM_INTENDED -> true;
            case TPOT, ITL, ITL_PER_TOKEN, DISPATCH_LAG -> false;
        };
    }

    /** @return true when the metric has one value per request (false for ITL, which has one per event gap) */
    public boolean perRequest() {
        return perRequest != null;
    }

    /**
     * @param r a request record
     * @return the metric's value for it in nanoseconds, or -1 when the record lacks the events it needs
     * @throws UnsupportedOperationException for per-gap metrics ({@link #ITL}, {@link #ITL_PER_TOKEN})
     */
    public long valueNanos(RequestRecord r) {
        if (perRequest == null) {
            throw new UnsupportedOperationException(id + " has one value per event gap, not per request");
        }
        return perRequest.applyAsLong(r);
    }

    /**
     * @param id a name such as {@code "ttft"} (case-insensitive)
     * @return the metric
     * @throws IllegalArgumentException for an unknown name; the message lists the known ones
     */
    public static Metric fromId(String id) {
        for (Metric m : values()) {
            if (m.id.equalsIgnoreCase(id == null ? "" : id.strip())) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + id + "', expected one of "
                + Arrays.stream(values()).map(Metric::id).collect(Collectors.joining(", ")));
    }

    /**
     * The one check that a metric named in a setting has one value per request (as an SLO, goodput threshold or
     * tier metric needs): ITL and ITL per token have one value per event gap and are refused.
     *
     * @param field where the name came from, for the message, e.g. {@code "slos[0].metric"}
     * @param id    a metric name (case-insensitive)
     * @return the metric
     * @throws IllegalArgumentException when the name is blank or unknown, or the metric is per gap; the message starts
     *                                  with {@code field} and lists the per-request metrics
     */
    public static Metric requirePerRequest(String field, String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException(field + " must be set, one of " + String.join(", ", perRequestIds()));
        }
        Metric m;
        try {
            m = fromId(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": unknown metric '" + id.strip() + "', must be one of "
                    + String.join(", ", perRequestIds()), e);
        }
        if (!m.perRequest()) {
            throw new IllegalArgumentException(field + ": " + m.id() + " has one value per event gap, not per request;"
                    + " use one of " + String.join(", ", perRequestIds()) + " (tpot for a per-request decode figure)");
        }
        return m;
    }

    /** @return ids of the metrics with one value per request, in declaration order */
    public static java.util.List<String> perRequestIds() {
        return Arrays.stream(values()).filter(Metric::perRequest).map(Metric::id).toList();
    }

    @Override
    public String toString() {
        return id;
    }
}
