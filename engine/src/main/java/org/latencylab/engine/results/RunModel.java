package org.latencylab.engine.results;

import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.stats.LatencyCdf;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.stats.StatsAccumulator;
import org.latencylab.engine.stats.StatsConfig;
import org.latencylab.engine.stats.StatsReport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds a run's result model ({@link RunResult.StepOutcome}s and the whole-run summary) from its requests, one
 * finished request at a time. The run engine feeds it live; a reopened or recovered run is fed the lines of its
 * {@code requests.jsonl} in file order. Both produce the same numbers, because they are the same code: a
 * {@link StatsAccumulator} per step (and per part of a step that uses several request labels), exact statistics
 * computed once when a step ends, and live statistics from HdrHistograms while it runs.
 *
 * <p>A step is judged with the run's {@link StatsSettings} on the step's tier metric, and on its own SLOs besides the
 * run's (a load step's {@code slos}); steps whose tier is not pooled (sweeps) and the parts and whole-run summary are
 * not judged against SLOs.
 *
 * <p>Thread-safe: every method holds this object's lock (each {@link #add} is O(1) amortised).
 */
public final class RunModel {
    private final RunSpec spec;
    private final long originNanos;
    private final boolean live;
    private final List<RunResult.StepOutcome> finished = new ArrayList<>();
    private final List<StatsAccumulator> finishedAccumulators = new ArrayList<>();
    private Current current;

    /** The step being fed. */
    private static final class Current {
        final String label;
        final ExperimentSpec spec;
        final StatsAccumulator all;
        final StatsConfig partConfig;
        /** Per label once a second label appeared (a sweep's lengths, a grid's cells); empty while there is one. */
        final Map<String, StatsAccumulator> parts = new LinkedHashMap<>();
        final long originNanos;
        String firstLabel;

        Current(String label, ExperimentSpec spec, StatsConfig config, StatsConfig partConfig, long originNanos,
                boolean live) {
            this.label = label;
            this.spec = spec;
            this.all = new StatsAccumulator(config, originNanos, live);
            this.partConfig = partConfig;
            this.originNanos = originNanos;
        }
    }

    /**
     * @param spec        the run (its stats settings judge every step)
     * @param originNanos the records' time origin ({@link System#nanoTime()} of the run start for live records, 0
     *                    for records read back from {@code requests.jsonl})
     * @param live        whether live statistics are wanted while a step runs (keeps HdrHistograms)
     * @throws NullPointerException when {@code spec} is null
     */
    public RunModel(RunSpec spec, long originNanos, boolean live) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.originNanos = originNanos;
        this.live = live;
    }

    /**
     * @param step a step of the run
     * @return the settings it is judged with: the run's, on the step's tier metric, with the run's SLOs and the
     *         step's own {@link ExperimentSpec#judgedSlos()} (a load step's {@code slos}); without SLOs when its tier
     *         is not pooled
     */
    public StatsSettings settingsOf(ExperimentSpec step) {
        StatsSettings s = step.tierPooled() ? spec.stats().withAddedSlos(step.judgedSlos())
                : spec.stats().withoutSlos();
        return s.withTierMetric(step.tierMetric());
    }

    /**
     * Starts feeding a step; a step still open is finished first without a result.
     *
     * @param label the step's label (unique in the run)
     * @param step  its spec
     */
    public synchronized void startStep(String label, ExperimentSpec step) {
        if (current != null) {
            finishStep(null);
        }
        StatsSettings s = settingsOf(step);
        current = new Current(label, step, s.config(), s.withoutSlos().config(), originNanos, live);
    }

    /** @return the label of the step being fed, or null between steps */
    public synchronized String currentStep() {
        return current == null ? null : current.label;
    }

    /**
     * Takes one finished request of the current step.
     *
     * @param r the request (any phase and outcome)
     * @throws IllegalStateException when no step was started
     */
    public synchronized void add(RequestRecord r) {
        if (current == null) {
            throw new IllegalStateException("request " + r.id() + " arrived outside a step");
        }
        Current c = current;
        if (r.measured()) {
            if (c.firstLabel == null) {
                c.firstLabel = r.label();
            }
            if (!c.parts.isEmpty() || !r.label().equals(c.firstLabel)) {
                if (c.parts.isEmpty()) {
                    // a second label: every measured request so far carried the first, so its part is the step so
                    // far (while there is one label, no second copy of the step's samples is kept)
                    StatsAccumulator first = new StatsAccumulator(c.partConfig, c.originNanos, false);
                    first.absorb(c.all);
                    c.parts.put(c.firstLabel, first);
                }
                c.parts.computeIfAbsent(r.label(), l -> new StatsAccumulator(c.partConfig, c.originNanos, false))
                        .add(r);
            }
        }
        c.all.add(r);
    }

    /**
     * Ends the current step: its exact statistics are computed once, here.
     *
     * @param result the step runner's result, or null when there is none (cancelled before it returned, lost)
     * @return the step's outcome, or null when no step was open
     */
    public synchronized RunResult.StepOutcome finishStep(StepResult result) {
        if (current == null) {
            return null;
        }
        Current c = current;
        current = null;
        Map<String, StatsReport> parts = new LinkedHashMap<>();
        if (c.parts.size() > 1) { // a sweep's lengths, a grid's cells: each also on its own
            c.parts.forEach((l, a) -> parts.put(l, a.report()));
        }
        RunResult.StepOutcome o = new RunResult.StepOutcome(c.label, c.spec.type(), c.spec, result, c.all.report(),
                parts, c.all.series(), cdfs(c.all, true), false);
        finished.add(o);
        finishedAccumulators.add(c.all);
        return o;
    }

    private static Map<String, LatencyCdf> cdfs(StatsAccumulator a, boolean exact) {
        Map<String, LatencyCdf> m = new LinkedHashMap<>();
        m.put(Metric.TTFT.id(), a.cdf(Metric.TTFT, exact));
        m.put(Metric.E2E.id(), a.cdf(Metric.E2E, exact));
        return m;
    }

    /**
     * @return the finished steps' outcomes followed, while a step runs, by its live outcome (statistics from
     *         histograms when the model is live, exact otherwise; no result)
     */
    public synchronized List<RunResult.StepOutcome> steps() {
        List<RunResult.StepOutcome> out = new ArrayList<>(finished);
        if (current != null) {
            Current c = current;
            Map<String, StatsReport> parts = new LinkedHashMap<>();
            if (c.parts.size() > 1) {
                c.parts.forEach((l, a) -> parts.put(l, a.report()));
            }
            out.add(new RunResult.StepOutcome(c.label, c.spec.type(), c.spec, null,
                    live ? c.all.liveReport() : c.all.report(), parts, c.all.series(), cdfs(c.all, !live), true));
        }
        return out;
    }

    /**
     * The whole-run summary over the measured requests of every finished step, judged on the run's tier metric
     * without SLOs. With one step its sorted samples are reused; with several they are concatenated once.
     *
     * @return the summary
     */
    public synchronized StatsReport overall() {
        StatsConfig c = spec.stats().withoutSlos().config();
        if (finishedAccumulators.size() == 1) {
            return finishedAccumulators.get(0).report(c);
        }
        StatsAccumulator all = new StatsAccumulator(c, originNanos, false);
        finishedAccumulators.forEach(all::absorb);
        return all.report();
    }
}
