package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SimWarmUpTest {
    @Test
    void theWarmUpStreamsRequestsThroughARealSimulatorAndStopsByItself() {
        long start = System.nanoTime();
        int answered = SimWarmUp.run();
        long millis = (System.nanoTime() - start) / 1_000_000;
        // every request it counts got status 200 from a real simulator over loopback; a busy machine may stop it at
        // the time limit, but it gets through some requests in 1.5 s on any machine that runs the suite
        boolean c2 = SimWarmUp.c2Enabled();
        assertThat(answered).isBetween(1, c2 ? SimWarmUp.C2_REQUESTS : SimWarmUp.REQUESTS);
        long limit = c2 ? SimWarmUp.C2_LIMIT_MILLIS + SimWarmUp.SETTLE_LIMIT_MILLIS : SimWarmUp.LIMIT_MILLIS;
        assertThat(millis).isLessThan(limit + 5_000);
    }

    @Test
    void theJitCountsAsSettledOnlyAfterItsQuietTimeAndTheWaitEndsAtItsLimit() {
        long start = System.nanoTime();
        boolean settled = SimWarmUp.awaitJitSettled(300, 3_000);
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (settled) {
            assertThat(millis).as("settled only after 300 ms without compilation").isGreaterThanOrEqualTo(300);
        }
        assertThat(millis).isLessThan(3_000 + 2_000);
        // a quiet time longer than the limit can never be reached: the wait gives up at the limit
        long start2 = System.nanoTime();
        assertThat(SimWarmUp.awaitJitSettled(10_000, 400)).isFalse();
        assertThat((System.nanoTime() - start2) / 1_000_000).isBetween(400L, 400L + 2_000);
    }
}
