package org.latencylab.engine.stats;

import org.latencylab.engine.api.Nanos;
import java.time.Duration;

/**
 * Derives a model latency objective from an end-to-end SLA. Stateless and thread-safe.
 *
 * <p>Formula (LatencyLab DESIGN.md, "Tier"): {@code model SLO = (SLA_p95 − infrastructure_p95) × (1 − safety margin)}:
 * the model gets what is left of the end-to-end budget after the infrastructure (gateway, network, retrieval…),
 * minus a safety margin for variance that was not measured.
 */
public final class SloBudget {
    private SloBudget() {
    }

    /**
     * @param slaP95       end-to-end P95 the product promises, &gt; 0
     * @param infraP95     P95 of everything but the model, &gt;= 0 and &lt; slaP95
     * @param safetyMargin fraction held back, in [0, 1), e.g. 0.2
     * @return the P95 budget left for the model, &gt; 0
     * @throws IllegalArgumentException when a value is out of range or the infrastructure uses the whole SLA
     */
    public static Duration modelSlo(Duration slaP95, Duration infraP95, double safetyMargin) {
        return Duration.ofNanos(modelSloNanos(slaP95.toNanos(), infraP95.toNanos(), safetyMargin));
    }

    /**
     * Same as {@link #modelSlo(Duration, Duration, double)} in nanoseconds.
     *
     * @param slaP95Nanos   SLA P95, ns, &gt; 0
     * @param infraP95Nanos infrastructure P95, ns, in [0, slaP95Nanos)
     * @param safetyMargin  in [0, 1)
     * @return model budget, ns, &gt; 0
     * @throws IllegalArgumentException as above
     */
    public static long modelSloNanos(long slaP95Nanos, long infraP95Nanos, double safetyMargin) {
        if (slaP95Nanos <= 0) {
            throw new IllegalArgumentException("SLA P95 must be > 0, was " + slaP95Nanos + " ns");
        }
        if (infraP95Nanos < 0) {
            throw new IllegalArgumentException("infrastructure P95 must be >= 0, was " + infraP95Nanos + " ns");
        }
        if (infraP95Nanos >= slaP95Nanos) {
            throw new IllegalArgumentException("infrastructure P95 (" + Nanos.toMillis(infraP95Nanos) + " ms) leaves no budget"
                    + " within the SLA P95 (" + Nanos.toMillis(slaP95Nanos) + " ms)");
        }
        if (!(safetyMargin >= 0 && safetyMargin < 1)) {
            throw new IllegalArgumentException("safety margin must be in [0, 1), was " + safetyMargin);
        }
        long budget = Math.round((slaP95Nanos - infraP95Nanos) * (1 - safetyMargin));
        if (budget <= 0) {
            throw new IllegalArgumentException("the model budget rounds to 0 ns; lower the safety margin");
        }
        return budget;
    }
}
