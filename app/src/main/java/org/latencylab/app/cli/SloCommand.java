package org.latencylab.app.cli;

import org.latencylab.engine.results.RunDocument;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.app.report.Units;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.sla.SlaMatrix;
import org.latencylab.engine.stats.SloBudget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code latencylab slo}: the SLO budget, and an SLO matrix judged against a run. */
@Command(name = "slo", mixinStandardHelpOptions = true,
        description = {"SLO calculator: model SLO = (SLA P95 − infrastructure P95) × (1 − safety margin); and/or"
                + " judge a run against a multi-metric SLO matrix, pass/fail per step and cell.",
                "%nExamples:%n  latencylab slo --sla-p95 1200ms --infra-p95 180ms --margin 0.2"
                        + "%n  latencylab slo --run runs/quickstart --cell e2e:p99:4000 --cell ttft:p99:1500"
                        + " --cell output_tokens_per_s:min:20",
                "%nExit status: 0 ok (every cell passed), 1 a cell failed, 2 bad input."})
final class SloCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--sla-p95", paramLabel = "DURATION", description = "end-to-end P95 the product promises, e.g. 1200ms (a bare number is milliseconds)")
    String slaP95;

    @Option(names = "--infra-p95", paramLabel = "DURATION",
            description = "measured P95 of everything but the model (gateway, network…), e.g. 180ms;"
                    + " a baseline step's paired overhead is a good source")
    String infraP95;

    @Option(names = "--margin", paramLabel = "FRACTION", defaultValue = "0.2",
            description = "safety margin held back, in [0, 1) (default: ${DEFAULT-VALUE})")
    double margin;

    @Option(names = "--run", paramLabel = "RUN_DIR", description = "run to judge against the SLO matrix")
    Path run;

    @Option(names = "--cell", paramLabel = "CELL",
            description = "SLO cell METRIC:pNN:MAX_MS (e.g. e2e:p99:2000) or output_tokens_per_s:min:N; repeatable")
    List<String> cells;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        boolean budget = slaP95 != null || infraP95 != null;
        if (!budget && run == null) {
            throw new IllegalArgumentException("give --sla-p95 and --infra-p95 (SLO budget) and/or --run with --cell"
                    + " (SLO matrix); see --help");
        }
        int status = ExitCodes.OK;
        if (budget) {
            if (slaP95 == null || infraP95 == null) {
                throw new IllegalArgumentException("the SLO budget needs both --sla-p95 and --infra-p95");
            }
            Duration sla = parse("--sla-p95", slaP95);
            Duration infra = parse("--infra-p95", infraP95);
            Duration model = SloBudget.modelSlo(sla, infra, margin);
            out.printf(Locale.ROOT, "model SLO (P95) = (%s − %s) × (1 − %.2f) = %s%n", Units.ms(sla.toNanos() / 1e6),
                    Units.ms(infra.toNanos() / 1e6), margin, Units.ms(model.toNanos() / 1e6));
        }
        if (run != null) {
            if (cells == null || cells.isEmpty()) {
                throw new IllegalArgumentException("--run needs at least one --cell, e.g. --cell e2e:p99:2000");
            }
            SlaMatrix matrix = new SlaMatrix(cells.stream().map(SlaMatrix.Cell::parse).toList());
            List<SlaMatrix.Row> rows = matrix.judge(RunDocument.read(run, StepCatalog.types()));
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-20s", "step"));
            matrix.cells().forEach(c -> head.append(String.format(Locale.ROOT, " %-28s", c.label())));
            out.println(head);
            for (SlaMatrix.Row row : rows) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-20s", row.step()));
                for (SlaMatrix.Verdict v : row.verdicts()) {
                    String measured = v.cell().percentile() == null
                            ? (Double.isNaN(v.measured()) ? "–" : String.format(Locale.ROOT, "%.1f tok/s", v.measured()))
                            : Units.ms(v.measured());
                    line.append(String.format(Locale.ROOT, " %-28s", (v.passed() ? "pass " : "FAIL ") + measured));
                }
                out.println(line);
                if (!row.passed()) {
                    status = ExitCodes.SLO_FAILED;
                }
            }
        }
        return status;
    }

    private static Duration parse(String option, String text) {
        try {
            if (text != null && text.strip().matches("[0-9]+(\\.[0-9]+)?")) {
                // a bare number here is milliseconds, like the --cell limits
                return Duration.ofNanos(Math.round(Double.parseDouble(text.strip()) * 1e6));
            }
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }
}
