package org.latencylab.charts.data;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The Pareto front of a set of points in two objectives: the points that no other point dominates. Point q
 * dominates p when q is at least as good as p in both objectives and strictly better in one.
 *
 * <p>Used for GPU-server configuration grids: maximise throughput (x), minimise P99 latency (y). O(n²), which is
 * fine for the tens to hundreds of configurations such a grid has.
 *
 * <p>Stateless; thread-safe.
 */
public final class ParetoFront {

    /** Whether larger or smaller is better in one objective. */
    public enum Goal {
        /** larger is better (throughput, goodput) */
        MAXIMIZE,
        /** smaller is better (latency, memory, cost) */
        MINIMIZE
    }

    private ParetoFront() {
    }

    /**
     * @param points the candidates
     * @param xGoal  goal in x
     * @param yGoal  goal in y
     * @return the non-dominated points sorted by x ascending (ties by y ascending), so that joining them in order
     *         draws the front; identical points are all kept
     */
    public static List<LabelledPoint> of(List<LabelledPoint> points, Goal xGoal, Goal yGoal) {
        Objects.requireNonNull(points, "points");
        Objects.requireNonNull(xGoal, "xGoal");
        Objects.requireNonNull(yGoal, "yGoal");
        List<LabelledPoint> front = new ArrayList<>();
        for (LabelledPoint p : points) {
            boolean dominated = false;
            for (LabelledPoint q : points) {
                if (q != p && dominates(q, p, xGoal, yGoal)) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                front.add(p);
            }
        }
        front.sort(Comparator.comparingDouble(LabelledPoint::x).thenComparingDouble(LabelledPoint::y));
        return front;
    }

    private static boolean dominates(LabelledPoint q, LabelledPoint p, Goal xGoal, Goal yGoal) {
        int cx = compare(q.x(), p.x(), xGoal);
        int cy = compare(q.y(), p.y(), yGoal);
        return cx >= 0 && cy >= 0 && (cx > 0 || cy > 0);
    }

    /** @return > 0 when a is better than b under the goal, 0 when equal, < 0 when worse */
    private static int compare(double a, double b, Goal goal) {
        int c = Double.compare(a, b);
        return goal == Goal.MAXIMIZE ? c : -c;
    }
}
