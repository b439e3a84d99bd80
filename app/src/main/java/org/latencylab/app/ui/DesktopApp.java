package org.latencylab.app.ui;

import javafx.animation.AnimationTimer;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.latencylab.app.ui.background.FxUiExecutor;
import org.latencylab.app.ui.settings.AppDirectories;
import org.latencylab.app.ui.settings.SettingsStore;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.sim.SimProfile;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The JavaFX application class of the desktop lab. {@link #launch()} blocks until the window is closed.
 *
 * <p>Settings are read in {@link #init()} (the launcher thread, not the JavaFX thread), so the UI thread never
 * waits on the disk. With {@code -Dlatencylab.startup.timing=true} the time from JVM start to the first painted
 * frame of the window is printed to standard error.
 */
public final class DesktopApp extends Application {
    /** System property that prints startup timing. */
    public static final String STARTUP_TIMING_PROPERTY = "latencylab.startup.timing";
    /** Pulses after the window shows before the chart warm-up starts (after its first frames, about 0.2 s). */
    private static final int WARM_UP_AFTER_PULSES = 12;
    private AppDirectories dirs;
    private SettingsStore.Loaded loaded;
    private List<String> profiles;
    private FxUiExecutor executor;
    private MainViewModel vm;
    private MainView view;
    private Stage stage;

    /** Starts the JavaFX toolkit and opens the main window; returns when the window is closed. */
    public static void launch() {
        Application.launch(DesktopApp.class);
    }

    @Override
    public void init() {
        dirs = AppDirectories.current();
        loaded = SettingsStore.at(dirs.settingsFile()).load();
        profiles = SimProfile.builtinNames();
    }

    @Override
    public void start(Stage primary) {
        stage = primary;
        executor = new FxUiExecutor();
        vm = new MainViewModel(executor, dirs, StepCatalog.engine()::start, System::getenv, profiles);
        view = new MainView(vm, executor);
        vm.apply(loaded);
        // never larger than the screen (a small laptop screen, or Monocle's 1280x800 headless screen)
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        Scene scene = view.createScene(Math.min(1360, screen.getWidth()), Math.min(860, screen.getHeight()));
        primary.setTitle("LatencyLab");
        var icon = DesktopApp.class.getResourceAsStream("icon-256.png");
        if (icon != null) {
            primary.getIcons().add(new javafx.scene.image.Image(icon));
        }
        primary.setScene(scene);
        primary.show();
        vm.history().refresh();
        // the first drawing of chart data, unseen, while the window is idle (not when a run's first results come)
        ChartWarmUp.start(view.root(), view.results().theme(), view.results().tiers(), WARM_UP_AFTER_PULSES);
        if (Boolean.getBoolean(STARTUP_TIMING_PROPERTY)) {
            long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
            new AnimationTimer() {
                private int pulses;

                @Override
                public void handle(long now) {
                    // the second pulse after show() comes after the first frame was rendered
                    if (++pulses == 2) {
                        stop();
                        System.err.printf("latencylab: first frame painted %d ms after JVM start%n",
                                System.currentTimeMillis() - jvmStart);
                    }
                }
            }.start();
        }
    }

    @Override
    public void stop() {
        if (vm != null) {
            vm.run().cancel();
        }
        if (executor != null) {
            executor.close();
        }
    }

    /** @return the window's view model (for tests and tools), or null before {@link #start} */
    public MainViewModel viewModel() {
        return vm;
    }

    /** @return the window's view, or null before {@link #start} */
    public MainView view() {
        return view;
    }

    /** @return the primary stage, or null before {@link #start} */
    public Stage stage() {
        return stage;
    }

    /** Closes the window from any thread. */
    public void close() {
        Platform.runLater(() -> stage.close());
    }
}
