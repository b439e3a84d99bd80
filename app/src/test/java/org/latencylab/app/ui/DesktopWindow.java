package org.latencylab.app.ui;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.latencylab.app.ui.settings.AppDirectories;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * JUnit 5 extension that opens the real desktop window through TestFX (headless Monocle in the build) once for a
 * test class, with configuration and data folders of its own, and closes it after the class's tests: a run still
 * going is cancelled and its end awaited first. Register it on a static field:
 * <pre>{@code @RegisterExtension static final DesktopWindow WINDOW = new DesktopWindow();}</pre>
 * and reach the application through {@link #app()}. {@link #fx} and {@link #waitUntil} run code on the JavaFX thread
 * and poll a condition there. Not thread-safe: JUnit calls it on the test thread.
 */
public final class DesktopWindow implements BeforeAllCallback, AfterAllCallback {
    /** How long TestFX may take to open the window: longer than its default 10 s on a busy 2-core machine. */
    private static final long SETUP_TIMEOUT_MS = 60_000;
    /** How long a cancelled run may take to end before the window closes. */
    private static final long CANCEL_TIMEOUT_S = 30;

    /** Prepares the folders before the window opens (e.g. runs that its history should list). */
    @FunctionalInterface
    public interface Setup {
        /**
         * @param root the folder that holds {@code config} and {@code data} ({@code data/runs} is the history)
         * @throws Exception when preparing fails (the test class then fails)
         */
        void prepare(Path root) throws Exception;
    }

    private final Setup setup;
    private Path root;
    private DesktopApp app;

    /** A window over empty folders. */
    public DesktopWindow() {
        this(root -> { });
    }

    /** @param setup runs before the window opens, with the folder that will hold its configuration and data */
    public DesktopWindow(Setup setup) {
        this.setup = setup;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        root = Files.createTempDirectory("latencylab-window");
        setup.prepare(root);
        System.setProperty(AppDirectories.CONFIG_DIR_PROPERTY, configDir().toString());
        System.setProperty(AppDirectories.DATA_DIR_PROPERTY, root.resolve("data").toString());
        FxToolkit.toolkitContext().setSetupTimeoutInMillis(SETUP_TIMEOUT_MS);
        FxToolkit.registerPrimaryStage();
        app = (DesktopApp) FxToolkit.setupApplication(DesktopApp.class);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            if (app != null) {
                fx(() -> {
                    app.viewModel().run().cancel();
                    return null;
                });
                waitUntil(CANCEL_TIMEOUT_S, () -> !app.viewModel().run().runningProperty().get());
                // the run's end is handed to the JavaFX thread: let every event queued so far run before closing
                WaitForAsyncUtils.waitForFxEvents();
                FxToolkit.cleanupApplication(app);
            }
            FxToolkit.cleanupStages();
        } finally {
            System.clearProperty(AppDirectories.CONFIG_DIR_PROPERTY);
            System.clearProperty(AppDirectories.DATA_DIR_PROPERTY);
            delete(root);
        }
    }

    /** @return the application whose window is open */
    public DesktopApp app() {
        return app;
    }

    /** @return the window's configuration folder (where {@code settings.json} is written) */
    public Path configDir() {
        return root.resolve("config");
    }

    /**
     * @param c   code to run on the JavaFX thread
     * @param <T> its result
     * @return what it returned
     * @throws Exception what it threw, or a timeout after 30 s
     */
    public static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }

    /**
     * Polls a condition on the JavaFX thread until it holds.
     *
     * @param seconds   how long to wait at most
     * @param condition evaluated on the JavaFX thread
     * @throws java.util.concurrent.TimeoutException when it does not hold in time
     */
    public static void waitUntil(long seconds, Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> fx(condition));
    }

    private static void delete(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
