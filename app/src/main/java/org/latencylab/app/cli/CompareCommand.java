package org.latencylab.app.cli;

import org.latencylab.app.report.Units;
import org.latencylab.engine.compare.CompareEndpointsSpec;
import org.latencylab.engine.compare.RunComparison;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.load.LoadMode;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.scenario.StepCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code latencylab compare RUN_DIR...}: difference table of any number of runs against a baseline. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compare finished runs (LatencyLab's or imported ones): P50/P95/P99 of TTFT, E2E, TPOT and ITL"
                + " per run and the difference of each against a baseline run.",
                "%nNumbers come from each run's run.json; an imported run keeps its tool's definitions."
                        + " For charts, use 'report'."})
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "two or more run directories")
    List<Path> runs;

    @Option(names = "--baseline", paramLabel = "N", defaultValue = "1",
            description = "number of the baseline run in the list, from 1 (default: ${DEFAULT-VALUE})")
    int baseline;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (runs.size() < 2) {
            spec.commandLine().getErr().println("latencylab: compare needs two or more run directories"
                    + " (RUN_DIR RUN_DIR...); for one run, use 'summarize' or 'report'");
            return ExitCodes.BAD_INPUT;
        }
        List<RunDocument> infos = RunComparison.load(runs, StepCatalog.types());
        List<RunComparison.Row> rows = RunComparison.differences(infos, baseline - 1);
        List<String> labels = RunComparison.labels(infos, false);
        for (int i = 0; i < infos.size(); i++) {
            RunDocument r = infos.get(i);
            out.printf(Locale.ROOT, "%d. %s (%s)%s%s%n", i + 1, labels.get(i), r.sourceTool(),
                    i == baseline - 1 ? " — baseline" : "",
                    r.missingMetrics().isEmpty() ? "" : "; lacks " + String.join(", ", r.missingMetrics()));
            String status = r.status() == null ? "" : r.status();
            out.printf(Locale.ROOT, "   %s%s%s%n", r.dir(), loadOf(r),
                    status.isEmpty() || status.equals("completed") ? "" : " (run " + status + ")");
            if (r.trust() != null && r.trust().saturated()) {
                out.printf(Locale.ROOT, "   %s%n", r.trust().message().isEmpty() ? "client saturated"
                        : r.trust().message());
            }
            int steps = r.steps().size();
            if (steps > 1) {
                out.printf(Locale.ROOT, "   its figures pool the measured requests of all its %d steps (per-step"
                        + " numbers: 'report %s')%n", steps, r.dir());
            }
        }
        out.println();
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-10s", "metric"));
        for (int i = 0; i < infos.size(); i++) {
            head.append(String.format(Locale.ROOT, " %-24s", (i + 1) + "."));
        }
        out.println(head);
        boolean anyThin = false;
        for (RunComparison.Row row : rows) {
            if (row.valuesMs().stream().allMatch(v -> Double.isNaN(v))) {
                continue;
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-10s",
                    "P" + (int) row.percentile() + " " + row.metric().toUpperCase(Locale.ROOT)));
            for (int i = 0; i < infos.size(); i++) {
                String cell = Units.ms(row.valuesMs().get(i)) + (row.thin().get(i) ? "*" : "");
                anyThin |= row.thin().get(i);
                if (i != baseline - 1 && !Double.isNaN(row.deltaMs().get(i))) {
                    cell += String.format(Locale.ROOT, " (%+.1f %%)", row.deltaPct().get(i));
                }
                line.append(String.format(Locale.ROOT, " %-24s", cell));
            }
            out.println(line);
        }
        out.println();
        if (anyThin) {
            out.println("* fewer than 10 samples above this percentile in that run: an estimate near its maximum, so a"
                    + " difference against it says little");
        }
        out.println("(Δ % against run " + baseline + "; an imported run's numbers follow its tool's definitions:"
                + " see 'latencylab lens')");
        return ExitCodes.OK;
    }

    /**
     * @param run a run
     * @return for a run of one step: ": 128 requests at concurrency 64" (probe, ranking), ": open loop at 300 req/s
     * for 60s", ": open loop bursting from 30 to 150 req/s for 60s", ": closed loop of 16 workers for 60s" (load
     * steps); else "" (a comparison line then shows the directory alone)
     */
    private static String loadOf(RunDocument run) {
        if (run.steps().size() != 1) {
            return "";
        }
        ExperimentSpec spec = run.steps().get(0).spec();
        if (spec instanceof ProbeSpec p) {
            return requests(p.requests(), p.concurrency());
        }
        if (spec instanceof CompareEndpointsSpec c) {
            return requests(c.requests(), c.concurrency());
        }
        if (!(spec instanceof LoadSpec l)) {
            return "";
        }
        if (l.requests() != null && l.concurrency() != null) {
            return requests(l.requests(), l.concurrency());
        }
        String duration = l.duration() == null ? "" : " for " + DurationText.format(l.duration());
        if (l.rate() != null) {
            return ": open loop at " + number(l.rate()) + " req/s" + duration;
        }
        if (l.burst() != null) {
            return ": open loop bursting from " + number(l.burst().base()) + " to " + number(l.burst().peak())
                    + " req/s" + duration;
        }
        if (l.mode() == LoadMode.CLOSED && l.concurrency() != null) {
            return ": closed loop of " + l.concurrency() + " workers" + duration;
        }
        return "";
    }

    private static String requests(Number requests, Number concurrency) {
        if (requests == null || concurrency == null) {
            return "";
        }
        return ": " + requests + (requests.longValue() == 1 ? " request" : " requests") + " at concurrency "
                + concurrency;
    }

    private static String number(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
