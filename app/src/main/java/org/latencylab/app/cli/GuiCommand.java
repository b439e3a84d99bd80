package org.latencylab.app.cli;

import org.latencylab.app.ui.DesktopApp;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code latencylab gui} (or no command): opens the desktop window. */
@Command(name = "gui", mixinStandardHelpOptions = true, description = "Open the desktop window (the default).")
final class GuiCommand implements Callable<Integer> {
    /** Held strongly so that its level stays set. */
    private static final java.util.logging.Logger QUIET_JAVAFX = java.util.logging.Logger.getLogger("javafx");

    @Override
    public Integer call() {
        if (java.awt.GraphicsEnvironment.isHeadless() && System.getenv("DISPLAY") == null
                && System.getenv("WAYLAND_DISPLAY") == null && !System.getProperty("os.name", "").startsWith("Windows")
                && !System.getProperty("os.name", "").startsWith("Mac")) {
            System.err.println("latencylab: no display found (DISPLAY is not set). Use a subcommand to run headless, "
                    + "e.g. 'latencylab run sample-data/scenarios/quickstart.yaml', or see 'latencylab --help'.");
            return ExitCodes.BAD_INPUT;
        }
        // JavaFX warns on every class-path start ("Unsupported JavaFX configuration"); harmless for this launcher
        QUIET_JAVAFX.setLevel(java.util.logging.Level.SEVERE);
        DesktopApp.launch();
        return ExitCodes.OK;
    }
}
