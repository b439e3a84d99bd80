package org.latencylab.engine.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.ErrorParty;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The statistics of a set of requests, fed one finished request at a time: the single code path behind live
 * snapshots, step summaries, whole-run summaries, reopened runs and recovered runs.
 *
 * <p>Each {@link #add} is O(1) amortised (plus O(events) for the inter-token gaps): counters, SLO tallies, one
 * primitive column per metric (4 bytes a sample below 2.1 s, 8 above; no object per value; ITL per token shares
 * ITL's column while every event carries one token), optionally one HdrHistogram per metric for
 * {@linkplain #liveReport() live} summaries, and a {@link SecondSeries} bin. {@link #report()} sorts each column in
 * place once and reads exact order statistics with their confidence intervals ({@link Summaries#ofSorted}); no pass
 * over the records is ever made again. Only {@linkplain RequestRecord#measured() measured} requests are taken;
 * warmup and cooldown requests are counted in {@link #excluded()} and nothing else.
 *
 * <p>Not thread-safe: the owner (e.g. the run engine's result model) synchronizes.
 */
public final class StatsAccumulator {
    /** Points of a live (histogram) CDF. */
    public static final int LIVE_CDF_POINTS = 1000;
    /** Seconds a per-second bin stays open for requests that end out of order before it is summarised. */
    static final int SECOND_GRACE = 2;
    private static final int LIVE_DIGITS = 3;
    private static final int SECOND_DIGITS = 2;

    private final StatsConfig config;
    private final long originNanos;
    private final boolean live;
    private final Metric seriesMetric;
    private final EnumMap<Metric, LongColumn> columns = new EnumMap<>(Metric.class);
    private final EnumMap<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
    private final Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
    private final Map<TokenSource, Long> tokenSources = new EnumMap<>(TokenSource.class);
    private final Map<ErrorKind, String> errorExamples = new EnumMap<>(ErrorKind.class);
    private final Map<ErrorParty, Long> errorParties = new EnumMap<>(ErrorParty.class);
    private final Map<Resend, Long> resent = new EnumMap<>(Resend.class);
    private long resendWastedNanos;
    private long connected;
    private long connectNanosTotal;
    private final List<Slo.Tally> tallies = new ArrayList<>();
    private final TreeMap<Long, Histogram> openSeconds = new TreeMap<>();
    private final List<double[]> closedSeconds = new ArrayList<>();
    private long lastClosedSecond = Long.MIN_VALUE;
    /**
     * True while every event gap seen carried one token, so that ITL per token equals ITL gap for gap: its column is
     * then not kept (ITL's serves both), which halves the samples held for a soak of one-token events.
     */
    private boolean perTokenIsItl = true;
    private long sent;
    private long succeeded;
    private long failed;
    private long cancelled;
    private long excluded;
    private long outputTokens;
    private long good;
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private boolean openLoop;

    /**
     * @param config      percentiles, SLOs (tallied as requests arrive) and the tier rule
     * @param originNanos time origin of the per-second series, in the records' clock ({@link System#nanoTime()} of
     *                    the run start for live records; 0 for records read back from {@code requests.jsonl})
     * @param live        whether to keep HdrHistograms for {@link #liveReport()} and {@link #cdf(Metric, boolean)}
     *                    before the end (a few hundred KB)
     * @throws NullPointerException when {@code config} is null
     */
    public StatsAccumulator(StatsConfig config, long originNanos, boolean live) {
        this.config = Objects.requireNonNull(config, "config");
        this.originNanos = originNanos;
        this.live = live;
        this.seriesMetric = Metric.fromId(config.tierMetric());
        for (Metric m : Metric.values()) {
            columns.put(m, new LongColumn());
            if (live) {
                Histogram h = new Histogram(LIVE_DIGITS);
                h.setAutoResize(true);
                histograms.put(m, h);
            }
        }
        for (Slo s : config.slos()) {
            tallies.add(new Slo.Tally(s));
        }
    }

    /** @return the configuration the requests are judged with */
    public StatsConfig config() {
        return config;
    }

    /**
     * Takes one finished request.
     *
     * @param r a request, any outcome; non-measured requests are only counted as excluded
     */
    public void add(RequestRecord r) {
        if (!r.measured()) {
            excluded++;
            return;
        }
        sent++;
        switch (r.outcome()) {
            case SUCCESS -> {
                succeeded++;
                outputTokens += r.outputTokens();
                tokenSources.merge(r.outputTokenSource(), (long) r.outputTokens(), Long::sum);
                addValues(r);
            }
            case ERROR -> {
                failed++;
                errors.merge(r.errorKind(), 1L, Long::sum);
                errorParties.merge(ErrorParty.of(r.errorKind(), r.errorMessage()), 1L, Long::sum);
                if (r.errorMessage() != null) {
                    errorExamples.putIfAbsent(r.errorKind(), r.errorMessage());
                }
            }
            case CANCELLED -> cancelled++;
        }
        if (r.connectStartNanos() != RequestRecord.UNSET && r.connectEndNanos() != RequestRecord.UNSET) {
            connected++;
            connectNanosTotal += r.connectNanos();
        }
        if (r.resent()) {
            resent.merge(r.resend(), 1L, Long::sum);
            resendWastedNanos += r.resendWastedNanos();
        }
        long start = r.intendedStartNanos() != RequestRecord.UNSET ? r.intendedStartNanos() : r.sendNanos();
        if (start != RequestRecord.UNSET) {
            first = Math.min(first, start);
        }
        if (r.endNanos() != RequestRecord.UNSET) {
            last = Math.max(last, r.endNanos());
        } else if (r.sendNanos() != RequestRecord.UNSET) {
            // a request that failed before any end was stamped (a refused connection) ended at its send at the
            // earliest: leaving it out made a run whose server died mid-run report its sent count over the span of
            // its successes
            last = Math.max(last, r.sendNanos());
        }
        if (r.intendedStartNanos() != RequestRecord.UNSET && r.sendNanos() != RequestRecord.UNSET
                && r.intendedStartNanos() != r.firstSendNanos()) { // a closed loop's re-send is still closed loop
            openLoop = true;
        }
        boolean meetsAll = r.succeeded();
        for (Slo.Tally t : tallies) {
            t.add(r);
        }
        if (meetsAll) {
            for (Slo s : config.slos()) {
                if (!s.meets(r)) {
                    meetsAll = false;
                    break;
                }
            }
        }
        if (meetsAll) {
            good++;
        }
    }

    private void addValues(RequestRecord r) {
        for (Metric m : Metric.values()) {
            if (m.perRequest()) {
                long v = m.valueNanos(r);
                if (v >= 0) {
                    columns.get(m).add(v);
                    if (live) {
                        histograms.get(m).recordValue(v);
                    }
                }
            }
        }
        long[] itl = r.tokens().itlNanos(false);
        long[] perToken = r.tokens().itlNanos(true);
        if (perTokenIsItl && !Arrays.equals(itl, perToken)) {
            columns.get(Metric.ITL_PER_TOKEN).addAll(columns.get(Metric.ITL)); // every earlier gap had one token
            perTokenIsItl = false;
        }
        columns.get(Metric.ITL).addAll(itl);
        if (!perTokenIsItl) {
            columns.get(Metric.ITL_PER_TOKEN).addAll(perToken);
        }
        if (live) {
            recordGaps(histograms.get(Metric.ITL), itl);
            recordGaps(histograms.get(Metric.ITL_PER_TOKEN), perToken);
        }
        if (seriesMetric.perRequest() && r.endNanos() != RequestRecord.UNSET) {
            long v = seriesMetric.valueNanos(r);
            if (v >= 0) {
                addToSecond(Math.floorDiv(r.endNanos() - originNanos, 1_000_000_000L), v);
            }
        }
    }

    private static void recordGaps(Histogram h, long[] gaps) {
        for (long g : gaps) {
            h.recordValue(Math.max(0, g));
        }
    }

    /** @return the samples of a metric (ITL's column for ITL per token while the two are equal) */
    private LongColumn column(Metric m) {
        return m == Metric.ITL_PER_TOKEN && perTokenIsItl ? columns.get(Metric.ITL) : columns.get(m);
    }

    private void addToSecond(long second, long valueNanos) {
        long s = Math.max(second, lastClosedSecond + 1); // a request ending very late for its bin joins the next open one
        while (!openSeconds.isEmpty() && openSeconds.firstKey() < s - SECOND_GRACE) {
            closeFirstSecond();
        }
        openSeconds.computeIfAbsent(s, k -> {
            Histogram h = new Histogram(SECOND_DIGITS);
            h.setAutoResize(true);
            return h;
        }).recordValue(valueNanos);
    }

    private void closeFirstSecond() {
        Map.Entry<Long, Histogram> e = openSeconds.pollFirstEntry();
        closedSeconds.add(row(e.getKey(), e.getValue()));
        lastClosedSecond = e.getKey();
    }

    private static double[] row(long second, Histogram h) {
        return new double[]{second, h.getTotalCount(), Nanos.toMillis(h.getValueAtPercentile(50)),
                Nanos.toMillis(h.getValueAtPercentile(95)), Nanos.toMillis(h.getValueAtPercentile(99)),
                Nanos.toMillis(h.getMaxValue())};
    }

    /** @return warmup and cooldown requests seen (not in the statistics) */
    public long excluded() {
        return excluded;
    }

    /** @return measured requests taken so far */
    public long sent() {
        return sent;
    }

    /**
     * Exact statistics of every measured request taken so far: each metric's column is sorted in place once (later
     * calls find it sorted) and read as order statistics with confidence intervals.
     *
     * @return the report, judged with this accumulator's configuration
     */
    public StatsReport report() {
        return report(config);
    }

    /**
     * As {@link #report()} with other percentiles, tier rule, or without SLOs (e.g. a sweep's lengths or a
     * whole-run summary, which are not judged against SLOs).
     *
     * @param judging configuration; its SLOs must be empty or those this accumulator tallied
     * @return the report
     * @throws IllegalArgumentException when {@code judging} has SLOs other than the tallied ones (SLOs are counted
     *                                  as requests arrive; judging other SLOs needs the records again)
     */
    public StatsReport report(StatsConfig judging) {
        Map<String, MetricSummary> summaries = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            if (skipped(m)) {
                continue;
            }
            LongColumn c = column(m);
            c.sort();
            summaries.put(m.id(), Summaries.ofSorted(m.id(), c.size(), c::sortedAt, judging.percentiles(),
                    judging.confidence()));
        }
        return build(summaries, judging);
    }

    /**
     * Statistics for a live view: the same counts, rates, SLO tallies and tier rule as {@link #report()}, with
     * percentiles read from the HdrHistograms (3 significant digits) instead of sorting the columns.
     *
     * @return the report
     * @throws IllegalStateException when this accumulator keeps no histograms ({@code live == false})
     */
    public StatsReport liveReport() {
        if (!live) {
            throw new IllegalStateException("this accumulator keeps no live histograms");
        }
        Map<String, MetricSummary> summaries = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            if (skipped(m)) {
                continue;
            }
            summaries.put(m.id(), Summaries.of(m.id(), histograms.get(m), config.percentiles(), config.confidence()));
        }
        return build(summaries, config);
    }

    private boolean skipped(Metric m) {
        boolean fromIntended = m == Metric.TTFT_FROM_INTENDED || m == Metric.E2E_FROM_INTENDED
                || m == Metric.DISPATCH_LAG;
        return fromIntended && !openLoop;
    }

    private StatsReport build(Map<String, MetricSummary> summaries, StatsConfig judging) {
        List<SloResult> sloResults = new ArrayList<>();
        if (!judging.slos().isEmpty()) {
            if (!judging.slos().equals(config.slos())) {
                throw new IllegalArgumentException("SLOs are tallied as requests arrive: judge with "
                        + config.slos() + " or none, not " + judging.slos());
            }
            tallies.forEach(t -> sloResults.add(t.result()));
        }
        List<String> warnings = new ArrayList<>();
        // one line per percentile for all metrics (each metric's own lines stay in its summary)
        warnings.addAll(Summaries.sampleSizeNotices(summaries.values()));
        if (sent == 0) {
            warnings.add("no requests");
        } else if (succeeded == 0) {
            warnings.add("no successful requests: latency summaries are empty");
        }
        long span = first != Long.MAX_VALUE && last != Long.MIN_VALUE && last > first ? last - first : 0;
        if (sent > 0 && span == 0) {
            warnings.add("wall span unknown (no start/end timestamps): rates are 0");
        }
        double seconds = Nanos.toSeconds(span);
        long goodCount = judging.slos().isEmpty() ? succeeded : good;
        MetricSummary tierSummary = summaries.get(judging.tierMetric());
        Tier tier = tierSummary == null || tierSummary.count() == 0 ? null
                : judging.tierTable().classify(tierSummary.p(95.0).valueNanos());
        return new StatsReport(summaries, sent, succeeded, failed, cancelled, errors, outputTokens, tokenSources,
                span, rate(outputTokens, seconds), rate(sent, seconds), rate(succeeded, seconds),
                rate(goodCount, seconds), sloResults, judging.tierMetric(), tier, warnings, errorExamples,
                errorParties, resent, resendWastedNanos, connected, connectNanosTotal);
    }

    private static double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }

    /**
     * @param metric a metric
     * @param exact  true: every sample (sorts the column in place, as {@link #report()}); false: evenly spaced
     *               quantiles of the live histogram (needs {@code live})
     * @return the metric's distribution
     * @throws IllegalStateException when {@code exact} is false and no histograms are kept
     */
    public LatencyCdf cdf(Metric metric, boolean exact) {
        if (exact) {
            LongColumn c = column(metric);
            c.sort();
            double[] ms = new double[c.size()];
            for (int i = 0; i < ms.length; i++) {
                ms[i] = Nanos.toMillis(c.sortedAt(i));
            }
            return new LatencyCdf(metric.id(), ms.length, ms, true);
        }
        if (!live) {
            throw new IllegalStateException("this accumulator keeps no live histograms");
        }
        Histogram h = histograms.get(metric);
        long n = h.getTotalCount();
        if (n == 0) {
            return LatencyCdf.empty(metric.id());
        }
        int points = (int) Math.min(n, LIVE_CDF_POINTS);
        double[] ms = new double[points];
        // one pass over the recorded buckets: the i-th point is the value of rank ceil(n·(i+1)/points)
        int i = 0;
        long cumulative = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            cumulative += v.getCountAtValueIteratedTo();
            double value = Nanos.toMillis(h.highestEquivalentValue(v.getValueIteratedTo()));
            while (i < points && cumulative >= (long) Math.ceil((double) n * (i + 1) / points)) {
                ms[i++] = value;
            }
        }
        ms[points - 1] = Nanos.toMillis(h.getMaxValue());
        return new LatencyCdf(metric.id(), n, ms, false);
    }

    /**
     * @return the step's tier metric per second (closed seconds and the ones still open), from the first second
     *         with data to the last, gaps as count 0 and NaN
     */
    public SecondSeries series() {
        List<double[]> rows = new ArrayList<>(closedSeconds);
        openSeconds.forEach((s, h) -> rows.add(row(s, h)));
        if (rows.isEmpty()) {
            return SecondSeries.empty(seriesMetric.id());
        }
        long from = (long) rows.get(0)[0];
        long to = (long) rows.get(rows.size() - 1)[0];
        int n = (int) (to - from + 1);
        double[] sec = new double[n];
        long[] count = new long[n];
        double[][] v = new double[4][n];
        for (int i = 0; i < n; i++) {
            sec[i] = from + i;
            for (double[] col : v) {
                col[i] = Double.NaN;
            }
        }
        for (double[] r : rows) {
            int i = (int) ((long) r[0] - from);
            count[i] = (long) r[1];
            for (int k = 0; k < 4; k++) {
                v[k][i] = r[2 + k];
            }
        }
        return new SecondSeries(seriesMetric.id(), sec, count, v[0], v[1], v[2], v[3]);
    }

    /**
     * Adds another accumulator's requests (counts and samples; its SLO tallies and series are not merged), for a
     * whole-run summary over several steps. The other accumulator is not modified.
     *
     * @param other an accumulator of other requests
     */
    public void absorb(StatsAccumulator other) {
        sent += other.sent;
        succeeded += other.succeeded;
        failed += other.failed;
        cancelled += other.cancelled;
        excluded += other.excluded;
        outputTokens += other.outputTokens;
        good += other.succeeded;
        other.errors.forEach((k, v) -> errors.merge(k, v, Long::sum));
        other.errorExamples.forEach(errorExamples::putIfAbsent);
        other.tokenSources.forEach((k, v) -> tokenSources.merge(k, v, Long::sum));
        first = Math.min(first, other.first);
        last = Math.max(last, other.last);
        openLoop |= other.openLoop;
        if (perTokenIsItl && !other.perTokenIsItl) {
            columns.get(Metric.ITL_PER_TOKEN).addAll(columns.get(Metric.ITL)); // before the other's ITL joins
            perTokenIsItl = false;
        }
        for (Metric m : Metric.values()) {
            if (m != Metric.ITL_PER_TOKEN || !perTokenIsItl) {
                columns.get(m).addAll(other.column(m));
            }
        }
    }
}
