package org.latencylab.app.cli;

import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code latencylab run SCENARIO [--out DIR]}: runs a scenario file headless. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a scenario file (YAML or JSON) headless and write a run directory.",
                "%nThe run directory holds run.json, requests.jsonl, summary.csv and PNG charts; a summary is"
                        + " printed. Exit status: 0 ok, 1 an SLO failed, 2 bad scenario, 3 run failed, 130 cancelled"
                        + " (Ctrl-C), 143 stopped (SIGTERM); a stopped run prints the summary of what finished and draws"
                        + " its charts, marked cancelled."})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file, e.g. sample-data/scenarios/quickstart.yaml")
    Path scenario;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR",
            description = "run directory to write (default: runs/<timestamp>-<name>)")
    Path out;

    @Option(names = "--overwrite",
            description = "replace the run already in --out (its run files are deleted first); without it such a"
                    + " directory is refused")
    boolean overwrite;

    @Option(names = "--no-charts", description = "do not render PNG charts")
    boolean noCharts;

    @Override
    public Integer call() throws Exception {
        RunSpec run = StepCatalog.loader().load(scenario);
        org.latencylab.engine.api.Endpoint endpoint = run.target().endpoint();
        String keyProblem = endpoint == null ? ""
                : org.latencylab.engine.client.EndpointChecks.keyProblem(endpoint.apiKeyEnv(), System::getenv);
        if (!keyProblem.isEmpty()) {
            // as probe's --api-key-env: nothing is sent without the key the scenario names
            throw new IllegalArgumentException(scenario + ": field 'endpoint.apiKeyEnv': " + keyProblem);
        }
        return RunExecution.execute(run, out, overwrite, !noCharts, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
