package org.latencylab.app;

import org.latencylab.app.cli.LatencyLabCommand;
import picocli.CommandLine;

/**
 * The one entry point of LatencyLab: no arguments (or {@code gui}) opens the desktop window; a subcommand runs
 * headless ({@code run}, {@code probe}, {@code sweep}, {@code sim}, {@code check-cases}). This class does not
 * extend {@code javafx.application.Application}, so the shaded jar starts on the class path.
 */
public final class Launcher {
    private Launcher() {
    }

    /**
     * @param args command line; exits the JVM with the command's status (0 ok, 1 an SLO failed or cases failed,
     *             2 bad input, 3 the run failed)
     */
    public static void main(String[] args) {
        if (args.length == 0) {
            args = new String[]{"gui"};
        }
        java.util.Optional<Integer> child = MeasuringJvm.relaunchIfNeeded(args);
        if (child.isPresent()) {
            System.exit(child.get());
        }
        System.exit(LatencyLabCommand.commandLine().execute(args));
    }
}
