package org.latencylab.app.report;

import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadSpec;

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
            if (e instanceof LoadSpec l && l.duration() != null) {
                total += l.duration().toNanos() / 1e9;
            } else if (e instanceof GridSpec g && g.cellDuration() != null) {
                total += g.cellDuration().toNanos() / 1e9 * g.rowValues().size() * g.contextTokens().size();
            } else {
                return Double.NaN;
            }
        }
        return total;
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
