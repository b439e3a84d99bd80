package org.latencylab.charts.export;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javafx.application.Platform;

/**
 * Starts the JavaFX toolkit on the Monocle headless glass platform when nothing has started it yet, so that charts
 * can be rendered on a machine without a display (servers, CI, the {@code latencylab run} command).
 *
 * <p>Monocle reads its configuration from system properties once, when the toolkit starts, so they are set here
 * before {@link Platform#startup(Runnable)}; a property the user already set (e.g. {@code -Dprism.order=es2}) is
 * left alone. When the toolkit is already running (the desktop app, TestFX, an earlier export) nothing changes.
 *
 * <p>Thread-safe: concurrent callers start the toolkit at most once.
 */
final class HeadlessToolkit {
    /** Held strongly so the level set on it is not lost to garbage collection of the logger. */
    private static final java.util.logging.Logger QUIET_JAVAFX_LOGGER = java.util.logging.Logger.getLogger("javafx");

    private static final Object LOCK = new Object();
    private static volatile boolean started;

    private HeadlessToolkit() {
    }

    /**
     * Makes sure the JavaFX toolkit runs, starting it headless if needed. Implicit exit is switched off so that
     * closing the last offscreen stage does not stop the toolkit.
     *
     * @throws ChartExportException when the toolkit does not come up within {@code timeoutMillis}
     */
    static void ensureStarted(long timeoutMillis) throws ChartExportException {
        if (started) {
            return;
        }
        synchronized (LOCK) {
            if (started) {
                return;
            }
            setIfAbsent("glass.platform", "Monocle");
            setIfAbsent("monocle.platform", "Headless");
            setIfAbsent("prism.order", "sw");
            setIfAbsent("prism.text", "t2k");
            setIfAbsent("java.awt.headless", "true");
            // JavaFX warns on every class-path start ("Unsupported JavaFX configuration: classes were loaded from
            // unnamed module"); it is harmless for offscreen rendering and would only clutter command-line output.
            QUIET_JAVAFX_LOGGER.setLevel(java.util.logging.Level.SEVERE);
            CountDownLatch up = new CountDownLatch(1);
            try {
                Platform.startup(up::countDown);
            } catch (IllegalStateException alreadyRunning) {
                // The toolkit was started by someone else (the app, TestFX): use it as it is.
                up.countDown();
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                throw new ChartExportException("could not start the JavaFX toolkit headless (Monocle): " + e
                        + "; is org.testfx:openjfx-monocle on the class path?", e);
            }
            try {
                if (!up.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    throw new ChartExportException("the JavaFX toolkit did not start within " + timeoutMillis + " ms");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ChartExportException("interrupted while starting the JavaFX toolkit", e);
            }
            Platform.setImplicitExit(false);
            started = true;
        }
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
