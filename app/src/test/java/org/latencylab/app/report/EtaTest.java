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

    private static IntervalSnapshot at(String step, long measuringNanos) {
        return new IntervalSnapshot("run", step, measuringNanos + S, 10, -1, 5, 10, Map.of(), 0, 20, 20, List.of(),
                false, S);
    }

    @Test
    void aStepThatDrainsPastItsPlanDoesNotMakeTheRunLookDoneAndTheNextStepGetsItsWholePlan() {
        org.latencylab.engine.run.RunSpec spec = org.latencylab.engine.scenario.StepCatalog.loader().parse(
                new java.io.ByteArrayInputStream("""
                        format: 1
                        name: two-steps
                        endpoint: {builtin: sim, profile: small-fast}
                        experiments:
                          - {type: load, rate: 50, duration: 4s, drainTimeout: 5s}
                          - {type: load, concurrency: 8, duration: 3s}
                        """.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "two-steps.yaml");
        Eta.Steps eta = new Eta.Steps(spec);
        // 2 s into the first step: its 2 s left and the second step's 3 s
        assertThat(eta.secondsLeft(at("load", 0))).isCloseTo(7.0, within(1e-9));
        assertThat(eta.secondsLeft(at("load", 2 * S))).isCloseTo(5.0, within(1e-9));
        assertThat(eta.overrun()).isFalse();
        assertThat(Eta.label(5.0, false)).isEqualTo("ETA 5.0 s");
        // 6 s into it, the first step drains past its plan: the second step's 3 s are still ahead, not "0.0 s"
        assertThat(eta.secondsLeft(at("load", 6 * S))).isCloseTo(3.0, within(1e-9));
        assertThat(eta.overrun()).isTrue();
        assertThat(Eta.label(3.0, true)).isEqualTo("ETA 3.0 s after this step's drain");
        // the second step starts 8 s in: its whole plan counts from there (the whole-run count would say 0 s)
        assertThat(eta.secondsLeft(at("load2", 8 * S))).isCloseTo(3.0, within(1e-9));
        assertThat(eta.secondsLeft(at("load2", 9 * S))).isCloseTo(2.0, within(1e-9));
        assertThat(eta.overrun()).isFalse();
        assertThat(Eta.secondsLeft(at("load2", 9 * S), Eta.plannedSeconds(spec))).as("the whole-run count").isZero();
        // the last step past its plan: nothing is planned after it
        assertThat(eta.secondsLeft(at("load2", 12 * S))).isZero();
        assertThat(Eta.label(0, eta.overrun())).isEqualTo("finishing (requests in flight)");
        assertThat(Eta.label(Double.NaN, false)).isEmpty();
    }
}
