package org.latencylab.app;

/**
 * The one set of defaults of the command line and the window, so a bare {@code probe} measures what the window's
 * Run button measures. Constants only; thread-safe.
 */
public final class Defaults {
    /** Built-in simulator profile measured when no endpoint is given: a quick one (a probe takes seconds). */
    public static final String SIM_PROFILE = "small-fast";
    /** Probe: measured requests. */
    public static final int PROBE_REQUESTS = 100;
    /** Probe: requests in flight at once. */
    public static final int PROBE_CONCURRENCY = 1;
    /** Probe: prompt length, tokens. */
    public static final int PROBE_PROMPT_TOKENS = 256;
    /** Probe: {@code max_tokens} of each request. */
    public static final int PROBE_MAX_OUTPUT_TOKENS = 64;
    /** Sweep: requests per context length. */
    public static final int SWEEP_REQUESTS_PER_LENGTH = 20;
    /** Sweep: {@code max_tokens} of each request (few: a sweep measures prefill, i.e. TTFT). */
    public static final int SWEEP_MAX_OUTPUT_TOKENS = 16;

    private Defaults() {
    }
}
