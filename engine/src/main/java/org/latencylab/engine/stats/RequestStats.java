package org.latencylab.engine.stats;

import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Summarizes a list of {@link RequestRecord}s into a {@link StatsReport}. Stateless and thread-safe.
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
        Objects.requireNonNull(config, "config");
        long succeeded = 0;
        long failed = 0;
        long cancelled = 0;
        boolean openLoop = false;
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        Map<TokenSource, Long> tokenSources = new EnumMap<>(TokenSource.class);
        long outputTokens = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        List<RequestRecord> ok = new ArrayList<>();
        for (RequestRecord r : records) {
            switch (r.outcome()) {
                case SUCCESS -> {
                    succeeded++;
                    ok.add(r);
                    outputTokens += r.outputTokens();
                    tokenSources.merge(r.outputTokenSource(), (long) r.outputTokens(), Long::sum);
                }
                case ERROR -> {
                    failed++;
                    errors.merge(r.errorKind(), 1L, Long::sum);
                }
                case CANCELLED -> cancelled++;
            }
            long start = r.intendedStartNanos() != RequestRecord.UNSET ? r.intendedStartNanos() : r.sendNanos();
            if (start != RequestRecord.UNSET) {
                first = Math.min(first, start);
            }
            if (r.endNanos() != RequestRecord.UNSET) {
                last = Math.max(last, r.endNanos());
            }
            if (r.intendedStartNanos() != RequestRecord.UNSET && r.sendNanos() != RequestRecord.UNSET
                    && r.intendedStartNanos() != r.sendNanos()) {
                openLoop = true;
            }
        }
        List<String> warnings = new ArrayList<>();
        Map<String, MetricSummary> summaries = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            boolean fromIntended = m == Metric.TTFT_FROM_INTENDED || m == Metric.E2E_FROM_INTENDED
                    || m == Metric.DISPATCH_LAG;
            if (fromIntended && !openLoop) {
                continue;
            }
            MetricSummary s = Summaries.of(m.id(), values(ok, m), config.percentiles(), config.confidence());
            summaries.put(m.id(), s);
            warnings.addAll(s.warnings());
        }
        if (records.isEmpty()) {
            warnings.add("no requests");
        } else if (succeeded == 0) {
            warnings.add("no successful requests: latency summaries are empty");
        }
        long span = first != Long.MAX_VALUE && last != Long.MIN_VALUE && last > first ? last - first : 0;
        if (!records.isEmpty() && span == 0) {
            warnings.add("wall span unknown (no start/end timestamps): rates are 0");
        }
        double seconds = span / 1e9;
        List<SloResult> sloResults = new ArrayList<>();
        for (Slo slo : config.slos()) {
            sloResults.add(slo.evaluate(records));
        }
        long good = 0;
        for (RequestRecord r : ok) {
            if (config.slos().stream().allMatch(s -> s.meets(r))) {
                good++;
            }
        }
        MetricSummary tierSummary = summaries.get(config.tierMetric());
        Tier tier = tierSummary == null || tierSummary.count() == 0 ? null
                : config.tierTable().classify(tierSummary.p(95.0).valueNanos());
        return new StatsReport(summaries, records.size(), succeeded, failed, cancelled, errors, outputTokens,
                tokenSources, span, rate(outputTokens, seconds), rate(records.size(), seconds),
                rate(succeeded, seconds), rate(good, seconds), sloResults, config.tierMetric(), tier, warnings);
    }

    private static double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }

    private static long[] values(List<RequestRecord> ok, Metric m) {
        if (m == Metric.ITL || m == Metric.ITL_PER_TOKEN) {
            int total = 0;
            for (RequestRecord r : ok) {
                total += Math.max(0, r.tokens().size() - 1);
            }
            long[] out = new long[total];
            int i = 0;
            for (RequestRecord r : ok) {
                long[] gaps = r.tokens().itlNanos(m == Metric.ITL_PER_TOKEN);
                System.arraycopy(gaps, 0, out, i, gaps.length);
                i += gaps.length;
            }
            return out;
        }
        long[] out = new long[ok.size()];
        int n = 0;
        for (RequestRecord r : ok) {
            long v = m.valueNanos(r);
            if (v >= 0) {
                out[n++] = v;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
