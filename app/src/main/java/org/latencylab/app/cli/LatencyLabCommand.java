package org.latencylab.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Top-level command {@code latencylab}. Thread-safe: a new {@link CommandLine} per call.
 */
@Command(name = "latencylab", mixinStandardHelpOptions = true,
        versionProvider = LatencyLabCommand.Version.class,
        description = {"Measure, explain and compare the latency of LLM APIs and inference servers.",
                "Without a command the desktop window opens."},
        subcommands = {RunCommand.class, ProbeCommand.class, SweepCommand.class, ReplayCommand.class, SimCommand.class, CalibrateCommand.class,
                SummarizeCommand.class, ReportCommand.class, CompareCommand.class, ImportCommand.class,
                LensCommand.class, SloCommand.class, CheckCasesCommand.class, DetectCommand.class, GuiCommand.class,
                CommandLine.HelpCommand.class})
public final class LatencyLabCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where a failure's exception (class, stack trace) goes; the console gets its words only. */
    private static final System.Logger LOG = System.getLogger(LatencyLabCommand.class.getName());

    /**
     * @return a configured command line (bad-input errors exit with status 2); library logging goes to the log file
     * from here on ({@link LibraryLogging#install()})
     */
    public static CommandLine commandLine() {
        LibraryLogging.install();
        CommandLine cl = new CommandLine(new LatencyLabCommand());
        cl.setParameterExceptionHandler((ex, args) -> {
            java.io.PrintWriter err = ex.getCommandLine().getErr();
            String message = ex.getMessage();
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()
                    && !u.getCommandLine().getSubcommands().isEmpty() && !u.getUnmatched().get(0).startsWith("-")) {
                message = "unknown command '" + u.getUnmatched().get(0) + "'"; // not "Unmatched argument at index 0"
            }
            err.println("latencylab: " + message);
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, err); // "Did you mean: ...?" for a near miss
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, parse) -> {
            if (ex instanceof org.latencylab.engine.results.RunDirectory.RunDirectoryException rd
                    && rd.existingRunFile() == null) {
                // the run directory cannot be made or written: the message says why, this says what to do
                c.getErr().println("latencylab: " + ex.getMessage() + "; choose another --out");
                return ExitCodes.BAD_INPUT;
            }
            if (ex instanceof IllegalArgumentException) {
                c.getErr().println("latencylab: " + ex.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            // an I/O failure says what failed in its message; the exception's class name and stack trace help no
            // user on the console, and go to the log file
            LOG.log(System.Logger.Level.ERROR, "command failed: " + String.join(" ", parse.originalArgs()), ex);
            String words = ex.getMessage() == null || ex.getMessage().isBlank()
                    ? "failed unexpectedly (" + ex.getClass().getSimpleName() + "); details are in "
                    + LibraryLogging.logFile() : ex.getMessage();
            c.getErr().println("latencylab: " + words);
            return ExitCodes.RUN_FAILED;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Version from the jar manifest ({@code dev} when run from classes). */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = LatencyLabCommand.class.getPackage().getImplementationVersion();
            return new String[]{"LatencyLab " + (v == null ? "dev" : v),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
