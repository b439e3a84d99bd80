package org.latencylab.app.report;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.IntervalSnapshot;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The ETA counts from the first step's start: the setup before it sends no request. */
class EtaTest {
    private static final long S = 1_000_000_000L;

    private static IntervalSnapshot snap(long elapsedNanos, long setupNanos, long completed, long planned) {
        return new IntervalSnapshot("run", "step", elapsedNanos, completed, planned, 0, completed, Map.of(), 0, 0, 0,
                List.of(), false, setupNanos);
    }

    @Test
    void aRequestBoundedRunIsTimedAtTheRateSinceItsFirstStepStarted() {
        // 10 s since the start, 4 s of them setup: 50 of 100 requests in 6 s, so 6 s more (not 10 s)
        assertThat(Eta.secondsLeft(snap(10 * S, 4 * S, 50, 100), Double.NaN)).isCloseTo(6.0, within(1e-9));
        assertThat(Eta.fraction(snap(10 * S, 4 * S, 50, 100), Double.NaN)).isCloseTo(0.5, within(1e-9));
        // without setup the same figures as before
        assertThat(Eta.secondsLeft(snap(10 * S, 0, 50, 100), Double.NaN)).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void aTimeBoundedRunHasItsPlannedTimeLeftLessTheTimeSinceItsFirstStepStarted() {
        // a 20 s load step, 3 s of setup, 8 s since the start: 5 s of the step ran, 15 s are left (not 12 s)
        assertThat(Eta.secondsLeft(snap(8 * S, 3 * S, 40, -1), 20.0)).isCloseTo(15.0, within(1e-9));
        assertThat(Eta.fraction(snap(8 * S, 3 * S, 40, -1), 20.0)).isCloseTo(0.25, within(1e-9));
        // during the setup nothing of the plan has passed
        assertThat(Eta.fraction(snap(2 * S, 2 * S, 0, -1), 20.0)).isZero();
    }
}
