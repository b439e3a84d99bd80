package org.latencylab.engine.stats;

import org.HdrHistogram.AbstractHistogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntToLongFunction;

/**
 * Builds {@link MetricSummary}s from exact samples or from an HdrHistogram. Stateless and thread-safe.
 *
 * <p>Point estimates use the nearest-rank definition (the ⌈p·n⌉-th smallest sample, Hyndman &amp; Fan type 1), which
 * is always an observed value and matches HdrHistogram's {@code getValueAtPercentile}. Confidence intervals are the
 * order-statistic intervals of {@link OrderStatisticInterval}; the sample-size rule is
 * {@link PercentileEstimate#hasEnoughSamples}. Each estimate carries the exact coverage of the ranks it used
 * ({@link PercentileEstimate#confidence()}) next to the requested level ({@link PercentileEstimate#targetConfidence()});
 * when a sample is too small for the requested level, the summary's warning for that percentile says how much the
 * interval does cover.
 */
public final class Summaries {
    /** Default confidence level of percentile intervals: 0.95. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    private Summaries() {
    }

    /**
     * Summary from exact samples with the default percentiles and 95 % intervals.
     *
     * @param metric      metric name, e.g. {@code "ttft"}
     * @param valuesNanos samples in nanoseconds, each &gt;= 0, any order; not modified; may be empty
     * @return the summary
     * @throws IllegalArgumentException when a value is negative or the name is blank
     */
    public static MetricSummary of(String metric, long[] valuesNanos) {
        return of(metric, valuesNanos, MetricSummary.DEFAULT_PERCENTILES, DEFAULT_CONFIDENCE);
    }

    /**
     * Summary from exact samples.
     *
     * @param metric      metric name
     * @param valuesNanos samples in nanoseconds, each &gt;= 0; not modified; may be empty
     * @param percentiles percentiles in percent, each in (0, 100)
     * @param confidence  requested confidence level of the intervals, in (0, 1); each estimate keeps it as
     *                    {@code targetConfidence} and reports the coverage it reached as {@code confidence}
     * @return the summary
     * @throws IllegalArgumentException when a value is negative or an argument is out of range
     */
    public static MetricSummary of(String metric, long[] valuesNanos, List<Double> percentiles, double confidence) {
        for (int i = 0; i < valuesNanos.length; i++) {
            if (valuesNanos[i] < 0) {
                throw new IllegalArgumentException(metric + ": values must be >= 0 ns, value[" + i + "] was "
                        + valuesNanos[i]);
            }
        }
        long[] sorted = valuesNanos.clone();
        Arrays.sort(sorted);
        return ofSorted(metric, sorted, percentiles, confidence);
    }

    /**
     * Summary from exact samples that are already sorted (no copy is made: a soak's millions of gaps are
     * summarised in place).
     *
     * @param metric      metric name
     * @param sorted      samples in nanoseconds, ascending, each &gt;= 0; not modified; may be empty
     * @param percentiles percentiles in percent, each in (0, 100)
     * @param confidence  requested confidence level of the intervals, in (0, 1)
     * @return the summary
     * @throws IllegalArgumentException when a value is negative or an argument is out of range
     */
    public static MetricSummary ofSorted(String metric, long[] sorted, List<Double> percentiles, double confidence) {
        return ofSorted(metric, sorted.length, i -> sorted[i], percentiles, confidence);
    }

    /**
     * As {@link #ofSorted(String, long[], List, double)} over samples read by rank, so that a compact column (e.g.
     * 4-byte values, see {@code LongColumn}) is summarised without a {@code long[]} copy of it.
     *
     * @param metric      metric name
     * @param n           number of samples, &gt;= 0
     * @param sortedAt    the sample of a 0-based rank in [0, n), in nanoseconds, ascending with the rank, each &gt;= 0
     * @param percentiles percentiles in percent, each in (0, 100)
     * @param confidence  requested confidence level of the intervals, in (0, 1)
     * @return the summary
     * @throws IllegalArgumentException when the smallest value is negative or an argument is out of range
     */
    static MetricSummary ofSorted(String metric, int n, IntToLongFunction sortedAt, List<Double> percentiles,
                                  double confidence) {
        if (n == 0) {
            return empty(metric);
        }
        long min = sortedAt.applyAsLong(0);
        if (min < 0) {
            throw new IllegalArgumentException(metric + ": values must be >= 0 ns, the smallest was " + min);
        }
        // Welford's update: stable for large nanosecond values
        double mean = 0;
        double m2 = 0;
        for (int i = 0; i < n; i++) {
            long v = sortedAt.applyAsLong(i);
            double d = v - mean;
            mean += d / (i + 1);
            m2 += d * (v - mean);
        }
        double sd = n > 1 ? Math.sqrt(m2 / (n - 1)) : Double.NaN;
        List<PercentileEstimate> ests = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (double p : sortedPercentiles(percentiles)) {
            OrderStatisticInterval r = OrderStatisticInterval.of(n, p, confidence);
            ests.add(estimate(metric, n, p, confidence, r, sortedAt.applyAsLong((int) r.pointRank() - 1),
                    sortedAt.applyAsLong((int) r.lowerRank() - 1), sortedAt.applyAsLong((int) r.upperRank() - 1),
                    warnings));
        }
        return new MetricSummary(metric, n, mean, sd, min, ests, sortedAt.applyAsLong(n - 1), warnings);
    }

    /**
     * Summary from a histogram with the default percentiles and 95 % intervals.
     *
     * @param metric    metric name
     * @param histogram values in nanoseconds (e.g. a {@link StatsAccumulator}'s live histograms); not modified
     * @return the summary; values are HdrHistogram bucket values (within the histogram's precision, 0.1 % at 3
     *         significant digits)
     * @throws IllegalArgumentException when the name is blank or the histogram holds more than 2^31−1 values
     */
    public static MetricSummary of(String metric, AbstractHistogram histogram) {
        return of(metric, histogram, MetricSummary.DEFAULT_PERCENTILES, DEFAULT_CONFIDENCE);
    }

    /**
     * Summary from a histogram. The interval ranks are the same as for exact samples; the value at a rank is read
     * with {@code getValueAtPercentile}. The standard deviation is rescaled from HdrHistogram's population value to
     * the sample (n − 1) definition used for exact samples.
     *
     * @param metric      metric name
     * @param histogram   values in nanoseconds; not modified
     * @param percentiles percentiles in percent, each in (0, 100)
     * @param confidence  requested confidence level, in (0, 1); as for exact samples, each estimate reports the
     *                    coverage of its ranks (the same ranks, so the same coverage, as for exact samples)
     * @return the summary
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static MetricSummary of(String metric, AbstractHistogram histogram, List<Double> percentiles,
                                   double confidence) {
        long n = histogram.getTotalCount();
        if (n == 0) {
            return empty(metric);
        }
        double sd = n > 1 ? histogram.getStdDeviation() * Math.sqrt((double) n / (n - 1)) : Double.NaN;
        List<PercentileEstimate> ests = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (double p : sortedPercentiles(percentiles)) {
            OrderStatisticInterval r = OrderStatisticInterval.of(n, p, confidence);
            ests.add(estimate(metric, n, p, confidence, r, valueAtRank(histogram, r.pointRank()),
                    valueAtRank(histogram, r.lowerRank()), valueAtRank(histogram, r.upperRank()), warnings));
        }
        return new MetricSummary(metric, n, histogram.getMean(), sd, histogram.getMinValue(), ests,
                histogram.getMaxValue(), warnings);
    }

    private static long valueAtRank(AbstractHistogram h, long rank) {
        // getValueAtPercentile(q) returns the value of the ceil(q/100 * n)-th smallest sample; aiming half a rank
        // low keeps floating-point rounding from stepping to the next rank.
        double q = 100.0 * (rank - 0.5) / h.getTotalCount();
        return h.highestEquivalentValue(h.getValueAtPercentile(q));
    }

    private static PercentileEstimate estimate(String metric, long n, double p, double confidence,
                                               OrderStatisticInterval r, long value, long lower, long upper,
                                               List<String> warnings) {
        boolean enough = PercentileEstimate.hasEnoughSamples(n, p);
        double coverage = r.coverage(n, p);
        PercentileEstimate e = new PercentileEstimate(p, value, Math.min(lower, value), Math.max(upper, value),
                coverage, confidence, enough);
        String shortfall = e.meetsConfidence() ? "" : String.format(Locale.ROOT,
                "the interval [%s, %s] covers only %s %% (target %s %%)", rankName(r.lowerRank(), n),
                rankName(r.upperRank(), n), PercentileEstimate.coveragePercent(coverage, confidence),
                PercentileEstimate.percent(confidence));
        if (!enough) {
            double above = n * (1 - p / 100);
            warnings.add(String.format(Locale.ROOT, "%s %s from %d samples: fewer than %d samples above it (%.1f expected);"
                            + " treat as an estimate of the max%s", metric, e.name(), n,
                    PercentileEstimate.MIN_SAMPLES_ABOVE, above, shortfall.isEmpty() ? "" : "; " + shortfall));
        } else if (!shortfall.isEmpty()) {
            warnings.add(String.format(Locale.ROOT, "%s %s from %d samples: %s", metric, e.name(), n, shortfall));
        }
        return e;
    }

    /** "min", "max" or "x(k)", the k-th smallest sample. */
    private static String rankName(long rank, long n) {
        return rank == n ? "max" : rank == 1 ? "min" : "x(" + rank + ")";
    }

    /**
     * The sample-size notices of several metrics of one set of requests (a step, a run), one line per percentile
     * instead of one per metric and percentile: the metrics of a step share their sample sizes, so "P99.9 rests on
     * too few samples" would otherwise be said once for every metric. The per-metric lines stay in each
     * {@link MetricSummary#warnings()}; the other warnings of a summary (e.g. {@code "itl: no samples"}) are kept
     * as they are, after the collapsed lines.
     *
     * @param summaries the metrics' summaries, in display order; not null
     * @return e.g. {@code "P99.9: fewer than 10 samples above it in ttft, e2e (8 samples) and itl (16 samples); treat
     *         as an estimate of the max; the interval covers only 0.79–1.6 % (target 95 %)"}, in ascending percentile
     *         order; empty when every percentile rests on enough samples
     */
    public static List<String> sampleSizeNotices(java.util.Collection<MetricSummary> summaries) {
        java.util.TreeMap<Double, List<Thin>> thin = new java.util.TreeMap<>();
        List<String> other = new ArrayList<>();
        for (MetricSummary m : summaries) {
            if (m.count() == 0) {
                other.addAll(m.warnings());
                continue;
            }
            for (PercentileEstimate e : m.percentiles()) {
                if (!e.enoughSamples() || !e.meetsConfidence()) {
                    thin.computeIfAbsent(e.percentile(), k -> new ArrayList<>()).add(new Thin(m.metric(), m.count(), e));
                }
            }
        }
        List<String> lines = new ArrayList<>();
        thin.forEach((p, entries) -> {
            List<String> parts = new ArrayList<>();
            String few = bySampleSize(entries.stream().filter(x -> !x.e().enoughSamples()).toList());
            if (!few.isEmpty()) {
                parts.add(String.format(Locale.ROOT, "fewer than %d samples above it in %s; treat as an estimate of the"
                        + " max", PercentileEstimate.MIN_SAMPLES_ABOVE, few));
            }
            List<PercentileEstimate> shortCover = entries.stream().map(Thin::e).filter(e -> !e.meetsConfidence()).toList();
            if (!shortCover.isEmpty()) {
                double lo = shortCover.stream().mapToDouble(PercentileEstimate::confidence).min().orElseThrow();
                double hi = shortCover.stream().mapToDouble(PercentileEstimate::confidence).max().orElseThrow();
                String enough = bySampleSize(entries.stream().filter(x -> x.e().enoughSamples()
                        && !x.e().meetsConfidence()).toList());
                parts.add((enough.isEmpty() ? "" : "in " + enough + " ") + "the interval covers only "
                        + (PercentileEstimate.percent(lo).equals(PercentileEstimate.percent(hi))
                        ? PercentileEstimate.percent(lo)
                        : PercentileEstimate.percent(lo) + "–" + PercentileEstimate.percent(hi))
                        + " % (target " + PercentileEstimate.percent(shortCover.get(0).targetConfidence()) + " %)");
            }
            lines.add("P" + PercentileEstimate.label(p) + ": " + String.join("; ", parts));
        });
        lines.addAll(other);
        return lines;
    }

    /** A percentile of one metric that rests on too few samples or whose interval falls short of its target. */
    private record Thin(String metric, long n, PercentileEstimate e) {
    }

    /** "ttft, e2e (8 samples) and itl (16 samples)": metrics grouped by their sample size, smallest first. */
    private static String bySampleSize(List<Thin> entries) {
        java.util.TreeMap<Long, List<String>> byN = new java.util.TreeMap<>();
        entries.forEach(x -> byN.computeIfAbsent(x.n(), k -> new ArrayList<>()).add(x.metric()));
        List<String> groups = new ArrayList<>();
        byN.forEach((n, metrics) -> groups.add(String.join(", ", metrics) + " (" + n + " samples)"));
        return groups.size() <= 1 ? String.join("", groups)
                : String.join(", ", groups.subList(0, groups.size() - 1)) + " and " + groups.get(groups.size() - 1);
    }

    private static double[] sortedPercentiles(List<Double> percentiles) {
        double[] ps = percentiles.stream().mapToDouble(Double::doubleValue).sorted().distinct().toArray();
        for (double p : ps) {
            if (!(p > 0 && p < 100)) {
                throw new IllegalArgumentException("percentile must be in (0, 100), was " + p);
            }
        }
        return ps;
    }

    private static MetricSummary empty(String metric) {
        return new MetricSummary(metric, 0, Double.NaN, Double.NaN, 0, List.of(), 0,
                List.of(metric + ": no samples"));
    }
}
