package org.latencylab.app.cli;

import org.latencylab.app.report.HtmlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code latencylab report RUN_DIR... --out report.html}: a self-contained HTML report. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write a self-contained HTML report of one run, or a comparison of several (LatencyLab runs or"
                + " imported ones): summary, definitions, environment, trust check, tables and charts embedded as"
                + " PNG.", "%nExit status: 0 ok, 2 bad input (not a run directory, or an --out whose folder cannot be made or written), 3 writing the report failed."})
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "run directories; the first is the baseline"
            + " of the comparison unless --baseline says otherwise")
    List<Path> runs;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", defaultValue = org.latencylab.engine.results.RunLayout.REPORT_HTML,
            description = "HTML file to write (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--baseline", paramLabel = "N", defaultValue = "1",
            description = "number of the baseline run in the list, from 1 (default: ${DEFAULT-VALUE})")
    int baseline;

    @Override
    public Integer call() {
        // the output path and the runs' run.json files are checked before announcing the (slower) rendering: a wrong
        // folder is said at once
        org.latencylab.app.report.HtmlReport.checkTarget(out);
        org.latencylab.engine.compare.RunComparison.differences(
                org.latencylab.engine.compare.RunComparison.load(runs,
                        org.latencylab.engine.scenario.StepCatalog.types()), baseline - 1);
        spec.commandLine().getErr().println("latencylab: writing the report (rendering charts)…");
        Path written = HtmlReport.write(runs, baseline - 1, out);
        spec.commandLine().getOut().println("report: " + written.toAbsolutePath());
        return ExitCodes.OK;
    }
}
