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
            assertThat(e.confidence()).isEqualTo(0.95);
        }
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
        assertThat(s.warnings()).contains("ttft P99 from 50 samples: fewer than 10 samples above it (0.5 expected);"
                + " treat as an estimate of the max");
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
    }
}
