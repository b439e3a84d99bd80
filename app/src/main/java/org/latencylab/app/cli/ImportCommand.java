package org.latencylab.app.cli;

import org.latencylab.engine.importer.ImportWriter;
import org.latencylab.engine.importer.ImportedRun;
import org.latencylab.engine.importer.ResultImporter;
import org.latencylab.engine.importer.SourceTool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code latencylab import FILE [--tool T] [--out DIR]}: another tool's result as a run directory. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Import another benchmark tool's per-request results as a LatencyLab run directory (then"
                + " 'compare', 'report' and the app's history treat it like any run).",
                "%nTools: vllm-bench (vllm bench serve --save-result --save-detailed JSON), guidellm (benchmark"
                        + " report JSON), aiperf (profile_export.jsonl of AIPerf / GenAI-Perf). The run is marked with"
                        + " its source tool and the metrics it lacks."})
final class ImportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the tool's result file")
    Path file;

    @Option(names = "--tool", paramLabel = "TOOL",
            description = "vllm-bench, guidellm or aiperf (default: guessed from the file)")
    String tool;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "run directory to create (default: runs/import-<tool>-<file name>)")
    Path out;

    @Option(names = "--overwrite",
            description = "replace a run already in the run directory (its run files are deleted first)")
    boolean overwrite;

    @Override
    public Integer call() {
        ImportedRun run = ResultImporter.read(file, tool == null ? null : SourceTool.fromId(tool));
        Path dir = out != null ? out : Path.of("runs", "import-" + run.tool().id() + "-"
                + file.getFileName().toString().replaceAll("[^A-Za-z0-9._-]+", "-"));
        ImportWriter.write(run, dir, overwrite);
        var o = spec.commandLine().getOut();
        o.println("imported " + run.records().size() + " requests from " + run.tool().displayName() + " into " + dir);
        o.println("lacks: " + String.join(", ", run.missingMetrics()));
        run.notes().forEach(n -> o.println("note: " + n));
        return ExitCodes.OK;
    }
}
