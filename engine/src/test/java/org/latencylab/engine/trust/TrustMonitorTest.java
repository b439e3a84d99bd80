package org.latencylab.engine.trust;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.TrustCheck;

import static org.assertj.core.api.Assertions.assertThat;

/** The trust rule on real HdrHistograms, and the hiccup meter measuring this JVM. */
class TrustMonitorTest {

    private static Histogram hiccups(long quietSamples, long hiccupNanos, int hiccups) {
        Histogram h = new Histogram(3_600_000_000_000L, 2);
        for (long i = 0; i < quietSamples; i++) {
            h.recordValue(60_000); // 0.06 ms oversleep: an idle machine
        }
        for (int i = 0; i < hiccups; i++) {
            h.recordValueWithExpectedInterval(hiccupNanos, 1_000_000);
        }
        return h;
    }

    @Test
    void longHiccupsSaySaturatedAndWhichPercentilesAreNotTrustworthy() {
        // 9,000 quiet milliseconds and ten 38 ms pauses: about 4 % of the time is in a hiccup above 5 ms
        TrustCheck t = TrustMonitor.judge(hiccups(9_000, 38_000_000, 10), 0.3, 0.0, 0, 0.5, 0.4);
        assertThat(t.saturated()).isTrue();
        assertThat(t.hiccupP99Ms()).as("P99 of time, the filled-in wake-ups included").isBetween(20.0, 39.0);
        assertThat(t.trustedUpToPercentile()).isBetween(95.0, 97.0);
        assertThat(t.message()).startsWith("client saturated: latencies above P9").contains("are not trustworthy")
                .contains(String.format(java.util.Locale.ROOT, "; hiccup P99 = %.0f ms", t.hiccupP99Ms()))
                // 40 % of the cores: the client asked for little, so something else on the machine held it up
                .endsWith("while the client used only 40 % of all CPU cores: other load on this machine held it up");
        TrustCheck busy = TrustMonitor.judge(hiccups(9_000, 38_000_000, 10), 0.3, 0.0, 0, 0.5, 0.8);
        assertThat(busy.message()).endsWith(String.format(java.util.Locale.ROOT, "; hiccup P99 = %.0f ms",
                busy.hiccupP99Ms()));
    }

    @Test
    void aLagThatLeavesOutWaitsAtTheCapsIsNamedSo() {
        TrustCheck kept = TrustMonitor.judge(hiccups(10_000, 0, 0), 0.8, 0.0, 0, 0.5, 0.2, true, 0.02, 5_000, true);
        assertThat(kept.saturated()).isFalse();
        assertThat(kept.message()).contains("the client's own dispatch lag P99 = 0.80 ms (waits at the"
                + " maxInFlight/maxRateRps caps left out)");
        TrustCheck late = TrustMonitor.judge(hiccups(10_000, 0, 0), 40.0, 0.1, 100, 0.5, 0.2, true, 0.02, 5_000, true);
        assertThat(late.saturated()).isTrue();
        assertThat(late.message()).contains("the client's own dispatch lag P99 = 40 ms (waits at the"
                + " maxInFlight/maxRateRps caps left out) (the client fell behind its schedule)");
        TrustCheck plain = TrustMonitor.judge(hiccups(10_000, 0, 0), 0.8, 0.0, 0, 0.5, 0.2, true, 0.02, 5_000, false);
        assertThat(plain.message()).contains(", dispatch lag P99 = 0.80 ms,").doesNotContain("own");
    }

    @Test
    void dispatchLagOrCpuAloneAlsoSaturate() {
        TrustCheck lag = TrustMonitor.judge(hiccups(10_000, 0, 0), 120.0, 0.2, 200, 0.5, 0.5);
        assertThat(lag.saturated()).isTrue();
        assertThat(lag.trustedUpToPercentile()).isEqualTo(80.0);
        assertThat(lag.message()).contains("dispatch lag P99 = 120 ms").contains("above P80");
        TrustCheck cpu = TrustMonitor.judge(hiccups(10_000, 0, 0), 0.1, 0.0, 0, 2.0, 0.97);
        assertThat(cpu.saturated()).isTrue();
        assertThat(cpu.message()).contains("97 % of all CPU cores");
    }

    @Test
    void requestThreadsWaitingForACpuSaturateAndOnlyTheLowerPercentilesAreTrusted() {
        // no hiccup, no lag, modest CPU: only the request threads' run-queue wait (0.62 ms per slice) says it
        TrustCheck waited = TrustMonitor.judge(hiccups(10_000, 0, 0), 0.1, 0.0, 0, 0.3, 0.6, true, 0.62, 130_000);
        assertThat(waited.saturated()).isTrue();
        assertThat(waited.runQueueWaitMs()).isEqualTo(0.62);
        assertThat(waited.trustedUpToPercentile()).isEqualTo(TrustCheck.RUN_QUEUE_TRUSTED_UP_TO);
        assertThat(waited.message()).startsWith("client saturated: latencies above P75 are not trustworthy; ")
                .contains("request threads waited 0.62 ms on average for a CPU").doesNotContain("hiccup P99");
        // a lower percentile from the hiccups still wins
        TrustCheck both = TrustMonitor.judge(hiccups(5_000, 38_000_000, 200), 0.1, 0.0, 0, 0.3, 0.6, true, 0.62,
                130_000);
        assertThat(both.trustedUpToPercentile()).isLessThan(TrustCheck.RUN_QUEUE_TRUSTED_UP_TO);
        assertThat(both.message()).contains("hiccup P99").contains("run-queue wait");
        // saturated by hiccups alone: the run-queue wait is still named, with why it was not judged
        TrustCheck hiccupsOnly = TrustMonitor.judge(hiccups(5_000, 38_000_000, 200), 0.1, 0.0, 0, 0.3, 0.6, true,
                0.75, 400);
        assertThat(hiccupsOnly.message()).contains("hiccup P99")
                .endsWith("; run-queue wait 0.75 ms per time slice (over 400 time slices: too few to judge)");
        // the same mean over too few slices is reported but not judged
        TrustCheck few = TrustMonitor.judge(hiccups(10_000, 0, 0), 0.1, 0.0, 0, 0.3, 0.6, true, 0.62, 500);
        assertThat(few.saturated()).isFalse();
        assertThat(few.runQueueWaitMs()).isEqualTo(0.62);
        assertThat(few.message()).endsWith(", run-queue wait 0.62 ms per time slice (over 500 time slices: too few to"
                + " judge)");
        // below the limit: kept up, and the wait is named
        TrustCheck calm = TrustMonitor.judge(hiccups(10_000, 0, 0), 0.1, 0.0, 0, 0.3, 0.2, true, 0.055, 43_000);
        assertThat(TrustMonitor.judge(hiccups(10_000, 0, 0), 0.1, 0.0, 0, 0.3, 0.2, true, 0.14, 43_000).saturated())
                .as("0.14 ms is under the limit").isFalse();
        assertThat(TrustMonitor.judge(hiccups(10_000, 0, 0), 0.1, 0.0, 0, 0.3, 0.2, true, 0.18, 43_000).saturated())
                .as("0.18 ms is over the limit").isTrue();
        assertThat(calm.saturated()).isFalse();
        assertThat(calm.message()).startsWith("client kept up").endsWith(", run-queue wait 0.06 ms per time slice");
    }

    @Test
    void twoLateDispatchesInAShortRunDoNotSaturateButAreNamed() {
        // 160 requests, two of them dispatched 9 ms late: P99 is the second-largest lag
        TrustCheck few = TrustMonitor.judge(hiccups(10_000, 0, 0), 9.0, 2 / 160.0, 2, 0.5, 0.3);
        assertThat(few.saturated()).isFalse();
        assertThat(few.message()).startsWith("client kept up").contains("dispatch lag P99 = 9.00 ms")
                .contains("only 2 requests more than 5.00 ms late");
        TrustCheck many = TrustMonitor.judge(hiccups(10_000, 0, 0), 9.0, 5 / 400.0, 5, 0.5, 0.3);
        assertThat(many.saturated()).isTrue();
    }

    @Test
    void aSaturatedRunWithoutASuccessfulRequestNamesNoPercentile() {
        TrustCheck none = TrustMonitor.judge(hiccups(9_000, 38_000_000, 10), 0.3, 0.0, 0, 0.5, 0.8, false);
        assertThat(none.saturated()).isTrue();
        assertThat(none.message()).startsWith("client saturated (no latency to qualify: none was measured);"
                + " hiccup P99 = ").doesNotContain("no request succeeded").doesNotContain("above P");
        assertThat(none.trustedUpToPercentile()).isNaN();
        TrustCheck calm = TrustMonitor.judge(hiccups(10_000, 2_000_000, 5), 0.2, 0.0, 0, 0.3, 0.2, false);
        assertThat(calm.saturated()).isFalse();
        assertThat(calm.trustedUpToPercentile()).as("no latencies: nothing to trust up to P100 either").isNaN();
        TrustCheck some = TrustMonitor.judge(hiccups(9_000, 38_000_000, 10), 0.3, 0.0, 0, 0.5, 0.8, true);
        assertThat(some.message()).startsWith("client saturated: latencies above P9");
    }

    @Test
    void aQuietClientKeptUp() {
        TrustCheck t = TrustMonitor.judge(hiccups(10_000, 2_000_000, 5), 0.2, 0.0, 0, 0.3, 0.2);
        assertThat(t.saturated()).isFalse();
        assertThat(t.trustedUpToPercentile()).isEqualTo(100.0);
        assertThat(t.message()).startsWith("client kept up: hiccup P99 = 0.06 ms");
    }

    @Test
    void theHiccupMeterSamplesAboutEveryMillisecond() throws Exception {
        HiccupMeter m = HiccupMeter.start();
        Thread.sleep(500);
        Histogram h = m.stop();
        // 500 ms at one sample per ms, minus whatever a busy machine steals; filled-in hiccups count as samples
        assertThat(h.getTotalCount()).isBetween(100L, 700L);
        assertThat(h.getMinValue()).isGreaterThanOrEqualTo(0L);
        assertThat(m.stop()).isSameAs(h);
    }

    @Test
    void processCpuTimeIsReadAndGrows() {
        long a = TrustMonitor.processCpuNanos();
        long x = 0;
        for (int i = 0; i < 50_000_000; i++) {
            x += i ^ (x >>> 3);
        }
        long b = TrustMonitor.processCpuNanos();
        assertThat(a).isPositive();
        assertThat(b).as("after some work (%d)", x).isGreaterThan(a);
    }

    @Test
    void marksSplitTheHiccupsIntoPartsThatAddUpToTheWholeRun() throws Exception {
        HiccupMeter m = HiccupMeter.start();
        Thread.sleep(150);
        org.HdrHistogram.Histogram first = m.mark();
        Thread.sleep(150);
        org.HdrHistogram.Histogram second = m.mark();
        Thread.sleep(50);
        org.HdrHistogram.Histogram whole = m.stop();
        // about a sample per millisecond (a busy machine gives fewer wake-ups but fills in missed ones)
        assertThat(first.getTotalCount()).isGreaterThan(30);
        assertThat(second.getTotalCount()).isGreaterThan(30);
        assertThat(whole.getTotalCount()).isGreaterThan(first.getTotalCount() + second.getTotalCount());
        assertThat(m.mark().getTotalCount()).as("nothing is recorded after stop").isZero();
    }

    @Test
    void aStepIsJudgedOnItsOwnRequestsWhileTheRunIsJudgedOnAll() {
        TrustMonitor t = TrustMonitor.start();
        t.stepStart();
        TrustCheck late = t.stepEnd(1_000, 1_000, 40.0, 0.2, 200); // a step whose dispatcher fell behind
        t.stepStart();
        TrustCheck onTime = t.stepEnd(1_000, 1_000, 0.3, 0.0, 0);
        TrustCheck run = t.finish(2_000, 2_000, 30.0, 0.1, 200);
        assertThat(late.saturated()).isTrue();
        assertThat(late.message()).contains("dispatch lag P99 = 40");
        assertThat(onTime.saturated()).as("judged on its own lag, not the first step's").isEqualTo(
                onTime.hiccupP99Ms() > TrustCheck.HICCUP_P99_LIMIT_MS || onTime.processCpuLoad() > TrustCheck.CPU_LOAD_LIMIT);
        assertThat(onTime.message()).doesNotContain("dispatch lag P99 = 40");
        assertThat(run.saturated()).isTrue();
    }

    /** Spends about {@code millis} ms of this thread's CPU time. */
    private static void burnCpu(long millis) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = mx.getCurrentThreadCpuTime() + millis * 1_000_000L;
        long x = 0;
        while (mx.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x += i * 31L ^ x;
            }
        }
        if (x == 42) {
            System.out.print(""); // keeps the loop from being removed
        }
    }

    @Test
    void aStepsCpuCountsFromItsClockStartToItsLastRequestNotItsPreparationOrStatistics() {
        TrustMonitor t = TrustMonitor.start();
        t.stepStart();
        burnCpu(400); // preparation: opening connections, the collection before the clock
        t.stepClockStarted();
        burnCpu(100); // the measurement
        t.stepClockStarted(); // a sweep's second clock: the window still starts at the first
        burnCpu(100);
        t.stepStop();
        burnCpu(400); // the step's statistics
        TrustCheck step = t.stepEnd(1, 1, 0.1, 0.0, 0);
        // 200 ms burned inside the window, 800 ms outside; the JVM's own threads add a little on a busy machine
        assertThat(step.cpuPerRequestMs()).isBetween(180.0, 450.0);
        TrustCheck run = t.finish(1, 1, 0.1, 0.0, 0);
        assertThat(run.cpuPerRequestMs()).as("the run's verdict still counts everything").isGreaterThan(980.0);
    }

    @Test
    void aStepWithoutAClockStartIsJudgedFromItsStart() {
        TrustMonitor t = TrustMonitor.start();
        t.stepStart();
        burnCpu(300);
        TrustCheck step = t.stepEnd(1, 1, 0.1, 0.0, 0);
        assertThat(step.cpuPerRequestMs()).isGreaterThan(290.0);
    }
}
