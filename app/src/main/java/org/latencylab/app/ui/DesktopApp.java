package org.latencylab.app.ui;

import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/**
 * The JavaFX application class of the desktop lab. {@link #launch()} blocks until the window is closed.
 */
public final class DesktopApp extends Application {
    /** Starts the JavaFX toolkit and opens the main window; returns when the window is closed. */
    public static void launch() {
        Application.launch(DesktopApp.class);
    }

    @Override
    public void start(Stage stage) {
        stage.setTitle("LatencyLab");
        stage.setScene(new Scene(new Label("LatencyLab"), 900, 600));
        stage.show();
    }
}
