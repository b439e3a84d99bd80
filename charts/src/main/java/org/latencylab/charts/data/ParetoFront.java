package org.latencylab.charts.data;

import org.latencylab.engine.analysis.ParetoSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The Pareto front of chart points in two objectives, for drawing: the points that no other point dominates, in
 * drawing order. Dominance is the engine's ({@link ParetoSet}, the one place it is computed): q dominates p when q
 * is at least as good as p in both objectives and strictly better in one.
 *
 * <p>Used for GPU-server configuration grids: maximise throughput (x), minimise P99 latency (y). Stateless;
 * thread-safe.
 */
public final class ParetoFront {

    private ParetoFront() {
    }

    /**
     * @param points the candidates
     * @param xGoal  goal in x
     * @param yGoal  goal in y
     * @return the non-dominated points sorted by x ascending (ties by y ascending), so that joining them in order
     *         draws the front; identical points are all kept
     */
    public static List<LabelledPoint> of(List<LabelledPoint> points, ParetoSet.Goal xGoal, ParetoSet.Goal yGoal) {
        Objects.requireNonNull(points, "points");
        Objects.requireNonNull(xGoal, "xGoal");
        Objects.requireNonNull(yGoal, "yGoal");
        boolean[] optimal = ParetoSet.optimal(points.stream().map(p -> new double[] {p.x(), p.y()}).toList(),
                List.of(xGoal, yGoal));
        List<LabelledPoint> front = new ArrayList<>();
        for (int i = 0; i < optimal.length; i++) {
            if (optimal[i]) {
                front.add(points.get(i));
            }
        }
        front.sort(Comparator.comparingDouble(LabelledPoint::x).thenComparingDouble(LabelledPoint::y));
        return front;
    }
}
