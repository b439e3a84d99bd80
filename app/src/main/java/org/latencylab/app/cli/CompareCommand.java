package org.latencylab.app.cli;

import org.latencylab.app.report.Units;
import org.latencylab.engine.compare.RunComparison;
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
        List<RunComparison.RunInfo> infos = RunComparison.load(runs);
        List<RunComparison.Row> rows = RunComparison.differences(infos, baseline - 1);
        List<String> labels = RunComparison.labels(infos, false);
        for (int i = 0; i < infos.size(); i++) {
            RunComparison.RunInfo r = infos.get(i);
            out.printf(Locale.ROOT, "%d. %s (%s)%s%s%n", i + 1, labels.get(i), r.sourceTool(),
                    i == baseline - 1 ? " — baseline" : "",
                    r.missingMetrics().isEmpty() ? "" : "; lacks " + String.join(", ", r.missingMetrics()));
            String status = r.runJson().path("status").asText("");
            out.printf(Locale.ROOT, "   %s%s%s%n", r.dir(), loadOf(r.runJson()),
                    status.isEmpty() || status.equals("completed") ? "" : " (run " + status + ")");
            com.fasterxml.jackson.databind.JsonNode trust = r.runJson().path("trust");
            if (trust.path("saturated").asBoolean(false)) {
                out.printf(Locale.ROOT, "   %s%n", trust.path("message").asText("client saturated"));
            }
            int steps = r.runJson().path("steps").size();
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
     * @param runJson a run's {@code run.json}
     * @return for a run of one step: ": 128 requests at concurrency 64" (probe), ": open loop at 300 req/s for 60s",
     * ": open loop bursting from 30 to 150 req/s for 60s", ": closed loop of 16 workers for 60s" (load steps); else ""
     * (a comparison line then shows the directory alone)
     */
    private static String loadOf(com.fasterxml.jackson.databind.JsonNode runJson) {
        com.fasterxml.jackson.databind.JsonNode steps = runJson.path("steps");
        if (steps.size() != 1) {
            return "";
        }
        com.fasterxml.jackson.databind.JsonNode spec = steps.get(0).path("spec");
        if (spec.has("requests") && spec.has("concurrency")) {
            return ": " + spec.get("requests").asText() + (spec.get("requests").asInt() == 1 ? " request" : " requests")
                    + " at concurrency " + spec.get("concurrency").asText();
        }
        String duration = spec.path("duration").isTextual() ? " for " + spec.get("duration").asText() : "";
        if (spec.path("rate").isNumber()) {
            return ": open loop at " + number(spec.get("rate")) + " req/s" + duration;
        }
        com.fasterxml.jackson.databind.JsonNode burst = spec.path("burst");
        if (burst.path("base").isNumber() && burst.path("peak").isNumber()) {
            return ": open loop bursting from " + number(burst.get("base")) + " to " + number(burst.get("peak"))
                    + " req/s" + duration;
        }
        if ("closed".equals(spec.path("mode").asText()) && spec.path("concurrency").isNumber()) {
            return ": closed loop of " + spec.get("concurrency").asText() + " workers" + duration;
        }
        return "";
    }

    private static String number(com.fasterxml.jackson.databind.JsonNode n) {
        return new java.math.BigDecimal(n.asText()).stripTrailingZeros().toPlainString();
    }
}
