package org.latencylab.engine.load;

import org.latencylab.engine.api.Nanos;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.stats.Slo;
import org.latencylab.engine.stats.TierTable;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per-second and total statistics of one load step, and its HdrHistogram interval logs.
 *
 * <p>Thread-safe. The dispatcher's counters (sent, dropped) are atomic, so scheduling never waits for a lock; the
 * metrics of an ended request are recorded under one lock (rather than HdrHistogram's lock-free {@code Recorder}) so
 * that all metrics and counters of one request land in the same interval. That lock is held for the few histogram
 * updates of one request only: closing a second swaps the interval's bucket under it and then summarises and writes
 * the interval log outside it (with the lock held for that, request threads and the dispatcher queue behind it at
 * high request rates: JFR {@code jdk.JavaMonitorEnter} shows it).
 */
final class LoadMeter implements AutoCloseable {
    private static final int DIGITS = 3;

    /** Counters and histograms of one interval (or of the whole step). */
    private static final class Bucket {
        final EnumMap<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
        final Map<String, Long> failedByKind = new TreeMap<>();
        long sent;
        long dropped;
        long ended;
        long succeeded;
        long failed;
        long cancelled;
        long rateLimited;
        long serverErrors;
        long http429Attempts;
        long retries;
        long deadlineMisses;
        long goodput;

        /** A bucket with a histogram for every per-request metric. */
        Bucket() {
            for (Metric m : Metric.values()) {
                if (m.perRequest()) {
                    histograms.put(m, new Histogram(DIGITS));
                }
            }
        }

        /** @param metrics the per-request metrics to keep histograms of */
        Bucket(Set<Metric> metrics) {
            for (Metric m : metrics) {
                histograms.put(m, new Histogram(DIGITS));
            }
        }

        void add(RequestRecord r, boolean deadlineMiss, boolean good) {
            ended++;
            switch (r.outcome()) {
                case SUCCESS -> succeeded++;
                case CANCELLED -> cancelled++;
                case ERROR -> {
                    failed++;
                    failedByKind.merge(r.errorKind().id(), 1L, Long::sum);
                    if (r.errorKind() == ErrorKind.RATE_LIMITED) {
                        rateLimited++;
                    }
                    if (r.httpStatus() >= 500 && r.httpStatus() <= 599) {
                        serverErrors++;
                    }
                }
            }
            http429Attempts += r.rateLimitedAttempts();
            retries += Math.max(0, r.attempts() - 1);
            if (deadlineMiss) {
                deadlineMisses++;
            }
            if (good) {
                goodput++;
            }
            if (r.outcome() != Outcome.CANCELLED) {
                for (Map.Entry<Metric, Histogram> e : histograms.entrySet()) {
                    long v = e.getKey().valueNanos(r);
                    if (v >= 0) {
                        e.getValue().recordValue(v);
                    }
                }
            }
        }

        double errorRate() {
            long judged = succeeded + failed;
            return judged == 0 ? 0 : failed / (double) judged;
        }
    }

    private final LoadSpec spec;
    private final Metric tierMetric;
    private final TierTable tiers;
    private final long startEpochMs;
    private final Bucket all = new Bucket();
    private final Bucket measured = new Bucket();
    private final Deque<Bucket> recent = new ArrayDeque<>();
    private final List<LoadSecond> seconds = new ArrayList<>();
    private final Map<String, HistogramLogWriter> writers = new TreeMap<>();
    private final List<PrintStream> streams = new ArrayList<>();
    private final List<String> logFiles = new ArrayList<>();
    /**
     * What a second's bucket keeps histograms of: what its {@link LoadSecond} and the interval logs report, and the
     * tier metric (auto-stop). A histogram of 3 significant digits holding seconds is large, and a bucket of every
     * metric would be allocated every second and held for the auto-stop windows.
     */
    private final Set<Metric> secondMetrics;
    private Bucket current;
    private final Object rollLock = new Object();
    /** Guards the buckets ({@code current}, {@code all}, {@code measured}, {@code recent}, {@code seconds}). */
    private final java.util.concurrent.locks.ReentrantLock endedLock = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.concurrent.ConcurrentLinkedQueue<Ended> endedQueue =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicLong sentNow = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong droppedNow = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong allSent = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong allDropped = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong measuredSent = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param spec         the step
     * @param label        step label (file name prefix)
     * @param startEpochMs wall-clock start of the step, ms since the epoch (interval log time base)
     * @param runDirectory where to write the interval logs, or null for none
     * @param tiers        the run's tier table (the per-second and total tiers are judged with it)
     * @throws IOException when a log cannot be created
     */
    LoadMeter(LoadSpec spec, String label, long startEpochMs, Path runDirectory, TierTable tiers) throws IOException {
        this.spec = spec;
        this.tiers = tiers;
        this.tierMetric = spec.tierMetricKind();
        this.secondMetrics = EnumSet.of(Metric.TTFT_FROM_INTENDED, Metric.TTFT, Metric.E2E_FROM_INTENDED, Metric.E2E,
                Metric.DISPATCH_LAG, tierMetric);
        this.current = new Bucket(secondMetrics);
        this.startEpochMs = startEpochMs;
        if (runDirectory != null) {
            Files.createDirectories(runDirectory);
            String prefix = label.replaceAll("[^A-Za-z0-9._-]", "_");
            for (String metric : List.of("ttft", "e2e", "dispatch-lag")) {
                String name = prefix + "." + metric + org.latencylab.engine.results.RunLayout.HLOG_SUFFIX;
                PrintStream out = new PrintStream(Files.newOutputStream(runDirectory.resolve(name)), false,
                        java.nio.charset.StandardCharsets.UTF_8);
                HistogramLogWriter w = new HistogramLogWriter(out);
                w.outputComment("LatencyLab load step '" + label + "', metric " + metric
                        + ", values in nanoseconds, one interval per second; tag 'intended' = from the intended "
                        + "start, 'send' = from the actual send");
                w.outputLogFormatVersion();
                w.outputStartTime(startEpochMs);
                w.setBaseTime(startEpochMs);
                w.outputLegend();
                writers.put(metric, w);
                streams.add(out);
                logFiles.add(name);
            }
        }
    }

    /** A request was handed to the client. @param isMeasured outside warmup and cooldown */
    void dispatched(boolean isMeasured) {
        sentNow.incrementAndGet();
        allSent.incrementAndGet();
        if (isMeasured) {
            measuredSent.incrementAndGet();
        }
    }

    /** An arrival was dropped at a cap. */
    void dropped() {
        droppedNow.incrementAndGet();
        allDropped.incrementAndGet();
    }

    /**
     * A request ended.
     *
     * @param r            its record (already post-processed)
     * @param isMeasured   outside warmup and cooldown
     * @param deadlineMiss whether it missed the first-token deadline
     */
    void ended(RequestRecord r, boolean isMeasured, boolean deadlineMiss) {
        boolean good = r.succeeded() && meetsSlos(r);
        endedQueue.add(new Ended(r, isMeasured, deadlineMiss, good));
        // drain unless another thread is draining: request threads never queue behind one another here
        do {
            if (!endedLock.tryLock()) {
                return;
            }
            try {
                drainLocked();
            } finally {
                endedLock.unlock();
            }
        } while (!endedQueue.isEmpty());
    }

    private record Ended(RequestRecord r, boolean isMeasured, boolean deadlineMiss, boolean good) {
    }

    /** Applies queued ends to the buckets; the caller holds {@link #endedLock}. */
    private void drainLocked() {
        Ended e;
        while ((e = endedQueue.poll()) != null) {
            current.add(e.r(), e.deadlineMiss(), e.good());
            all.add(e.r(), e.deadlineMiss(), e.good());
            if (e.isMeasured()) {
                measured.add(e.r(), e.deadlineMiss(), e.good());
            }
        }
    }

    /** Runs {@code body} with every queued end applied and no other thread applying ends. */
    private <T> T locked(java.util.function.Supplier<T> body) {
        endedLock.lock();
        try {
            drainLocked();
            return body.get();
        } finally {
            endedLock.unlock();
        }
    }

    private boolean meetsSlos(RequestRecord r) {
        // goodput uses each SLO's threshold per request; a request whose metric is undefined (e.g. TTFT of a
        // non-streamed answer) is not counted as good
        for (Slo slo : spec.slos()) {
            long v = slo.metricKind().valueNanos(r);
            if (v < 0 || v > slo.thresholdNanos()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Closes the current second: computes its entry, writes its interval histograms and starts the next.
     *
     * @param second        index of the second from the step's start
     * @param phase         phase name
     * @param targetRateRps target rate, requests/s
     * @param inFlight      requests in flight now
     * @return the entry
     */
    LoadSecond roll(int second, String phase, double targetRateRps, int inFlight) {
        synchronized (rollLock) { // seconds close one at a time, in order; ended() does not wait for this lock
            return rollSecond(second, phase, targetRateRps, inFlight);
        }
    }

    private LoadSecond rollSecond(int second, String phase, double targetRateRps, int inFlight) {
        Bucket fresh = new Bucket(secondMetrics);
        Bucket b = locked(() -> {
            Bucket old = current;
            current = fresh;
            return old;
        });
        // from here on no other thread touches b: ended() reaches the bucket only through current, under the lock
        b.sent = sentNow.getAndSet(0);
        b.dropped = droppedNow.getAndSet(0);
        long from = startEpochMs + second * 1000L;
        write("ttft", b.histograms.get(Metric.TTFT_FROM_INTENDED), "intended", from);
        write("ttft", b.histograms.get(Metric.TTFT), "send", from);
        write("e2e", b.histograms.get(Metric.E2E_FROM_INTENDED), "intended", from);
        write("e2e", b.histograms.get(Metric.E2E), "send", from);
        write("dispatch-lag", b.histograms.get(Metric.DISPATCH_LAG), null, from);
        LatencyPercentiles ttft = LatencyPercentiles.of(b.histograms.get(Metric.TTFT_FROM_INTENDED));
        LatencyPercentiles e2e = LatencyPercentiles.of(b.histograms.get(Metric.E2E_FROM_INTENDED));
        Histogram tierH = b.histograms.get(tierMetric);
        long tierP95Nanos = tierH.getTotalCount() == 0 ? 0 : tierH.getValueAtPercentile(95);
        Double tierP95 = tierH.getTotalCount() == 0 ? null : Nanos.toMillis(tierP95Nanos);
        String tier = tierH.getTotalCount() == 0 ? null : tierOf(tierP95Nanos);
        LoadSecond s = new LoadSecond(second, phase, targetRateRps, b.sent, b.dropped, b.ended, b.succeeded,
                b.failed, b.cancelled, b.rateLimited, b.serverErrors, b.http429Attempts, b.retries,
                b.deadlineMisses, b.goodput, b.errorRate(), inFlight, ttft.p50Ms(), ttft.p95Ms(), ttft.p99Ms(),
                ttft.jitterMs(), e2e.p50Ms(), e2e.p95Ms(), e2e.p99Ms(), e2e.jitterMs(),
                LatencyPercentiles.of(b.histograms.get(Metric.TTFT)).p99Ms(),
                LatencyPercentiles.of(b.histograms.get(Metric.E2E)).p99Ms(),
                LatencyPercentiles.of(b.histograms.get(Metric.DISPATCH_LAG)).p99Ms(), tierP95, tier);
        b.histograms.keySet().retainAll(Set.of(tierMetric)); // all that auto-stop reads of a past second
        return locked(() -> {
            recent.addLast(b);
            // auto-stop looks back two windows at most; keeping more would only hold histograms (~140 KB each set)
            int keep = spec.autoStop() == null ? 0 : (int) Math.max(1, 2 * spec.autoStop().window().toSeconds());
            while (recent.size() > keep) {
                recent.removeFirst();
            }
            seconds.add(s);
            return s;
        });
    }

    private void write(String metric, Histogram h, String tag, long fromEpochMs) {
        HistogramLogWriter w = writers.get(metric);
        if (w == null) {
            return;
        }
        // the second's own histogram: no other thread records into it any more, and the stamps and tag set here
        // change no count
        h.setStartTimeStamp(fromEpochMs);
        h.setEndTimeStamp(fromEpochMs + 1000);
        h.setTag(tag);
        w.outputIntervalHistogram(h);
    }

    /**
     * Auto-stop check over the recent seconds (see {@link LoadSpec.AutoStop} for the rule).
     *
     * @return a reason text when the step should stop, else null
     */
    String autoStopReason() {
        return locked(this::autoStopReasonLocked);
    }

    private String autoStopReasonLocked() {
        LoadSpec.AutoStop rule = spec.autoStop();
        if (rule == null) {
            return null;
        }
        int w = (int) rule.window().toSeconds();
        if (recent.size() < w) {
            return null;
        }
        List<Bucket> list = new ArrayList<>(recent);
        Bucket last = merge(list.subList(list.size() - w, list.size()));
        if (rule.maxErrorRate() != null && last.succeeded + last.failed >= rule.minSamples()
                && last.errorRate() > rule.maxErrorRate()) {
            return String.format(java.util.Locale.ROOT, "auto-stop: error rate %.3f > %.3f over the last %d s",
                    last.errorRate(), rule.maxErrorRate(), w);
        }
        if (rule.saturation() && list.size() >= 2 * w) {
            Bucket before = merge(list.subList(list.size() - 2 * w, list.size() - w));
            Histogram hb = before.histograms.get(tierMetric);
            Histogram hl = last.histograms.get(tierMetric);
            if (hb.getTotalCount() >= rule.minSamples() && hl.getTotalCount() >= rule.minSamples()) {
                double p95b = hb.getValueAtPercentile(95);
                double p95l = hl.getValueAtPercentile(95);
                double tb = before.ended / (double) w;
                double tl = last.ended / (double) w;
                if (p95l > p95b * rule.latencyRise() && tl < tb * (1 + rule.minThroughputGain())) {
                    return String.format(java.util.Locale.ROOT, "auto-stop: saturation: %s P95 rose %.0f -> %.0f ms "
                                    + "while throughput went %.1f -> %.1f req/s over two %d s windows",
                            tierMetric.id(), Nanos.toMillis(p95b), Nanos.toMillis(p95l), tb, tl, w);
                }
            }
        }
        return null;
    }

    private Bucket merge(List<Bucket> buckets) {
        Bucket m = new Bucket(Set.of(tierMetric));
        for (Bucket b : buckets) {
            m.ended += b.ended;
            m.succeeded += b.succeeded;
            m.failed += b.failed;
            m.histograms.get(tierMetric).add(b.histograms.get(tierMetric));
        }
        return m;
    }

    /** @return true when the current (unrolled) second has anything in it */
    boolean currentHasData() {
        return sentNow.get() + droppedNow.get() > 0 || locked(() -> current.ended > 0);
    }

    /**
     * @param mode            open or closed
     * @param elapsedSeconds  step start to last end, s
     * @param measuredSeconds measured scheduling time, s
     * @param goodputSeconds  the time goodput is counted over, s ({@code LoadRun.goodputSeconds})
     * @param targetRateRps   mean target rate, requests/s
     * @param stopReason      why scheduling stopped
     * @return the totals
     */
    LoadTotals totals(LoadMode mode, double elapsedSeconds, double measuredSeconds, double goodputSeconds,
                      double targetRateRps, String stopReason) {
        return locked(() -> totalsLocked(mode, elapsedSeconds, measuredSeconds, goodputSeconds, targetRateRps,
                stopReason));
    }

    private LoadTotals totalsLocked(LoadMode mode, double elapsedSeconds, double measuredSeconds,
                                    double goodputSeconds, double targetRateRps, String stopReason) {
        Histogram tierH = measured.histograms.get(tierMetric);
        String tier = tierH.getTotalCount() == 0 ? null : tierOf(tierH.getValueAtPercentile(95));
        double secs = measuredSeconds > 0 ? measuredSeconds : Double.NaN;
        return new LoadTotals(mode, elapsedSeconds, measuredSeconds, targetRateRps,
                measuredSeconds > 0 ? measuredSent.get() / secs : 0, allSent.get(), all.succeeded, all.failed,
                all.failedByKind, all.cancelled, allDropped.get(), all.ended - measured.ended, all.http429Attempts,
                all.retries, all.serverErrors, all.deadlineMisses, measured.goodput,
                goodputSeconds > 0 ? measured.goodput / goodputSeconds : 0, measured.errorRate(),
                pct(Metric.TTFT_FROM_INTENDED), pct(Metric.E2E_FROM_INTENDED), pct(Metric.TTFT), pct(Metric.E2E),
                pct(Metric.DISPATCH_LAG), pct(Metric.TPOT), pct(Metric.TTFB), tierMetric.id(), tier,
                stopReason);
    }

    private String tierOf(long p95Nanos) {
        return tiers.classify(p95Nanos).name();
    }

    private LatencyPercentiles pct(Metric m) {
        return LatencyPercentiles.of(measured.histograms.get(m));
    }

    /** @return the seconds rolled so far, in order */
    List<LoadSecond> seconds() {
        return locked(() -> List.copyOf(seconds));
    }

    /** @return interval log file names, relative to the run directory */
    List<String> logFiles() {
        return List.copyOf(logFiles);
    }

    @Override
    public synchronized void close() {
        for (PrintStream s : streams) {
            s.close();
        }
    }
}
