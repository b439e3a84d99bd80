package org.latencylab.engine.lens;

import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenTimeline;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * How one benchmark tool defines TTFT, E2E, ITL and TPOT, applied to a LatencyLab {@link RequestRecord}. Every
 * method returns nanoseconds, or -1 (or an empty array) when the record lacks the events the definition needs.
 * Thread-safe (an enum).
 *
 * <p>What each tool does, with the source read (tool versions of 2025–2026):
 * <ul>
 *   <li>{@link #LATENCYLAB}: TTFT = send → first event carrying generated text; E2E = send → end of stream;
 *       ITL = each gap between consecutive token-bearing events (one value per gap); TPOT = (E2E − TTFT) /
 *       (output tokens − 1). See docs/metrics.md.</li>
 *   <li>{@link #VLLM_BENCH}: {@code vllm bench serve}, {@code vllm/benchmarks/lib/endpoint_request_func.py}
 *       ({@code async_request_openai_chat_completions}): the TTFT clock stops at the first SSE chunk with a
 *       non-empty {@code choices} list, whatever its delta holds, so a role-only first chunk counts; every later
 *       {@code choices} chunk adds one ITL value (per chunk, not per token); latency ends at the last
 *       {@code choices} chunk, not at {@code [DONE]}. TPOT per request = (latency − TTFT) / (output tokens − 1)
 *       ({@code vllm/benchmarks/serve.py}, {@code calculate_metrics}). LatencyLab keeps only token-bearing events,
 *       so chunks with an empty delta after the first are not in the record: their gaps are merged into the next
 *       token's gap, and the latency ends at the last token-bearing event.</li>
 *   <li>{@link #GUIDELLM}: GuideLLM, {@code guidellm/schemas/request_stats.py} ({@code GenerativeRequestStats})
 *       and its HTTP backend: TTFT = first iteration that carried tokens − request start; request latency =
 *       request end − start; ITL = (last token iteration − first token iteration) / (output tokens − 1), one
 *       mean per request; TPOT = (last token iteration − request start) / output tokens, so it includes TTFT.</li>
 *   <li>{@link #AIPERF}: AIPerf (GenAI-Perf's successor), {@code docs/metrics_reference.md}: TTFT = first
 *       response with content − request start (role-only and usage-only responses do not count); request latency
 *       = last response − start; ITL = (request latency − TTFT) / (output sequence length − 1), one mean per
 *       request; the per-chunk gaps are its separate "inter chunk latency".</li>
 * </ul>
 */
public enum MetricDefinition {
    /** LatencyLab's own definitions. */
    LATENCYLAB("LatencyLab", "docs/metrics.md", "first token-bearing event",
            "gap per token-bearing event", "(E2E − TTFT) / (tokens − 1)"),
    /** {@code vllm bench serve}. */
    VLLM_BENCH("vLLM bench serve", "vllm/benchmarks/lib/endpoint_request_func.py, vllm/benchmarks/serve.py",
            "first chunk with choices (role-only counts)", "gap per chunk", "(latency − TTFT) / (tokens − 1)"),
    /** GuideLLM. */
    GUIDELLM("GuideLLM", "guidellm/schemas/request_stats.py (GenerativeRequestStats)",
            "first iteration carrying tokens", "(last − first token) / (tokens − 1), per request",
            "(last token − start) / tokens, TTFT included"),
    /** AIPerf / GenAI-Perf. */
    AIPERF("AIPerf", "aiperf docs/metrics_reference.md", "first response with content",
            "(latency − TTFT) / (tokens − 1), per request", "same as its ITL (no separate TPOT)");

    private final String displayName;
    private final String source;
    private final String ttftRule;
    private final String itlRule;
    private final String tpotRule;

    MetricDefinition(String displayName, String source, String ttftRule, String itlRule, String tpotRule) {
        this.displayName = displayName;
        this.source = source;
        this.ttftRule = ttftRule;
        this.itlRule = itlRule;
        this.tpotRule = tpotRule;
    }

    /** @return the tool's name, e.g. {@code "vLLM bench serve"} */
    public String displayName() {
        return displayName;
    }

    /** @return where the definition was read (a file of the tool's repository or its documentation) */
    public String source() {
        return source;
    }

    /** @return which event stops the TTFT clock, in a few words */
    public String ttftRule() {
        return ttftRule;
    }

    /** @return how ITL is formed, in a few words */
    public String itlRule() {
        return itlRule;
    }

    /** @return how TPOT is formed, in a few words */
    public String tpotRule() {
        return tpotRule;
    }

    /**
     * @param r a successful streamed request
     * @return TTFT under this definition, ns, or -1
     */
    public long ttftNanos(RequestRecord r) {
        if (this == VLLM_BENCH) {
            long first = r.firstChunkNanos() != UNSET ? r.firstChunkNanos() : r.firstTokenNanos();
            return span(r.sendNanos(), first);
        }
        return span(r.sendNanos(), r.firstTokenNanos());
    }

    /**
     * @param r a successful request
     * @return end-to-end latency under this definition, ns, or -1
     */
    public long e2eNanos(RequestRecord r) {
        if (this == VLLM_BENCH) {
            TokenTimeline t = r.tokens();
            return t.size() == 0 ? span(r.sendNanos(), r.firstChunkNanos())
                    : span(r.sendNanos(), t.arrivalNanos(t.size() - 1));
        }
        return span(r.sendNanos(), r.endNanos());
    }

    /**
     * @param r a successful streamed request
     * @return the request's ITL values under this definition, ns: one per gap for LatencyLab and vLLM, one mean
     *         per request for GuideLLM and AIPerf; empty when undefined (fewer than 2 tokens or events)
     */
    public long[] itlNanos(RequestRecord r) {
        TokenTimeline t = r.tokens();
        switch (this) {
            case LATENCYLAB -> {
                return t.itlNanos(false);
            }
            case VLLM_BENCH -> {
                long[] gaps = t.itlNanos(false);
                long chunk = r.firstChunkNanos();
                if (t.size() == 0 || chunk == UNSET || chunk >= t.arrivalNanos(0)) {
                    return gaps;
                }
                long[] out = new long[gaps.length + 1];
                out[0] = t.arrivalNanos(0) - chunk;
                System.arraycopy(gaps, 0, out, 1, gaps.length);
                return out;
            }
            case GUIDELLM -> {
                if (t.size() == 0 || r.outputTokens() < 2) {
                    return new long[0];
                }
                return new long[]{(t.arrivalNanos(t.size() - 1) - t.arrivalNanos(0)) / (r.outputTokens() - 1)};
            }
            case AIPERF -> {
                long ttft = ttftNanos(r);
                long e2e = e2eNanos(r);
                if (ttft < 0 || e2e < 0 || r.outputTokens() < 2) {
                    return new long[0];
                }
                return new long[]{(e2e - ttft) / (r.outputTokens() - 1)};
            }
            default -> throw new AssertionError(this);
        }
    }

    /**
     * @param r a successful streamed request
     * @return TPOT under this definition, ns, or -1 (AIPerf has none of its own: its ITL is returned)
     */
    public long tpotNanos(RequestRecord r) {
        int tokens = r.outputTokens();
        switch (this) {
            case GUIDELLM -> {
                TokenTimeline t = r.tokens();
                long last = t.size() > 0 ? t.arrivalNanos(t.size() - 1) : r.endNanos();
                long span = span(r.sendNanos(), last);
                return span < 0 || tokens < 1 ? -1 : span / tokens;
            }
            case AIPERF -> {
                long[] itl = itlNanos(r);
                return itl.length == 0 ? -1 : itl[0];
            }
            default -> {
                long ttft = ttftNanos(r);
                long e2e = e2eNanos(r);
                return ttft < 0 || e2e < 0 || tokens < 2 ? -1 : (e2e - ttft) / (tokens - 1);
            }
        }
    }

    private static long span(long from, long to) {
        return from == UNSET || to == UNSET || to < from ? -1 : to - from;
    }
}
