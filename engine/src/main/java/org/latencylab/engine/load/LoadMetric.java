package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import org.latencylab.engine.api.RequestRecord;

import java.util.Locale;

/**
 * A per-request latency a load step can judge (tiers, goodput SLOs, grid cells). Thread-safe (an enum).
 *
 * <p>{@code ttft} and {@code e2e} count from the <em>intended</em> start, so client-side queueing is included
 * (no coordinated omission); the {@code -send} variants count from the actual send.
 */
public enum LoadMetric {
    /** Time to first token from the intended start. */
    TTFT("ttft"),
    /** End-to-end latency from the intended start. */
    E2E("e2e"),
    /** Time to first token from the actual send. */
    TTFT_SEND("ttft-send"),
    /** End-to-end latency from the actual send. */
    E2E_SEND("e2e-send"),
    /** Client dispatch lag: actual send − intended start. */
    DISPATCH_LAG("dispatch-lag"),
    /** Time per output token. */
    TPOT("tpot"),
    /** Time to first byte (response headers) from the actual send. */
    TTFB("ttfb");

    private final String id;

    LoadMetric(String id) {
        this.id = id;
    }

    /** @return the name used in scenario files, e.g. {@code "ttft"} */
    @JsonValue
    public String id() {
        return id;
    }

    /**
     * @param r a finished request
     * @return this metric of {@code r} in nanoseconds, or -1 when the events it needs did not happen
     */
    public long nanosOf(RequestRecord r) {
        return switch (this) {
            case TTFT -> r.ttftFromIntendedNanos();
            case E2E -> r.e2eFromIntendedNanos();
            case TTFT_SEND -> r.ttftNanos();
            case E2E_SEND -> r.e2eNanos();
            case DISPATCH_LAG -> r.dispatchLagNanos();
            case TPOT -> r.tpotNanos();
            case TTFB -> r.ttfbNanos();
        };
    }

    /**
     * @param id e.g. {@code "ttft"}, {@code "e2e-send"} (any case)
     * @return the metric
     * @throws IllegalArgumentException on an unknown name; the message lists the known ones
     */
    @JsonCreator
    public static LoadMetric fromId(String id) {
        for (LoadMetric m : values()) {
            if (m.id.equalsIgnoreCase(id == null ? "" : id.strip())) {
                return m;
            }
        }
        throw new IllegalArgumentException("metric must be one of ttft, e2e, ttft-send, e2e-send, dispatch-lag, "
                + "tpot, ttfb; was '" + id + "'");
    }

    @Override
    public String toString() {
        return id.toLowerCase(Locale.ROOT);
    }
}
