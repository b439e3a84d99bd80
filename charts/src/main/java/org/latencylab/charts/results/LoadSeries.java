package org.latencylab.charts.results;

import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.data.TierBand;
import org.latencylab.charts.data.TimeSpan;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadSecond;
import org.latencylab.engine.stats.Tier;
import org.latencylab.engine.stats.TierTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Chart inputs of load tests and grids, from the engine's per-second {@link LoadSecond}s and {@link GridResult}s —
 * the same values whether they arrive live (one second at a time) or from a finished run's {@code run.json}.
 * Nothing is recomputed: every number is one the engine concluded. Pure functions; thread-safe; no JavaFX needed.
 */
public final class LoadSeries {
    private LoadSeries() {
    }

    /**
     * @param seconds a load step's seconds
     * @return true when any second has a TTFT (streaming requests), false when only E2E was measured
     */
    public static boolean hasTtft(List<LoadSecond> seconds) {
        return seconds.stream().anyMatch(s -> s.ttftP50Ms() != null);
    }

    /**
     * @param seconds a load step's seconds, in order
     * @return the name of the latency drawn by {@link #latency}: {@code "TTFT"} or {@code "E2E"}
     */
    public static String latencyName(List<LoadSecond> seconds) {
        return hasTtft(seconds) ? "TTFT" : "E2E";
    }

    /**
     * P50, P95 and P99 per second of TTFT from the intended start (E2E when no second has a TTFT), ms, at x = the
     * second's index from the step's start. A second in which no request ended is a gap (NaN).
     *
     * @param seconds a load step's seconds, in order
     * @return three series named {@code P50 TTFT}, {@code P95 TTFT}, {@code P99 TTFT} (or E2E)
     */
    public static List<Series> latency(List<LoadSecond> seconds) {
        boolean ttft = hasTtft(seconds);
        String m = ttft ? "TTFT" : "E2E";
        int n = seconds.size();
        double[] x = new double[n];
        double[][] y = new double[3][n];
        for (int i = 0; i < n; i++) {
            LoadSecond s = seconds.get(i);
            x[i] = s.second();
            Double[] v = ttft ? new Double[]{s.ttftP50Ms(), s.ttftP95Ms(), s.ttftP99Ms()}
                    : new Double[]{s.e2eP50Ms(), s.e2eP95Ms(), s.e2eP99Ms()};
            for (int k = 0; k < 3; k++) {
                y[k][i] = v[k] == null ? Double.NaN : v[k];
            }
        }
        return List.of(new Series("P50 " + m, x, y[0]), new Series("P95 " + m, x, y[1]),
                new Series("P99 " + m, x, y[2]));
    }

    /**
     * Rates per second, requests/s: the target rate (open loop only; left out when every second's target is 0, as in
     * a closed loop), the achieved send rate ({@link LoadSecond#sent()}) and the failed requests
     * ({@link LoadSecond#failed()}, any error kind) and, when any, the requests refused with 429.
     *
     * @param seconds a load step's seconds, in order
     * @return the series, target first when present
     */
    public static List<Series> rates(List<LoadSecond> seconds) {
        int n = seconds.size();
        double[] x = new double[n];
        double[] target = new double[n];
        double[] sent = new double[n];
        double[] failed = new double[n];
        double[] limited = new double[n];
        boolean open = false;
        boolean any429 = false;
        for (int i = 0; i < n; i++) {
            LoadSecond s = seconds.get(i);
            x[i] = s.second();
            // the drain seconds after scheduling stopped have no target: a gap, not a fall to 0
            target[i] = "drain".equals(s.phase()) ? Double.NaN : s.targetRateRps();
            open |= s.targetRateRps() > 0;
            sent[i] = s.sent();
            failed[i] = s.failed();
            limited[i] = s.http429Attempts();
            any429 |= s.http429Attempts() > 0;
        }
        List<Series> out = new ArrayList<>();
        if (open) {
            out.add(new Series("target rate", x, target));
        }
        out.add(new Series("achieved (sent/s)", x, sent));
        out.add(new Series("errors/s", x, failed));
        if (any429) {
            out.add(new Series("429 responses/s", x, limited));
        }
        return out;
    }

    /**
     * @param secs a load step's seconds, in order
     * @return its warm-up and cool-down stretches (seconds whose phase is {@code warmup} or {@code cooldown}; not the
     *         {@code drain} after the last send, whose requests count), each labelled as left out of the statistics
     */
    public static List<TimeSpan> phaseSpans(List<LoadSecond> secs) {
        List<TimeSpan> out = new ArrayList<>();
        int i = 0;
        while (i < secs.size()) {
            String phase = secs.get(i).phase();
            int j = i;
            while (j + 1 < secs.size() && secs.get(j + 1).phase().equals(phase)) {
                j++;
            }
            if ("warmup".equals(phase) || "cooldown".equals(phase)) {
                out.add(new TimeSpan(("warmup".equals(phase) ? "warm-up" : "cool-down") + ": not in the statistics",
                        secs.get(i).second(), secs.get(j).second() + 1));
            }
            i = j + 1;
        }
        return out;
    }

    /**
     * Tier bands for a linear latency axis: from 0 up to the band that holds {@code topMs}, the last one cut at
     * 10 % above {@code topMs} so that an unbounded top tier does not stretch the axis.
     *
     * @param tiers a tier table
     * @param topMs largest latency drawn, ms; no band when it is not &gt; 0
     * @return bands fastest first, labelled e.g. {@code "Tier-1 ≤ 300 ms"} (the unbounded tier {@code "Tier-4"})
     */
    public static List<TierBand> tierBands(TierTable tiers, double topMs) {
        List<TierBand> bands = new ArrayList<>();
        if (!(topMs > 0) || Double.isInfinite(topMs)) {
            return bands;
        }
        double cut = topMs * 1.1;
        double lower = 0;
        for (Tier t : tiers.tiers()) {
            double upper = t.unbounded() ? Double.POSITIVE_INFINITY : t.upperMillis();
            String name = t.unbounded() ? t.name() : t.name() + " ≤ " + ms(upper);
            bands.add(new TierBand(name, lower, Math.min(upper, Math.max(cut, lower + 1))));
            if (upper >= topMs) {
                break;
            }
            lower = upper;
        }
        return bands;
    }

    /**
     * @param series series as drawn
     * @return the largest finite y value of all, or 0 when none
     */
    public static double top(List<Series> series) {
        double top = 0;
        for (Series s : series) {
            for (double v : s.y()) {
                if (Double.isFinite(v)) {
                    top = Math.max(top, v);
                }
            }
        }
        return top;
    }

    /**
     * @param grid a grid, finished or with only some cells run
     * @return its matrix as a heat grid (columns = prompt lengths on x, rows on y; cells not yet run are NaN), or
     *         null while no cell has a value
     */
    public static HeatGrid heatGrid(GridResult grid) {
        double[][] m = grid.matrix();
        boolean any = false;
        for (double[] row : m) {
            for (double v : row) {
                any |= !Double.isNaN(v);
            }
        }
        if (!any) {
            return null;
        }
        return new HeatGrid(grid.columnValues().stream().map(LoadSeries::label).toList(),
                grid.rowValues().stream().map(LoadSeries::label).toList(), m);
    }

    /** @param v an axis value @return it without a trailing {@code .0} */
    static String label(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static String ms(double ms) {
        return ms >= 1000 ? label(ms / 1000) + " s" : label(ms) + " ms";
    }
}
