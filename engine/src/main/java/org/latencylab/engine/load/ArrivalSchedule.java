package org.latencylab.engine.load;

import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.apache.commons.math3.random.RandomGenerator;
import org.apache.commons.math3.random.Well19937c;

/**
 * The intended start times of an open-loop run, as offsets in nanoseconds from the run's start.
 *
 * <p>Every time is computed from the start of the schedule, never as "now + gap": the unit-mean gaps are summed
 * in operational time and mapped through {@link RateProfile#timeOfCount}, so a late dispatcher cannot make the
 * rate drift — later requests keep their places and the lateness shows as dispatch lag. Gaps come from Commons
 * Math distributions over a seeded {@link Well19937c}, so the same seed gives the same schedule. Not thread-safe:
 * one dispatcher owns it.
 */
public final class ArrivalSchedule {
    private final RateProfile profile;
    private final ArrivalProcess process;
    private final ExponentialDistribution exponential;
    private final GammaDistribution gamma;
    private double operationalTime;

    /**
     * @param profile target rate over time
     * @param process how gaps are drawn
     * @param shape   gamma shape k &gt; 0 (CV = 1/√k); ignored unless {@code process == GAMMA}
     * @param seed    random seed
     * @throws IllegalArgumentException when the gamma shape is not &gt; 0
     */
    public ArrivalSchedule(RateProfile profile, ArrivalProcess process, double shape, long seed) {
        this.profile = profile;
        this.process = process;
        RandomGenerator rng = new Well19937c(seed);
        this.exponential = process == ArrivalProcess.POISSON ? new ExponentialDistribution(rng, 1.0) : null;
        if (process == ArrivalProcess.GAMMA) {
            if (!(shape > 0) || Double.isInfinite(shape)) {
                throw new IllegalArgumentException("gamma shape must be > 0, was " + shape);
            }
            // scale 1/k gives mean k·(1/k) = 1 (unit mean in operational time)
            this.gamma = new GammaDistribution(rng, shape, 1.0 / shape);
        } else {
            this.gamma = null;
        }
    }

    /**
     * Draws the next arrival. The first arrival of a constant schedule is at offset 0; random schedules start
     * with one random gap (as a stationary process would).
     *
     * @return offset of the next intended start from the schedule's start, ns, non-decreasing; {@link Long#MAX_VALUE}
     *         when the target rate has fallen to 0 for good
     */
    public long next() {
        if (process == ArrivalProcess.CONSTANT) {
            long t = profile.timeOfCount(operationalTime);
            operationalTime += 1.0;
            return t;
        }
        operationalTime += process == ArrivalProcess.POISSON ? exponential.sample() : gamma.sample();
        return profile.timeOfCount(operationalTime);
    }
}
