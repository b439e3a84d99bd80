package org.latencylab.engine.trace;

import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadStepRunner;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;

/**
 * Runs a {@link ReplaySpec}: one pass over the trace to find its window's size and mean rate, then an open-loop load
 * step fed by the trace ({@link LoadStepRunner#runFed}) — so a replay reports what a load step does: latency from the
 * intended start, schedule fidelity as dispatch lag (send − intended), and a tier that the trust check refuses when
 * the client slipped behind the schedule. Thread-safe (no state between runs).
 */
public final class ReplayStepRunner implements StepRunner<ReplaySpec> {
    private final LoadStepRunner load;

    /** A runner on a default {@link LoadStepRunner}. */
    public ReplayStepRunner() {
        this(new LoadStepRunner());
    }

    /** @param load the load runner that sends the replay's requests */
    public ReplayStepRunner(LoadStepRunner load) {
        this.load = load;
    }

    /**
     * @param scratch the warm-up's context
     * @throws InterruptedException when interrupted
     */
    @Override
    public void warmUp(StepContext scratch) throws InterruptedException {
        load.warmUp(scratch);
    }

    /**
     * @param spec    the replay
     * @param label   label of its requests
     * @param context the run's services; skipped lines and a window cut short are said as notices
     * @return the load step's result
     * @throws TraceException       when the trace cannot be read or holds no request in the window
     * @throws InterruptedException when the calling thread is interrupted
     */
    @Override
    public LoadResult run(ReplaySpec spec, String label, StepContext context) throws InterruptedException {
        ReplayWindow window = spec.window();
        TraceScan scan = TraceScan.of(window);
        String name = String.valueOf(window.file().getFileName());
        String step = "replay '" + (label == null ? "replay" : label) + "': ";
        if (scan.skipped() > 0) {
            context.notice(step + String.format(Locale.ROOT, "%,d malformed or out-of-order record%s of %s skipped;"
                    + " first: %s", scan.skipped(), scan.skipped() == 1 ? "" : "s", name, scan.skipSamples().get(0)));
        }
        if (scan.filtered() > 0) {
            context.notice(step + String.format(Locale.ROOT, "%,d rows of %s left out by the model/logType filter",
                    scan.filtered(), name));
        }
        if (scan.requests() == 0) {
            throw new TraceException(name + ": no valid request" + (scan.beyondWindow() > 0 || window.startNanos() > 0
                    ? " in the window asked (check start and duration)" : "") + ": nothing to replay"
                    + (scan.skipped() > 0 ? "; first problem: " + scan.skipSamples().get(0) : ""));
        }
        if (scan.beyondWindow() > 0) {
            context.notice(step + String.format(Locale.ROOT, "the trace is longer than the window asked: %,d later"
                    + " request%s of %s not sent (the duration or limit ends the replay)", scan.beyondWindow(),
                    scan.beyondWindow() == 1 ? "" : "s", name));
        }
        double spanSeconds = scan.spanNanos() / 1e9;
        double speed = spec.speed() != null ? spec.speed() : 1.0;
        if (spec.rate() != null) {
            if (scan.requests() < 2 || spanSeconds <= 0) {
                throw new TraceException(name + ": rate needs a window of at least two requests at different times;"
                        + " give speed instead");
            }
            speed = spec.rate() / ((scan.requests() - 1) / spanSeconds);
        }
        long replayNanos = Math.round(scan.spanNanos() / speed);
        // the rate profile only sizes the connections and states the target rate: the trace's mean rate
        double meanRate = scan.requests() < 2 || replayNanos == 0 ? 1.0 : (scan.requests() - 1) / (replayNanos / 1e9);
        LoadSpec loadSpec = LoadSpec.builder().rate(meanRate).arrival(ArrivalProcess.CONSTANT)
                // past the last arrival by a millisecond so that it is inside the duration
                .duration(Duration.ofNanos(replayNanos + 1_000_000L))
                .contextTokens((int) Math.max(1, Math.round(scan.meanInputTokens())))
                .maxOutputTokens((int) Math.max(1, Math.round(scan.meanOutputTokens())))
                .stream(spec.stream()).slos(spec.slos()).tierMetric(spec.tierMetric()).build();
        context.notice(step + String.format(Locale.ROOT, "%,d requests of %s over %.1f s of trace time, sent over"
                + " %.1f s (x%.3g), mean %.2f req/s", scan.requests(), name, spanSeconds, replayNanos / 1e9, speed,
                meanRate));
        try (TraceFeed feed = new TraceFeed(window, scan.firstArrivalNanos(), speed)) {
            return load.runFed(loadSpec, label, context, feed);
        } catch (IOException e) {
            throw new TraceException(name + ": cannot close the trace: " + e.getMessage());
        }
    }
}
