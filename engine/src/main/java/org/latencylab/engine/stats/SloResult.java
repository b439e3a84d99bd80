package org.latencylab.engine.stats;

import java.util.Objects;

/**
 * The outcome of checking one {@link Slo} against a run. Immutable and thread-safe.
 *
 * @param slo            the objective
 * @param judged         requests judged (succeeded with a defined metric, plus failed), &gt;= 0
 * @param met            requests that succeeded within the threshold, 0 &lt;= met &lt;= judged
 * @param complianceRate {@code met / judged} in [0, 1], {@code NaN} when nothing was judged
 * @param passed         true when {@code complianceRate >= percentile / 100}
 */
public record SloResult(Slo slo, long judged, long met, double complianceRate, boolean passed) {
    /** @throws IllegalArgumentException when the counts are inconsistent */
    public SloResult {
        Objects.requireNonNull(slo, "slo");
        if (judged < 0 || met < 0 || met > judged) {
            throw new IllegalArgumentException("SLO counts must satisfy 0 <= met <= judged, was met=" + met
                    + ", judged=" + judged);
        }
    }
}
