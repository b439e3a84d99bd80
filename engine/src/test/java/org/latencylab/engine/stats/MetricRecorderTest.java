package org.latencylab.engine.stats;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MetricRecorderTest {

    @Test
    void concurrentWritersLoseNothingAcrossIntervals() throws Exception {
        MetricRecorder rec = new MetricRecorder("ttft");
        int threads = 4;
        int perThread = 50_000;
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int base = t;
            ts.add(Thread.ofPlatform().start(() -> {
                for (int i = 1; i <= perThread; i++) {
                    rec.record(base * 1_000_000L + i);
                }
            }));
        }
        long intervalTotal = 0;
        while (ts.stream().anyMatch(Thread::isAlive)) {
            intervalTotal += rec.intervalHistogram().getTotalCount();
            Thread.sleep(1);
        }
        for (Thread t : ts) {
            t.join();
        }
        intervalTotal += rec.intervalHistogram().getTotalCount();
        Histogram cumulative = rec.cumulativeHistogram();
        assertThat(intervalTotal).isEqualTo((long) threads * perThread);
        assertThat(cumulative.getTotalCount()).isEqualTo((long) threads * perThread);
        // the histogram keeps 3 significant digits: the max is reported within 0.1 %
        assertThat(cumulative.getMaxValue()).isBetween(3_050_000L, 3_053_050L);
    }

    @Test
    void cumulativeReadDoesNotStealFromNextInterval() {
        MetricRecorder rec = new MetricRecorder("e2e");
        rec.record(1_000);
        rec.record(2_000);
        assertThat(rec.cumulativeHistogram().getTotalCount()).isEqualTo(2);
        rec.record(3_000);
        Histogram interval = rec.intervalHistogram();
        assertThat(interval.getTotalCount()).isEqualTo(3);
        assertThat(rec.intervalHistogram().getTotalCount()).isZero();
        rec.record(60_000_000_000L); // a minute: auto-resize handles it
        assertThat(rec.cumulativeHistogram().getTotalCount()).isEqualTo(4);
        assertThat(rec.cumulativeHistogram().getMaxValue()).isBetween(59_940_000_000L, 60_060_000_000L);
    }

    @Test
    void rejectsNegativeValues() {
        MetricRecorder rec = new MetricRecorder("ttft");
        assertThatThrownBy(() -> rec.record(-1)).hasMessage("ttft: value must be >= 0 ns, was -1");
    }
}
