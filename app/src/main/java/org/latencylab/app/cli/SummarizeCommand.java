package org.latencylab.app.cli;

import org.latencylab.engine.results.RunDocument;
import org.latencylab.app.report.ConsoleReport;
import org.latencylab.app.report.RunCharts;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.scenario.StepCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code latencylab summarize RUN_DIR}: prints the summary of a run directory as the run concluded it. A run whose
 * process died ({@code run.json} still says {@code running}) is recovered first: {@code run.json} and
 * {@code summary.csv} are rebuilt from {@code requests.jsonl} with status {@code interrupted} and the gap noted.
 * The exit status follows {@link ExitCodes#of}, the rule {@code run} exits by. Not thread-safe (one per invocation).
 */
@Command(name = "summarize", mixinStandardHelpOptions = true,
        description = {"Print the summary of a run directory; rebuild it from requests.jsonl when the run was killed.",
                "%nA run directory whose run.json still says 'running' (the process was killed or crashed) gets its"
                        + " run.json and summary.csv rebuilt from requests.jsonl, with status 'interrupted' and the"
                        + " gap noted, and its charts redrawn. Exit status, as 'run' gave it for the run (a run stopped"
                        + " by Ctrl-C or SIGTERM is judged on what finished): 0 ok, 1 an SLO failed, 3 the run failed"
                        + " or no request succeeded; 2 not a readable run directory."})
final class SummarizeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "a run directory, e.g. runs/20261130-101500-quickstart")
    Path dir;

    @Option(names = "--no-charts", description = "do not redraw PNG charts of a recovered run")
    boolean noCharts;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException(dir + ": no such directory");
        }
        RunDocument doc = RunDocument.read(dir, StepCatalog.types());
        if (doc.imported() != null) {
            throw new IllegalArgumentException(dir + " holds requests imported from " + doc.imported().importedFrom()
                    + ", which"
                    + " 'summarize' does not read; 'report " + dir + "' shows them, and 'compare' sets them beside"
                    + " other runs");
        }
        RunResult r = StepCatalog.reader().recover(dir);
        List<Path> images = List.of();
        if (r.status() == RunResult.Status.INTERRUPTED && !noCharts) {
            try {
                images = RunCharts.renderAll(r);
            } catch (RuntimeException e) {
                err.println("latencylab: charts could not be rendered: " + e.getMessage());
            }
        }
        ConsoleReport.print(r, images, out);
        out.flush();
        if (ConsoleReport.noRequestSucceeded(r)) {
            err.println("latencylab: " + ConsoleReport.noRequestSucceededMessage(r));
        }
        return ExitCodes.of(r); // as the run itself exited (but for how a stopped run was stopped)
    }
}
