package org.latencylab.app.cli;

import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.calibration.Calibration;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code latencylab calibrate}: the client's own timing error at a planned load, against a stamping simulator in a
 * separate process ({@link Calibration}). Not thread-safe (one per invocation).
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = {"Measure LatencyLab's own timing error at a planned load.",
                "%nStarts the stamping simulator as a separate process (every event carries the server's send time),"
                        + " drives it with the same client at the load given (closed loop --concurrency or open loop"
                        + " --rate; without either a ladder of concurrencies 1, 16, 64, 256, 1024) and prints, per load,"
                        + " P50/P99/max of receive time - server stamp per event and for first tokens, dispatch lag and"
                        + " CPU per request, and the load above which the error P99 exceeds 1 ms."})
final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    LoadChoice load;

    static final class LoadChoice {
        @Option(names = {"-c", "--concurrency"}, paramLabel = "C", description = "closed loop: streams in flight")
        Integer concurrency;

        @Option(names = {"-r", "--rate"}, paramLabel = "R", description = "open loop: requests per second (Poisson)")
        Double rate;
    }

    @Option(names = {"-e", "--events-per-s"}, paramLabel = "E", defaultValue = "50",
            description = "events per second per stream sent by the simulator (default: ${DEFAULT-VALUE})")
    double eventsPerSecond;

    @Option(names = "--tokens", paramLabel = "N", defaultValue = "16",
            description = "events (tokens) per request (default: ${DEFAULT-VALUE})")
    int tokens;

    @Option(names = {"-d", "--duration"}, paramLabel = "DURATION", defaultValue = "5s",
            description = "measured time per load, e.g. 10s (default: ${DEFAULT-VALUE})")
    String duration;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "keep the simulator profile and one run directory per load here (default: a temporary"
                    + " directory, deleted afterwards)")
    Path out;

    @Override
    public Integer call() throws Exception {
        List<Calibration.Load> loads = new ArrayList<>();
        if (load != null && load.concurrency != null) {
            loads.add(new Calibration.Load(load.concurrency, null));
        } else if (load != null && load.rate != null) {
            loads.add(new Calibration.Load(null, load.rate));
        } else {
            Calibration.DEFAULT_LADDER.forEach(c -> loads.add(new Calibration.Load(c, null)));
        }
        Duration d;
        try {
            d = DurationText.parse(duration);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--duration: " + e.getMessage(), e);
        }
        Calibration.Plan plan = new Calibration.Plan(loads, eventsPerSecond, tokens, d);
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path work = out != null ? out : Files.createTempDirectory("latencylab-calibrate-");
        Calibration.Report report;
        try {
            report = new Calibration(simulatorCommand(), StepCatalog.engine()).run(plan, work, line -> {
                err.println(line);
                err.flush();
            });
        } finally {
            if (out == null) {
                Calibration.deleteWorkDir(work);
            }
        }
        print(report, plan, o);
        o.flush();
        return ExitCodes.OK;
    }

    /** This JVM's java binary and class path, running the launcher: the simulator runs the same build. */
    static List<String> simulatorCommand() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, "-cp", System.getProperty("java.class.path"), "org.latencylab.app.Launcher");
    }

    static void print(Calibration.Report r, Calibration.Plan plan, PrintWriter o) {
        o.printf(Locale.ROOT, "%nLatencyLab calibrate — %s — %s events/s per stream, %d tokens per request, %d s per load%n",
                r.simulator(), trim(plan.eventsPerSecond()), plan.outputTokens(), plan.duration().toSeconds());
        o.println("error = client receive time - server stamp (x_sent_ns) of each event, both System.nanoTime; "
                + "TTFT error = the same for each request's first token");
        o.printf(Locale.ROOT, "%-10s %8s %9s %10s %10s %10s %11s %11s %11s %10s %10s %9s %9s  %s%n", "load",
                "requests", "events", "err P50", "err P99", "err max", "TTFTerr P50", "TTFTerr P99", "TTFTerr max",
                "lag P99", "runq wait", "CPU/req", "req/s", "trust");
        for (Calibration.Level l : r.levels()) {
            o.printf(Locale.ROOT, "%-10s %8d %9d %10s %10s %10s %11s %11s %11s %10s %10s %9s %9s  %s%n",
                    l.load().label(), l.requests(), l.events(), ms(l.errorP50Ms()), ms(l.errorP99Ms()),
                    ms(l.errorMaxMs()), ms(l.ttftErrorP50Ms()), ms(l.ttftErrorP99Ms()), ms(l.ttftErrorMaxMs()),
                    ms(l.dispatchLagP99Ms()), ms(l.trust() == null ? Double.NaN : l.trust().runQueueWaitMs()),
                    ms(l.cpuPerRequestMs()), Double.isNaN(l.achievedRps()) ? "n/a"
                            : String.format(Locale.ROOT, "%.1f", l.achievedRps()),
                    l.trust() == null ? "" : l.trust().saturated() ? "SATURATED" : "ok");
            if (l.failed() > 0) {
                o.printf(Locale.ROOT, "%-10s %d requests failed or were cancelled%n", "", l.failed());
            }
            if (l.negative() > 0) {
                o.printf(Locale.ROOT, "%-10s %d events arrived before their server stamp: the clocks differ, the "
                        + "figures above are not errors%n", "", l.negative());
            }
        }
        o.println(r.verdict());
    }

    private static String ms(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return v < 10 ? String.format(Locale.ROOT, "%.3f ms", v) : String.format(Locale.ROOT, "%.1f ms", v);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
