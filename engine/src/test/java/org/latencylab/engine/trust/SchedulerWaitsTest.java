package org.latencylab.engine.trust;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The kernel's run-queue accounting of tracked threads, read from this JVM's own {@code /proc} files (Linux). */
class SchedulerWaitsTest {

    @Test
    void aTrackedThreadThatWakesOnBusyCoresIsCountedAliveAndAfterItEnds() throws Exception {
        assumeTrue(SchedulerWaits.available(), "per-thread scheduler statistics (Linux)");
        AtomicBoolean spin = new AtomicBoolean(true);
        List<Thread> spinners = new ArrayList<>();
        int n = 2 * Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < n; i++) { // untracked: their CPU time and waits must not be counted
            spinners.add(Thread.ofPlatform().daemon().start(() -> {
                long x = 0;
                while (spin.get()) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }));
        }
        try {
            SchedulerWaits.Snapshot before = SchedulerWaits.snapshot();
            AtomicReference<SchedulerWaits.Snapshot> whileAlive = new AtomicReference<>();
            java.util.concurrent.CountDownLatch slept = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch read = new java.util.concurrent.CountDownLatch(1);
            Thread tracked = Thread.ofPlatform().start(() -> {
                try (var t = SchedulerWaits.track()) {
                    for (int i = 0; i < 200; i++) { // 200 wake-ups, each onto cores the spinners keep busy
                        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    }
                    slept.countDown();
                    read.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(slept.await(30, TimeUnit.SECONDS)).isTrue();
            whileAlive.set(SchedulerWaits.snapshot());
            read.countDown();
            tracked.join(10_000);
            SchedulerWaits.Snapshot after = SchedulerWaits.snapshot();

            assertThat(whileAlive.get().slicesSince(before)).as("a slice per wake-up at least").isGreaterThanOrEqualTo(200);
            assertThat(whileAlive.get().waitNanos() - before.waitNanos()).as("woken onto busy cores, it waited")
                    .isPositive();
            assertThat(whileAlive.get().waitPerSliceMsSince(before)).isPositive();
            // the spinners ran for the whole time on every core but are not tracked: far less CPU was counted
            long wallNanos = 200 * 1_000_000L;
            assertThat(whileAlive.get().runNanos() - before.runNanos()).isLessThan(wallNanos);
            // once the thread ended its figures stay in the totals
            assertThat(after.slicesSince(before)).isGreaterThanOrEqualTo(whileAlive.get().slicesSince(before));
            assertThat(after.waitNanos()).isGreaterThanOrEqualTo(whileAlive.get().waitNanos());
        } finally {
            spin.set(false);
            for (Thread t : spinners) {
                t.join(5_000);
            }
        }
    }

    @Test
    void aVirtualThreadIsNotTracked() throws Exception {
        SchedulerWaits.Snapshot before = SchedulerWaits.snapshot();
        Thread v = Thread.ofVirtual().start(() -> {
            try (var t = SchedulerWaits.track()) {
                for (int i = 0; i < 50; i++) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
            }
        });
        v.join(10_000);
        SchedulerWaits.Snapshot after = SchedulerWaits.snapshot();
        // another test's tracked thread may run meanwhile, but not 50 slices' worth of this one's wake-ups
        assertThat(after.slicesSince(before)).isLessThan(50);
    }

    @Test
    void noSliceMeansNoMean() {
        SchedulerWaits.Snapshot s = new SchedulerWaits.Snapshot(10, 20, 30);
        assertThat(s.waitPerSliceMsSince(s)).isNaN();
        assertThat(new SchedulerWaits.Snapshot(10, 2_000_020, 40).waitPerSliceMsSince(s)).isEqualTo(0.2);
    }
}
