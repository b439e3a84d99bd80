package org.latencylab.engine.calibration;

import org.latencylab.engine.results.RunLayout;
import org.HdrHistogram.Histogram;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.experiment.RunEngine;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.sim.SimProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Measures the client's own timing error at a planned load ({@code latencylab calibrate}).
 *
 * <p>A stamping simulator is started as a <em>separate process</em> (so its work does not share the client's JVM:
 * no shared garbage collector, no shared virtual-thread carriers), with no prefill time and one event every
 * {@code 1/E} seconds per stream; every event carries {@code x_sent_ns}, the simulator's {@link System#nanoTime()}
 * just before it wrote the event. On Linux {@code System.nanoTime()} is {@code CLOCK_MONOTONIC}, one clock for every
 * process of the machine, so for each event <b>receive − server stamp</b> is the time the event spent in the
 * kernel, on loopback and in the client before the client stamped it: the client's own error plus the loopback's
 * (a few microseconds), never negative. The same client code as every run then drives the simulator through the
 * run engine, closed loop (concurrency C) or open loop (Poisson, rate R), for a fixed duration per load.
 *
 * <p>Figures per load: P50/P99/max of the event error; the TTFT error, i.e. the same error for each request's first
 * token event (the stamp-side part of a TTFT error: what the client adds after the server sent the first token);
 * dispatch-lag P99 (actual send − intended start); CPU time of this process per request (while the load step
 * measured: from its clock start to its last request's end, its warm-up phase included; an unreported warm-up pass
 * before the first load keeps class loading and JIT compilation out of it); and the load step's
 * {@link TrustCheck}. Over a ladder of loads the report names the first load whose event-error P99 exceeds
 * {@value #ERROR_LIMIT_MS} ms.
 *
 * <p>Not thread-safe; one calibration at a time per instance.
 */
public final class Calibration {
    /** Event-error P99 the report compares each load with, milliseconds. */
    public static final double ERROR_LIMIT_MS = 1.0;
    /** Concurrency ladder used when no load is given. */
    public static final List<Integer> DEFAULT_LADDER = List.of(1, 16, 64, 256, 1024);
    private static final Duration SIMULATOR_START_TIMEOUT = Duration.ofSeconds(60);

    private final List<String> simulatorCommand;
    private final RunEngine engine;

    /**
     * @param simulatorCommand command line that runs LatencyLab's launcher in a new process, without the
     *                         {@code sim} subcommand, e.g. {@code [java, -cp, latencylab.jar,
     *                         org.latencylab.app.Launcher]}; not empty
     * @param engine           the run engine (must know the {@code load} step type)
     * @throws IllegalArgumentException when the command is empty
     */
    public Calibration(List<String> simulatorCommand, RunEngine engine) {
        if (simulatorCommand == null || simulatorCommand.isEmpty()) {
            throw new IllegalArgumentException("simulator command must not be empty");
        }
        this.simulatorCommand = List.copyOf(simulatorCommand);
        this.engine = Objects.requireNonNull(engine, "engine");
    }

    /**
     * One planned load: closed loop ({@code concurrency}) or open loop ({@code rateRps}), exactly one set.
     *
     * @param concurrency streams in flight (closed loop), >= 1, or null
     * @param rateRps     requests per second (open loop, Poisson arrivals), > 0, or null
     * @throws IllegalArgumentException when neither or both are set, or a value is out of range
     */
    public record Load(Integer concurrency, Double rateRps) {
        public Load {
            if ((concurrency == null) == (rateRps == null)) {
                throw new IllegalArgumentException("give either a concurrency or a rate, not " + (concurrency == null
                        ? "neither" : "both"));
            }
            if (concurrency != null && concurrency < 1) {
                throw new IllegalArgumentException("--concurrency must be >= 1, was " + concurrency);
            }
            if (rateRps != null && !(rateRps > 0)) {
                throw new IllegalArgumentException("--rate must be > 0 req/s, was " + rateRps);
            }
        }

        /** @return e.g. {@code "C=64"} or {@code "R=300/s"} */
        public String label() {
            return concurrency != null ? "C=" + concurrency
                    : "R=" + (rateRps == Math.rint(rateRps) ? Long.toString(rateRps.longValue()) : rateRps) + "/s";
        }
    }

    /**
     * What to calibrate.
     *
     * @param loads           loads to measure, in order; not empty
     * @param eventsPerSecond events per second per stream sent by the simulator, in (0, 10000]
     * @param outputTokens    events (tokens) per request, >= 1
     * @param duration        measured time per load, >= 1 s (a warm-up of a fifth of it, at most 2 s, comes first)
     * @throws IllegalArgumentException when a value is out of range (the message names the option)
     */
    public record Plan(List<Load> loads, double eventsPerSecond, int outputTokens, Duration duration) {
        public Plan {
            if (loads == null || loads.isEmpty()) {
                throw new IllegalArgumentException("at least one load is needed");
            }
            loads = List.copyOf(loads);
            if (!(eventsPerSecond > 0) || eventsPerSecond > 10_000) {
                throw new IllegalArgumentException("--events-per-s must be in (0, 10000], was " + eventsPerSecond);
            }
            if (outputTokens < 1) {
                throw new IllegalArgumentException("--tokens must be >= 1, was " + outputTokens);
            }
            if (duration == null || duration.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("--duration must be at least 1s, was " + duration);
            }
        }
    }

    /**
     * The client's error at one load.
     *
     * @param load             the load
     * @param requests         measured requests that succeeded
     * @param failed           measured requests that failed or were cancelled
     * @param events           stamped events scored
     * @param errorP50Ms       event error (receive − server stamp) P50, ms
     * @param errorP99Ms       event error P99, ms
     * @param errorMaxMs       event error max, ms
     * @param ttftErrorP50Ms   first-token event error P50, ms
     * @param ttftErrorP99Ms   first-token event error P99, ms
     * @param ttftErrorMaxMs   first-token event error max, ms
     * @param negative         events whose receive time was before the server stamp (should be 0; else the clocks
     *                         differ and the figures mean nothing)
     * @param dispatchLagP99Ms dispatch-lag P99, ms (NaN without requests)
     * @param cpuPerRequestMs  CPU time of this process per request, ms (NaN when unknown)
     * @param achievedRps      achieved rate of the load step, measured sends per second of its measured window
     * @param trust            the run's trust check
     */
    public record Level(Load load, long requests, long failed, long events, double errorP50Ms, double errorP99Ms,
                        double errorMaxMs, double ttftErrorP50Ms, double ttftErrorP99Ms, double ttftErrorMaxMs,
                        long negative, double dispatchLagP99Ms, double cpuPerRequestMs, double achievedRps,
                        TrustCheck trust) {
        /** @return whether the event-error P99 stays within {@link #ERROR_LIMIT_MS} */
        public boolean withinLimit() {
            return events > 0 && errorP99Ms <= ERROR_LIMIT_MS;
        }
    }

    /**
     * A finished calibration.
     *
     * @param simulator    what was measured against, e.g. {@code "stamping simulator (pid 1234) at http://..."}
     * @param simulatorPid process id of the simulator (gone by the time this is returned)
     * @param levels       one entry per load, in order
     */
    public record Report(String simulator, long simulatorPid, List<Level> levels) {
        /**
         * @return the last load before the first one whose event-error P99 exceeds {@link #ERROR_LIMIT_MS}, as a
         * sentence
         */
        public String verdict() {
            Level last = null;
            for (Level l : levels) {
                if (!l.withinLimit()) {
                    return last == null
                            ? String.format(Locale.ROOT,
                            "the client's event-stamp error P99 exceeds %.0f ms %s %s (%.2f ms)",
                            ERROR_LIMIT_MS, levels.size() == 1 ? "at" : "already at", l.load().label(),
                            l.errorP99Ms())
                            : String.format(Locale.ROOT,
                            "the client's event-stamp error P99 exceeds %.0f ms above %s (at %s: %.2f ms)",
                            ERROR_LIMIT_MS, last.load().label(), l.load().label(), l.errorP99Ms());
                }
                last = l;
            }
            return String.format(Locale.ROOT, "the client's event-stamp error P99 stays within %.0f ms up to %s, the"
                    + " highest load tried", ERROR_LIMIT_MS, last.load().label());
        }
    }

    /**
     * Starts the simulator process, measures every load of the plan, stops the simulator.
     *
     * @param plan     what to measure
     * @param workDir  directory for the simulator profile and one run directory per load ({@code calibrate-C=64},
     *                 ...); created when missing
     * @param progress receives one line per step (may be called from this thread only)
     * @return the report
     * @throws IOException          when the simulator cannot be started or the files cannot be written
     * @throws InterruptedException when interrupted; the simulator is stopped
     */
    public Report run(Plan plan, Path workDir, Consumer<String> progress) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path profile = workDir.resolve("calibration-profile.yaml");
        Files.writeString(profile, profileYaml(plan.eventsPerSecond()), StandardCharsets.UTF_8);
        try (SimProcess sim = startSimulator(simulatorCommand, profile)) {
            progress.accept("stamping simulator started as process " + sim.pid() + " at " + sim.baseUrl());
            // an unreported first pass, so that no load pays for class loading and JIT compilation of the client
            Load warm = new Load(Math.min(8, plan.loads().get(0).concurrency() == null ? 8
                    : plan.loads().get(0).concurrency()), null);
            progress.accept("warming up the client (" + warm.label() + ", 2 s, not reported) ...");
            measure(new Plan(List.of(warm), plan.eventsPerSecond(), plan.outputTokens(), Duration.ofSeconds(2)), warm,
                    sim.baseUrl(), workDir.resolve("calibrate-warm-up"));
            List<Level> levels = new ArrayList<>();
            for (Load load : plan.loads()) {
                progress.accept("measuring " + load.label() + " for " + plan.duration().toSeconds() + " s ...");
                levels.add(measure(plan, load, sim.baseUrl(), workDir.resolve("calibrate-" + load.label()
                        .replace('/', '-'))));
            }
            return new Report("stamping simulator (separate process, pid " + sim.pid() + ") at " + sim.baseUrl(),
                    sim.pid(), levels);
        }
    }

    /**
     * @param eventsPerSecond events per second per stream
     * @return a simulator profile with no prefill, no jitter and one token every {@code 1/eventsPerSecond} s
     */
    static String profileYaml(double eventsPerSecond) {
        return String.format(Locale.ROOT, """
                name: calibration
                model: calibration-sim
                source: written by 'latencylab calibrate' - no prefill, no jitter, one event every %.6f s per stream
                prefill: {t0: 0, k: 0, alpha: 1}
                decode: {tpot: %.9f, batchSlowdown: 0}
                maxRunningSeqs: 1000000
                """, 1 / eventsPerSecond, 1 / eventsPerSecond);
    }

    private Level measure(Plan plan, Load load, String baseUrl, Path dir) throws InterruptedException {
        Duration warmup = Duration.ofMillis(Math.min(2_000, plan.duration().toMillis() / 5));
        LoadSpec.Builder b = LoadSpec.builder().duration(plan.duration()).warmup(warmup).contextTokens(16)
                .maxOutputTokens(plan.outputTokens()).stream(true).coldPrompts(true).drainTimeout(Duration.ofSeconds(30));
        if (load.concurrency() != null) {
            b.concurrency(load.concurrency());
        } else {
            b.rate(load.rateRps()).arrival(ArrivalProcess.POISSON);
        }
        Endpoint endpoint = Endpoint.of("calibration-sim", Protocol.OPENAI_CHAT, baseUrl, "calibration-sim");
        RunSpec spec = new RunSpec("calibrate-" + load.label(), TargetSpec.of(endpoint),
                ClientOptions.DEFAULTS.withKeepText(false), null, List.of(b.build()), null, null, 1);
        RunResult result = engine.start(spec, dir, RunListener.NONE, true).await();
        if (result.status() == RunResult.Status.FAILED) {
            throw new IllegalStateException("calibration at " + load.label() + " failed: " + result.failure());
        }
        Histogram events = new Histogram(TimeUnit.MINUTES.toNanos(10), 3);
        Histogram ttft = new Histogram(TimeUnit.MINUTES.toNanos(10), 3);
        Histogram lag = new Histogram(TimeUnit.MINUTES.toNanos(10), 3);
        long ok = 0;
        long failed = 0;
        long negative = 0;
        for (RequestRecord r : RequestLog.read(dir.resolve(RunLayout.REQUESTS_JSONL))) {
            if (r.phase() != org.latencylab.engine.api.Phase.MEASURED) {
                continue;
            }
            if (!r.succeeded()) {
                failed++;
                continue;
            }
            ok++;
            if (r.dispatchLagNanos() >= 0) {
                lag.recordValue(Math.min(r.dispatchLagNanos(), lag.getHighestTrackableValue()));
            }
            TokenTimeline t = r.tokens();
            for (int i = 0; i < t.size(); i++) {
                if (t.serverStampNanos(i) == RequestRecord.UNSET) {
                    continue;
                }
                // both relative to the run's origin in requests.jsonl: the origin cancels out
                long err = t.arrivalNanos(i) - t.serverStampNanos(i);
                if (err < 0) {
                    negative++;
                }
                long v = Math.min(Math.max(0, err), events.getHighestTrackableValue());
                events.recordValue(v);
                if (i == 0) {
                    ttft.recordValue(v);
                }
            }
        }
        // the load step's own achieved rate: measured sends per second of the measured window
        double rps = result.steps().isEmpty() || !(result.steps().get(0).result() instanceof LoadResult lr)
                ? Double.NaN : lr.totals().achievedRateRps();
        // the load step's own verdict: CPU, hiccups and waits while it measured (the run's also counts its set-up)
        TrustCheck trust = result.steps().isEmpty() || result.steps().get(0).trust() == null ? result.trust()
                : result.steps().get(0).trust();
        return new Level(load, ok, failed, events.getTotalCount(), p(events, 50), p(events, 99), max(events),
                p(ttft, 50), p(ttft, 99), max(ttft), negative, lag.getTotalCount() == 0 ? Double.NaN : p(lag, 99),
                trust == null ? Double.NaN : trust.cpuPerRequestMs(), rps, trust);
    }

    private static double p(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6;
    }

    private static double max(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue() / 1e6;
    }

    /** The simulator in its own process, started with {@code sim --profile FILE --stamping --port 0}. */
    private static SimProcess startSimulator(List<String> command, Path profile)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(command);
        cmd.addAll(List.of("sim", "--profile", profile.toString(), "--stamping", "--port", "0"));
        return SimProcess.start(cmd, SIMULATOR_START_TIMEOUT);
    }

    /**
     * Deletes a calibration's work directory (its profile and run directories).
     *
     * @param workDir the directory given to {@link #run}
     * @throws UncheckedIOException when a file cannot be deleted
     */
    public static void deleteWorkDir(Path workDir) {
        if (!Files.exists(workDir)) {
            return;
        }
        try (var files = Files.walk(workDir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + workDir + ": " + e.getMessage(), e);
        }
    }
}
