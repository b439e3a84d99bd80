package org.latencylab.app.cli;

import org.junit.jupiter.api.Test;
import sun.misc.Signal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class StopSignalsTest {
    @Test
    void oneCtrlCDeliveredTwiceStopsTheRunOnceAndDoesNotQuitTheProcess() throws Exception {
        AtomicInteger firsts = new AtomicInteger();
        CountDownLatch stopped = new CountDownLatch(1);
        StopSignals s = StopSignals.install(() -> {
            firsts.incrementAndGet();
            stopped.countDown();
        });
        try {
            // as the terminal's copy and the java -jar launcher's copy of one Ctrl-C arrive: a few ms apart. With the
            // old handler the second one halted this JVM (the test run would end here).
            Signal.raise(new Signal("INT"));
            assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
            Signal.raise(new Signal("INT"));
            Thread.sleep(200); // the signal is handled on its own thread
            assertThat(firsts.get()).isEqualTo(1);
            assertThat(s.received().name()).isEqualTo("INT");
            long now = System.nanoTime();
            assertThat(s.samePress("INT", now)).isTrue();
            assertThat(s.samePress("TERM", now)).as("another signal is another request").isFalse();
            assertThat(s.samePress("INT", now + StopSignals.SAME_PRESS_NANOS)).as("a second press later quits")
                    .isFalse();
        } finally {
            s.restore();
        }
    }
}
