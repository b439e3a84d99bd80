package org.latencylab.engine.stats;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SummariesTest {

    private static long[] shuffled(long[] values, long seed) {
        long[] v = values.clone();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = v.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
        return v;
    }

    @Test
    void exactSummaryMatchesSortedSample() {
        long[] values = new long[1000];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < values.length; i++) {
            values[i] = 1_000_000 + rnd.nextLong(50_000_000);
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        MetricSummary s = Summaries.of("ttft", values);

        assertThat(s.count()).isEqualTo(1000);
        assertThat(s.minNanos()).isEqualTo(sorted[0]);
        assertThat(s.maxNanos()).isEqualTo(sorted[999]);
        // nearest rank: ceil(p*n)-th smallest
        assertThat(s.p(50).valueNanos()).isEqualTo(sorted[499]);
        assertThat(s.p(90).valueNanos()).isEqualTo(sorted[899]);
        assertThat(s.p(99).valueNanos()).isEqualTo(sorted[989]);
        assertThat(s.p(99.9).valueNanos()).isEqualTo(sorted[998]);
        double mean = Arrays.stream(values).average().orElseThrow();
        double var = Arrays.stream(values).mapToDouble(v -> (v - mean) * (v - mean)).sum() / 999;
        assertThat(s.meanNanos()).isCloseTo(mean, within(1e-3));
        assertThat(s.stdDevNanos()).isCloseTo(Math.sqrt(var), within(1e-3 * Math.sqrt(var)));
        assertThat(s.meanMillis()).isCloseTo(mean / 1e6, within(1e-9));
        for (PercentileEstimate e : s.percentiles()) {
            assertThat(e.lowerNanos()).isLessThanOrEqualTo(e.valueNanos());
            assertThat(e.upperNanos()).isGreaterThanOrEqualTo(e.valueNanos());
            assertThat(e.targetConfidence()).isEqualTo(0.95);
            OrderStatisticInterval r = OrderStatisticInterval.of(1000, e.percentile(), 0.95);
            assertThat(e.confidence()).as(e.name())
                    .isCloseTo(binomialCoverage(1000, e.percentile(), r.lowerRank(), r.upperRank()), within(1e-9));
        }
        // P99.9 from 1000 samples cannot reach 95 %: its upper bound is the maximum, which covers only 1 - 0.999^1000
        assertThat(s.percentiles().stream().filter(e -> !e.meetsConfidence()).map(PercentileEstimate::name))
                .containsExactly("P99.9");
        assertThat(s.p(99.9).confidence()).isLessThan(0.95);
        // 1000 samples: P99 has 10 above it (enough), P99.9 has 1 (not enough)
        assertThat(s.p(99).enoughSamples()).isTrue();
        assertThat(s.p(99.9).enoughSamples()).isFalse();
        assertThat(s.warnings()).anyMatch(w -> w.contains("P99.9 from 1000 samples"));
    }

    @Test
    void medianIntervalOfTwentySamplesUsesTextbookRanks() {
        // Hahn & Meeker / Conover tables: for n = 20 the 95 % interval for the median is [x(6), x(15)]
        long[] values = shuffled(new long[]{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160,
                170, 180, 190, 200}, 3);
        PercentileEstimate median = Summaries.of("e2e", values).p(50);
        assertThat(median.valueNanos()).isEqualTo(100);
        assertThat(median.lowerNanos()).isEqualTo(60);
        assertThat(median.upperNanos()).isEqualTo(150);
        OrderStatisticInterval r = OrderStatisticInterval.of(20, 50, 0.95);
        assertThat(r.coverage(20, 50)).isCloseTo(0.9586, within(1e-4));
    }

    @Test
    void exactCoverageOfRanksIsAtLeastNominal() {
        for (long n : new long[]{30, 100, 367, 1000, 12345}) {
            for (double p : new double[]{50, 90, 95, 99}) {
                OrderStatisticInterval r = OrderStatisticInterval.of(n, p, 0.95);
                if (!r.upperClamped() && !r.lowerClamped()) {
                    assertThat(r.coverage(n, p)).as("n=%d p=%s", n, p).isGreaterThanOrEqualTo(0.95);
                }
            }
        }
        // 50 samples cannot bound a P99 from above: the max is all there is
        assertThat(OrderStatisticInterval.of(50, 99, 0.95).upperClamped()).isTrue();
    }

    @Test
    void intervalCoversTrueQuantileInAboutNinetyFivePercentOfDraws() {
        // Exponential with mean 100 ms: true P99 = -ln(0.01) * 100 ms, true P50 = ln 2 * 100 ms
        double meanNanos = 100e6;
        double trueP99 = -Math.log(0.01) * meanNanos;
        double trueP50 = Math.log(2) * meanNanos;
        SplittableRandom rnd = new SplittableRandom(20240611L);
        int draws = 400;
        int covered99 = 0;
        int covered50 = 0;
        for (int d = 0; d < draws; d++) {
            long[] sample = new long[2000];
            for (int i = 0; i < sample.length; i++) {
                sample[i] = (long) (-Math.log(1 - rnd.nextDouble()) * meanNanos);
            }
            MetricSummary s = Summaries.of("e2e", sample);
            PercentileEstimate p99 = s.p(99);
            PercentileEstimate p50 = s.p(50);
            if (p99.lowerNanos() <= trueP99 && trueP99 <= p99.upperNanos()) {
                covered99++;
            }
            if (p50.lowerNanos() <= trueP50 && trueP50 <= p50.upperNanos()) {
                covered50++;
            }
        }
        assertThat(covered99 / (double) draws).isBetween(0.92, 0.99);
        assertThat(covered50 / (double) draws).isBetween(0.92, 0.99);
    }

    @Test
    void fewSamplesAreFlagged() {
        long[] values = new long[50];
        for (int i = 0; i < 50; i++) {
            values[i] = (i + 1) * 1_000_000L;
        }
        MetricSummary s = Summaries.of("ttft", values);
        assertThat(s.p(99).enoughSamples()).isFalse();
        assertThat(s.p(99).valueNanos()).isEqualTo(50_000_000L);
        assertThat(s.p(99).upperNanos()).isEqualTo(50_000_000L);
        assertThat(s.p(50).enoughSamples()).isTrue();
        // ranks [48, 50]: coverage P(48 <= B <= 49), B ~ Binomial(50, 0.99), = 0.381
        assertThat(s.p(99).confidence()).isCloseTo(binomialCoverage(50, 99, 48, 50), within(1e-9))
                .isCloseTo(0.381, within(1e-3));
        assertThat(s.warnings()).contains("ttft P99 from 50 samples: fewer than 10 samples above it (0.5 expected);"
                + " treat as an estimate of the max; the interval [x(48), max] covers only 38 % (target 95 %)");
        assertThat(s.allPercentilesMeasured()).isFalse();
        assertThat(PercentileEstimate.hasEnoughSamples(1000, 99)).isTrue();
        assertThat(PercentileEstimate.hasEnoughSamples(999, 99)).isFalse();
    }

    @Test
    void histogramSummaryAgreesWithExactWithinPrecision() {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] values = new long[20_000];
        Histogram h = new Histogram(3);
        h.setAutoResize(true);
        for (int i = 0; i < values.length; i++) {
            values[i] = (long) (Math.exp(rnd.nextGaussian() * 0.5) * 200e6);
            h.recordValue(values[i]);
        }
        MetricSummary exact = Summaries.of("ttft", values);
        MetricSummary hist = Summaries.of("ttft", h);
        assertThat(hist.count()).isEqualTo(exact.count());
        for (double p : MetricSummary.DEFAULT_PERCENTILES) {
            PercentileEstimate e = exact.p(p);
            PercentileEstimate x = hist.p(p);
            assertThat((double) x.valueNanos()).as("P%s", p).isCloseTo(e.valueNanos(), within(e.valueNanos() * 1e-3));
            assertThat((double) x.lowerNanos()).isCloseTo(e.lowerNanos(), within(e.lowerNanos() * 1e-3));
            assertThat((double) x.upperNanos()).isCloseTo(e.upperNanos(), within(e.upperNanos() * 1e-3));
        }
        assertThat(hist.stdDevNanos()).isCloseTo(exact.stdDevNanos(), within(exact.stdDevNanos() * 2e-3));
    }

    @Test
    void emptyAndInvalidInput() {
        MetricSummary empty = Summaries.of("itl", new long[0]);
        assertThat(empty.count()).isZero();
        assertThat(empty.percentiles()).isEmpty();
        assertThat(empty.warnings()).containsExactly("itl: no samples");
        assertThatThrownBy(() -> empty.p(99)).hasMessageContaining("no P99");
        assertThatThrownBy(() -> Summaries.of("ttft", new long[]{5, -1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("ttft: values must be >= 0 ns, value[1] was -1");
        assertThatThrownBy(() -> Summaries.of("ttft", new long[]{5}, List.of(100.0), 0.95))
                .hasMessageContaining("percentile must be in (0, 100), was 100.0");
        assertThatThrownBy(() -> new PercentileEstimate(99, 5, 6, 7, 0.95, true))
                .hasMessageContaining("lower <= value <= upper");
        assertThatThrownBy(() -> new PercentileEstimate(99, 5, 5, 7, 1.2, 0.95, true))
                .hasMessage("P99: confidence (actual coverage) must be in [0, 1], was 1.2");
        assertThatThrownBy(() -> new PercentileEstimate(99, 5, 5, 7, 0.5, 1.0, true))
                .hasMessage("P99: target confidence must be in (0, 1), was 1.0");
    }

    // ---- actual coverage of small-sample intervals ----

    /**
     * P(l <= B <= u - 1) for B ~ Binomial(n, p/100), summed term by term in log space (independent of the Commons
     * Math CDF the code under test uses).
     */
    private static double binomialCoverage(long n, double percentile, long lowerRank, long upperRank) {
        double p = percentile / 100;
        double sum = 0;
        for (long k = lowerRank; k <= upperRank - 1; k++) {
            double logChoose = 0;
            for (long i = 1; i <= k; i++) {
                logChoose += Math.log((double) (n - k + i) / i);
            }
            sum += Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log1p(-p));
        }
        return sum;
    }

    @Test
    void medianOfThreeSamplesIsMinToMaxWithCoverageThreeQuarters() {
        MetricSummary s = Summaries.of("ttft", new long[]{300, 100, 200});
        PercentileEstimate median = s.p(50);
        assertThat(median.valueNanos()).isEqualTo(200);
        assertThat(median.lowerNanos()).isEqualTo(100);
        assertThat(median.upperNanos()).isEqualTo(300);
        // P(1 <= B <= 2) for B ~ Binomial(3, 1/2) = 6/8
        assertThat(median.confidence()).isCloseTo(0.75, within(1e-12));
        assertThat(median.targetConfidence()).isEqualTo(0.95);
        assertThat(median.meetsConfidence()).isFalse();
        assertThat(s.warnings()).anyMatch(w -> w.startsWith("ttft P50 from 3 samples:")
                && w.endsWith("the interval [min, max] covers only 75 % (target 95 %)"));
    }

    @Test
    void p95OfFiveSamplesReportsItsRealCoverage() {
        long[] values = {1_100_000_000L, 900_000_000L, 1_000_000_000L, 700_000_000L, 800_000_000L};
        MetricSummary s = Summaries.of("e2e", values);
        PercentileEstimate p95 = s.p(95);
        // ranks [4, 5]: the lower tail of Binomial(5, 0.95) allows x(4), the upper bound runs past the sample
        assertThat(p95.valueNanos()).isEqualTo(1_100_000_000L);
        assertThat(p95.lowerNanos()).isEqualTo(1_000_000_000L);
        assertThat(p95.upperNanos()).isEqualTo(1_100_000_000L);
        assertThat(p95.confidence()).isCloseTo(binomialCoverage(5, 95, 4, 5), within(1e-12))
                .isCloseTo(5 * Math.pow(0.95, 4) * 0.05, within(1e-12))
                .isLessThan(0.95);
        assertThat(p95.meetsConfidence()).isFalse();
        assertThat(s.warnings()).contains("e2e P95 from 5 samples: fewer than 10 samples above it (0.3 expected);"
                + " treat as an estimate of the max; the interval [x(4), max] covers only 20 % (target 95 %)");
    }

    @Test
    void tailOfTenSamplesIsNeverAZeroWidthInterval() {
        long[] values = new long[10];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i + 1) * 35_000_000L;
        }
        PercentileEstimate p999 = Summaries.of("e2e", shuffled(values, 5)).p(99.9);
        // both ideal ranks run past the maximum; the interval is widened to [x(9), x(10)]
        assertThat(p999.lowerNanos()).isEqualTo(315_000_000L);
        assertThat(p999.upperNanos()).isEqualTo(350_000_000L);
        assertThat(p999.confidence()).isCloseTo(10 * Math.pow(0.999, 9) * 0.001, within(1e-12));
        assertThat(p999.meetsConfidence()).isFalse();
    }

    @Test
    void singleSampleHasZeroCoverage() {
        MetricSummary s = Summaries.of("ttfb", new long[]{42_000_000L});
        for (PercentileEstimate e : s.percentiles()) {
            assertThat(e.lowerNanos()).isEqualTo(42_000_000L);
            assertThat(e.upperNanos()).isEqualTo(42_000_000L);
            assertThat(e.confidence()).as(e.name()).isZero();
            assertThat(e.meetsConfidence()).isFalse();
        }
        assertThat(s.warnings()).anyMatch(w -> w.contains("P50 from 1 samples") && w.contains("covers only 0 %"));
    }

    @Test
    void p99OfTwoThousandSamplesMeetsTheTarget() {
        long[] values = new long[2000];
        SplittableRandom rnd = new SplittableRandom(99);
        for (int i = 0; i < values.length; i++) {
            values[i] = 5_000_000 + rnd.nextLong(500_000_000);
        }
        MetricSummary s = Summaries.of("ttft", values);
        PercentileEstimate p99 = s.p(99);
        assertThat(p99.confidence()).isGreaterThanOrEqualTo(0.95);
        assertThat(p99.meetsConfidence()).isTrue();
        OrderStatisticInterval r = OrderStatisticInterval.of(2000, 99, 0.95);
        assertThat(p99.confidence()).isCloseTo(binomialCoverage(2000, 99, r.lowerRank(), r.upperRank()), within(1e-9));
        assertThat(s.warnings()).noneMatch(w -> w.contains("P99 "));
    }

    @Test
    void reportedCoverageMatchesTheRanksForEverySmallSample() {
        for (int n = 1; n <= 60; n++) {
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = (i + 1) * 1_000L;
            }
            MetricSummary s = Summaries.of("itl", shuffled(values, n), List.of(10.0, 50.0, 90.0, 95.0, 99.0, 99.9),
                    0.95);
            for (PercentileEstimate e : s.percentiles()) {
                // values are (rank * 1000) ns, so the bounds give the ranks back
                long l = e.lowerNanos() / 1_000;
                long u = e.upperNanos() / 1_000;
                String what = "n=" + n + " " + e.name();
                if (n >= 2) {
                    assertThat(l).as(what).isLessThan(u);
                }
                double coverage = binomialCoverage(n, e.percentile(), l, u);
                assertThat(e.confidence()).as(what).isCloseTo(coverage, within(1e-9));
                assertThat(e.meetsConfidence()).as(what).isEqualTo(coverage >= 0.95 - 1e-9);
                // unclamped ranks always reach the target; a clamped bound may still reach it
                // (n = 31, P10: the ideal lower rank is 0, yet [min, x(8)] covers 95.2 %)
                OrderStatisticInterval r = OrderStatisticInterval.of(n, e.percentile(), 0.95);
                if (!r.lowerClamped() && !r.upperClamped()) {
                    assertThat(e.meetsConfidence()).as(what).isTrue();
                }
                assertThat(s.warnings().stream().anyMatch(w -> w.startsWith("itl " + e.name() + " from")
                        && w.contains("covers only"))).as(what).isEqualTo(!e.meetsConfidence());
            }
        }
    }

    @Test
    void histogramSummaryReportsTheSameCoverage() {
        for (int n : new int[]{3, 5, 10, 2000}) {
            long[] values = new long[n];
            Histogram h = new Histogram(3);
            h.setAutoResize(true);
            SplittableRandom rnd = new SplittableRandom(n);
            for (int i = 0; i < n; i++) {
                values[i] = 1_000_000 + rnd.nextLong(900_000_000);
                h.recordValue(values[i]);
            }
            MetricSummary exact = Summaries.of("e2e", values);
            MetricSummary hist = Summaries.of("e2e", h);
            for (PercentileEstimate e : exact.percentiles()) {
                PercentileEstimate x = hist.p(e.percentile());
                assertThat(x.confidence()).as("n=%d %s", n, e.name()).isEqualTo(e.confidence());
                assertThat(x.targetConfidence()).isEqualTo(0.95);
                assertThat(x.meetsConfidence()).isEqualTo(e.meetsConfidence());
            }
            assertThat(hist.warnings()).isEqualTo(exact.warnings());
        }
        Histogram three = new Histogram(3);
        three.recordValue(100_000);
        three.recordValue(200_000);
        three.recordValue(300_000);
        PercentileEstimate median = Summaries.of("ttft", three).p(50);
        assertThat(median.confidence()).isCloseTo(0.75, within(1e-12));
        assertThat(median.meetsConfidence()).isFalse();
        assertThat(median.lowerNanos()).isEqualTo(three.highestEquivalentValue(100_000));
        assertThat(median.upperNanos()).isEqualTo(three.highestEquivalentValue(300_000));
    }

    @Test
    void aShortfallNeverReadsAsItsTarget() {
        assertThat(PercentileEstimate.coveragePercent(0.948, 0.95)).isEqualTo("94.8");
        assertThat(PercentileEstimate.coveragePercent(0.9499, 0.95)).isEqualTo("94.99");
        assertThat(PercentileEstimate.coveragePercent(0.75, 0.95)).isEqualTo("75");
        assertThat(PercentileEstimate.coveragePercent(0.0098, 0.95)).isEqualTo("0.98");
        assertThat(PercentileEstimate.coveragePercent(0.95, 0.95)).isEqualTo("95");
    }
}
