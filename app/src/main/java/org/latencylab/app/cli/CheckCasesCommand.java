package org.latencylab.app.cli;

import org.latencylab.engine.replay.CaseChecker;
import org.latencylab.engine.replay.CaseResult;
import org.latencylab.engine.replay.CaseSuite;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code latencylab check-cases DIR}: replays stream conformance cases through the real client. */
@Command(name = "check-cases", mixinStandardHelpOptions = true,
        description = {"Replay stream conformance cases through the real client and check the expectations.",
                "%nEvery *.json case in DIR is served over loopback HTTP with its scripted timing and measured."
                        + " Prints one line per case and 'N passed, M failed, K skipped'. Exit status 1 when a case failed.",
                "%nThe replay server records when it actually wrote each part: a timing miss that its own lateness"
                        + " explains (this process was paused) is not the client's; such a case is run again, and if the"
                        + " server is late every time it is reported as LATE, not judged on timing (exit status 0)."})
final class CheckCasesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "folder of case files (format 1)")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException(dir + ": no such folder (" + dir.toAbsolutePath().normalize() + ")");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + ": not a folder of conformance cases");
        }
        if (CaseSuite.caseFiles(dir).isEmpty()) {
            throw new IllegalArgumentException(dir + ": no *.json conformance cases in this folder");
        }
        var out = spec.commandLine().getOut();
        // one line per case as it ends, then 'N passed, M failed, K skipped': the text of CaseSuite.format
        List<CaseResult> results = CaseSuite.run(dir, new CaseChecker(), r -> {
            out.println(r.line());
            out.flush();
        });
        out.println(CaseSuite.summary(results));
        out.flush();
        boolean failed = results.stream().anyMatch(r -> r.status() == CaseResult.Status.FAILED);
        return failed ? ExitCodes.SLO_FAILED : ExitCodes.OK;
    }
}
