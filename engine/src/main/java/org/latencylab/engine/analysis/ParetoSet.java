package org.latencylab.engine.analysis;

import java.util.List;
import java.util.Objects;

/**
 * The Pareto-optimal points among candidates scored on several objectives (e.g. output tokens/s ↑, P99 TTFT ↓,
 * peak GPU memory ↓). Point q dominates p when q is at least as good as p in every objective and strictly better in
 * one; the optimal points are those no other point dominates. O(n² · objectives), fine for the tens of variants of a
 * benchmark. The one place LatencyLab computes dominance: the server benchmark marks its optimal variants with it,
 * and the charts' two-objective fronts ({@code org.latencylab.charts.data.ParetoFront}) are drawn from it.
 * Stateless; thread-safe.
 */
public final class ParetoSet {
    /** Whether larger or smaller is better in one objective. */
    public enum Goal {
        /** larger is better (throughput, goodput) */
        MAXIMIZE,
        /** smaller is better (latency, memory, cost) */
        MINIMIZE
    }

    private ParetoSet() {
    }

    /**
     * @param points one row per candidate, one finite value per objective
     * @param goals  one goal per objective
     * @return for each candidate whether it is Pareto-optimal (identical candidates are all optimal)
     * @throws IllegalArgumentException when a row's length differs from the number of goals or a value is not finite
     */
    public static boolean[] optimal(List<double[]> points, List<Goal> goals) {
        Objects.requireNonNull(points, "points");
        Objects.requireNonNull(goals, "goals");
        for (double[] p : points) {
            if (p.length != goals.size()) {
                throw new IllegalArgumentException("a point has " + p.length + " objectives, expected "
                        + goals.size());
            }
            for (double v : p) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("objective values must be finite, was " + v);
                }
            }
        }
        boolean[] out = new boolean[points.size()];
        for (int i = 0; i < points.size(); i++) {
            boolean dominated = false;
            for (int j = 0; j < points.size() && !dominated; j++) {
                dominated = j != i && dominates(points.get(j), points.get(i), goals);
            }
            out[i] = !dominated;
        }
        return out;
    }

    private static boolean dominates(double[] q, double[] p, List<Goal> goals) {
        boolean strictly = false;
        for (int k = 0; k < goals.size(); k++) {
            int c = Double.compare(q[k], p[k]);
            if (goals.get(k) == Goal.MINIMIZE) {
                c = -c;
            }
            if (c < 0) {
                return false;
            }
            strictly |= c > 0;
        }
        return strictly;
    }
}
