/**
 * Background work for the desktop app, and the bridge from engine threads to the JavaFX thread.
 *
 * <p>Design: view models never touch {@code javafx.application.Platform} themselves. They receive a
 * {@link org.latencylab.app.ui.background.UiExecutor}, which runs slow work (network, disk, statistics) off the UI
 * thread and delivers the result back on it. The desktop app uses {@link org.latencylab.app.ui.background.FxUiExecutor}
 * (daemon worker threads + {@code Platform.runLater}); tests use
 * {@link org.latencylab.app.ui.background.DirectUiExecutor}, which runs everything synchronously on the calling
 * thread, so view models are tested without the JavaFX toolkit (the pattern of JabRef's {@code BackgroundTask}).
 *
 * <p>{@link org.latencylab.app.ui.background.CoalescingRunListener} adapts the engine's 5 Hz snapshot listener to
 * the UI thread: the latest snapshot wins (a slow UI thread sees fewer, never stale, snapshots) but every
 * snapshot's {@code newRecords} are accumulated, so no finished request is lost.
 */
package org.latencylab.app.ui.background;
