package org.latencylab.app.cli;

import org.latencylab.app.ui.DesktopApp;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code latencylab gui} (or no command): opens the desktop window. */
@Command(name = "gui", mixinStandardHelpOptions = true, description = "Open the desktop window (the default).")
final class GuiCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        if (java.awt.GraphicsEnvironment.isHeadless() && System.getenv("DISPLAY") == null
                && System.getenv("WAYLAND_DISPLAY") == null && !System.getProperty("os.name", "").startsWith("Windows")
                && !System.getProperty("os.name", "").startsWith("Mac")) {
            System.err.println("latencylab: no display found (DISPLAY is not set). Use a subcommand to run headless, "
                    + "e.g. 'latencylab run sample-data/scenarios/quickstart.yaml', or see 'latencylab --help'.");
            return ExitCodes.BAD_INPUT;
        }
        DesktopApp.launch();
        return ExitCodes.OK;
    }
}
