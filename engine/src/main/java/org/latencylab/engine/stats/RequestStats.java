package org.latencylab.engine.stats;

import org.latencylab.engine.api.RequestRecord;

import java.util.List;
import java.util.Objects;

/**
 * Summarizes a list of {@link RequestRecord}s into a {@link StatsReport} through a {@link StatsAccumulator} (the
 * same code that summarises requests as they finish). Only measured requests (see
 * {@link RequestRecord#phase()}) are summarised. Stateless and thread-safe.
 *
 * <p>Latency metrics are taken over successful requests only, from exact samples (the metric definitions are
 * {@link RequestRecord}'s derived methods, listed in {@link Metric}); a value a record cannot provide (-1) is skipped.
 * Rates divide by the wall span from the earliest intended start (or send, when no intended start was stamped) to
 * the latest end of any record.
 */
public final class RequestStats {
    private RequestStats() {
    }

    /**
     * @param records the requests, any outcome, any order; not modified
     * @param config  percentiles, SLOs and tier rule
     * @return the report
     * @throws NullPointerException when an argument is null
     */
    public static StatsReport summarize(List<RequestRecord> records, StatsConfig config) {
        Objects.requireNonNull(records, "records");
        StatsAccumulator acc = new StatsAccumulator(config, 0, false);
        records.forEach(acc::add);
        return acc.report();
    }
}
