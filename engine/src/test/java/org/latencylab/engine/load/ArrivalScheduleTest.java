package org.latencylab.engine.load;

import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ArrivalScheduleTest {

    @Test
    void constantScheduleIsAbsoluteAndDoesNotDrift() {
        ArrivalSchedule s = new ArrivalSchedule(RateProfile.constant(3), ArrivalProcess.CONSTANT, 1, 1);
        long last = 0;
        for (int n = 0; n < 300_000; n++) {
            last = s.next();
            // n-th start is at n/3 s exactly (rounded to the ns), never a sum of rounded gaps
            assertThat(last).isCloseTo(Math.round(n * 1e9 / 3), within(1L));
        }
        assertThat(last).isCloseTo(99_999_666_666_667L, within(1L));
    }

    @Test
    void poissonGapsAreExponentialWithTheTargetMean() {
        ArrivalSchedule s = new ArrivalSchedule(RateProfile.constant(500), ArrivalProcess.POISSON, 1, 7);
        double[] gaps = new double[20_000];
        long prev = 0;
        for (int i = 0; i < gaps.length; i++) {
            long t = s.next();
            gaps[i] = (t - prev) / 1e9;
            prev = t;
        }
        double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(1 / 500.0), gaps);
        assertThat(p).isGreaterThan(0.01);
        double pWrong = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(new ExponentialDistribution(1 / 450.0), gaps);
        assertThat(pWrong).as("the test can tell a 10 %% different rate").isLessThan(0.01);
    }

    @Test
    void gammaGapsHaveCoefficientOfVariationOneOverSqrtShape() {
        for (double shape : new double[] {0.25, 4}) {
            ArrivalSchedule s = new ArrivalSchedule(RateProfile.constant(100), ArrivalProcess.GAMMA, shape, 3);
            SummaryStatistics st = new SummaryStatistics();
            long prev = 0;
            for (int i = 0; i < 50_000; i++) {
                long t = s.next();
                st.addValue(t - prev);
                prev = t;
            }
            assertThat(st.getMean() / 1e9).isCloseTo(0.01, within(0.0005));
            assertThat(st.getStandardDeviation() / st.getMean()).isCloseTo(1 / Math.sqrt(shape), within(0.05));
        }
    }

    @Test
    void sameSeedSameScheduleOtherSeedOther() {
        ArrivalSchedule a = new ArrivalSchedule(RateProfile.constant(50), ArrivalProcess.POISSON, 1, 11);
        ArrivalSchedule b = new ArrivalSchedule(RateProfile.constant(50), ArrivalProcess.POISSON, 1, 11);
        ArrivalSchedule c = new ArrivalSchedule(RateProfile.constant(50), ArrivalProcess.POISSON, 1, 12);
        boolean differs = false;
        for (int i = 0; i < 100; i++) {
            long x = a.next();
            assertThat(b.next()).isEqualTo(x);
            differs |= c.next() != x;
        }
        assertThat(differs).isTrue();
    }

    @Test
    void rampPlacesArrivalsByTheIntegralOfTheRate() {
        // 0 -> 200 req/s over 10 s: expected arrivals by t = 10 t^2; 1000 in total; half of them after 7.07 s
        RateProfile ramp = RateProfile.builder().ramp(10_000_000_000L, 0, 200).build();
        ArrivalSchedule s = new ArrivalSchedule(ramp, ArrivalProcess.CONSTANT, 1, 1);
        long[] t = new long[1001];
        for (int i = 0; i <= 1000; i++) {
            t[i] = s.next();
        }
        assertThat(t[500] / 1e9).isCloseTo(Math.sqrt(50), within(1e-6));
        assertThat(t[1000] / 1e9).isCloseTo(10, within(1e-6));
        assertThat(ramp.rateAt(5_000_000_000L)).isCloseTo(100, within(1e-9));
    }

    @Test
    void rateProfileInverseMatchesCumulativeAcrossSegments() {
        RateProfile p = RateProfile.builder().hold(2_000_000_000L, 50).ramp(3_000_000_000L, 50, 400)
                .ramp(1_000_000_000L, 400, 0).build();
        for (double count = 0.5; count < p.expectedCount(p.segmentsNanos()); count += 7.3) {
            long t = p.timeOfCount(count);
            assertThat(p.expectedCount(t)).isCloseTo(count, within(1e-3));
        }
        // the rate falls to 0 for good at the end: nothing beyond the last expected arrival
        assertThat(p.timeOfCount(p.expectedCount(p.segmentsNanos()) + 1)).isEqualTo(Long.MAX_VALUE);
    }
}
