package org.latencylab.app.report;

import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadSpec;

import java.util.List;
import java.util.Locale;

/**
 * Progress and time left of a run, the same for the console and the window: from requests ended when the run
 * plans a number of requests, else from the time elapsed when every step is bounded by time (load tests, grids with
 * a cell duration). Both count time from the start of the run's first step ({@link IntervalSnapshot#measuringNanos()}):
 * the setup before it (the simulator's start, the JIT warm-up) sends no request, so counting it would make a
 * request-bounded run look slower and a time-bounded one look nearer its end than it is. Pure; thread-safe.
 */
public final class Eta {
    private Eta() {
    }

    /**
     * @param spec a run
     * @return the time its steps schedule requests, seconds (load: {@code duration}; grid: cells ×
     *         {@code cellDuration}), or NaN when a step is bounded only by a request count (probes, sweeps)
     */
    public static double plannedSeconds(RunSpec spec) {
        double total = 0;
        for (ExperimentSpec e : spec.experiments()) {
            total += plannedSeconds(e); // NaN once one step is bounded by a request count
        }
        return total;
    }

    /** @return the time one step schedules requests, s, or NaN when it is bounded by a request count */
    private static double plannedSeconds(ExperimentSpec e) {
        if (e instanceof LoadSpec l && l.duration() != null) {
            return l.duration().toNanos() / 1e9;
        }
        if (e instanceof GridSpec g && g.cellDuration() != null) {
            return g.cellDuration().toNanos() / 1e9 * g.rowValues().size() * g.contextTokens().size();
        }
        return Double.NaN;
    }

    /**
     * @param s              a snapshot
     * @param plannedSeconds {@link #plannedSeconds} of the run
     * @return the fraction done in [0, 1], or -1 when unknown
     */
    public static double fraction(IntervalSnapshot s, double plannedSeconds) {
        if (s.planned() > 0) {
            return s.progress();
        }
        if (plannedSeconds > 0) {
            return Math.min(1.0, s.measuringNanos() / 1e9 / plannedSeconds);
        }
        return -1;
    }

    /**
     * @param s              a snapshot
     * @param plannedSeconds {@link #plannedSeconds} of the run
     * @return seconds left, or NaN when unknown (nothing ended yet, or the run has no plan): the requests left at
     *         the rate the run has ended them since its first step started, or the planned time less the time since
     *         then
     */
    public static double secondsLeft(IntervalSnapshot s, double plannedSeconds) {
        double elapsed = s.measuringNanos() / 1e9;
        if (s.planned() > 0) {
            if (s.completed() <= 0 || s.completed() >= s.planned()) {
                return Double.NaN;
            }
            return elapsed / s.completed() * (s.planned() - s.completed());
        }
        if (plannedSeconds > 0) {
            return Math.max(0, plannedSeconds - elapsed);
        }
        return Double.NaN;
    }

    /**
     * Time left of a time-bounded run, step by step: the current step's plan less the time since it started, plus the
     * plans of the steps after it. A step that runs past its plan (requests still in flight draining after scheduling
     * stopped, up to its {@code drainTimeout}) has no time of its own left: {@link #overrun()} then says so, instead
     * of a whole-run count that reads "0.0 s" while that step and the ones after it still run. Falls back to
     * {@link #secondsLeft(IntervalSnapshot, double)} for a step it does not know (between steps, or a label of its own
     * such as a grid cell's). Not thread-safe: one per run, fed that run's snapshots in order.
     */
    public static final class Steps {
        private final List<String> labels;
        private final double[] plans;
        private final double plannedSeconds;
        private String current;
        private long currentStartNanos;
        private boolean overrun;

        /** @param spec the run; its load and grid steps' durations are the plan */
        public Steps(RunSpec spec) {
            this.labels = spec.stepLabels();
            this.plans = new double[labels.size()];
            for (int i = 0; i < plans.length; i++) {
                plans[i] = plannedSeconds(spec.experiments().get(i));
            }
            this.plannedSeconds = plannedSeconds(spec);
        }

        /**
         * @param s the run's latest snapshot
         * @return seconds left, or NaN when unknown (a step bounded by a request count, or no plan)
         */
        public double secondsLeft(IntervalSnapshot s) {
            overrun = false;
            if (Double.isNaN(plannedSeconds) || s.planned() > 0) {
                return Eta.secondsLeft(s, plannedSeconds);
            }
            if (!s.step().isEmpty() && !s.step().equals(current)) {
                current = s.step();
                currentStartNanos = s.measuringNanos();
            }
            int i = current == null ? -1 : labels.indexOf(current);
            if (i < 0) {
                return Eta.secondsLeft(s, plannedSeconds);
            }
            double later = 0;
            for (int j = i + 1; j < plans.length; j++) {
                later += plans[j];
            }
            double own = plans[i] - (s.measuringNanos() - currentStartNanos) / 1e9;
            overrun = own < 0;
            return Math.max(0, own) + later;
        }

        /** @return whether, at the last {@link #secondsLeft}, the current step had run past its planned time */
        public boolean overrun() {
            return overrun;
        }
    }

    /**
     * @param left    {@link Steps#secondsLeft}
     * @param overrun {@link Steps#overrun}
     * @return e.g. {@code ETA 12.3 s}, or for a step past its plan {@code ETA 3.0 s after this step's drain}, or
     *         {@code finishing (requests in flight)}; "" when {@code left} is NaN
     */
    public static String label(double left, boolean overrun) {
        if (Double.isNaN(left)) {
            return "";
        }
        if (overrun) {
            return left > 0 ? "ETA " + format(left) + " after this step's drain" : "finishing (requests in flight)";
        }
        return "ETA " + format(left);
    }

    /**
     * @param seconds a duration, s
     * @return e.g. {@code 12.3 s} or {@code 2 min 05 s}
     */
    public static String format(double seconds) {
        if (seconds >= 120) {
            return String.format(Locale.ROOT, "%d min %02d s", (long) seconds / 60, (long) seconds % 60);
        }
        return String.format(Locale.ROOT, "%.1f s", seconds);
    }
}
