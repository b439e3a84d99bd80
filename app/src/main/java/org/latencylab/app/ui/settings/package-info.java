/**
 * What the desktop app remembers between sessions, and where it keeps it.
 *
 * <p>{@link org.latencylab.app.ui.settings.AppDirectories} resolves the OS folders (XDG on Linux, {@code %APPDATA%}
 * on Windows, {@code ~/Library/Application Support} on macOS), overridable with {@code -Dlatencylab.config.dir} and
 * {@code -Dlatencylab.data.dir} so tests use temporary folders. {@link org.latencylab.app.ui.settings.SettingsStore}
 * reads and writes {@code settings.json} with Jackson: endpoints, theme, the last experiment, the default tier
 * table and SLO, the data folder. API key values are never written, only the name of the environment variable
 * that holds the key; headers that carry credentials are dropped on save. A file that cannot be read is moved
 * aside ({@code settings.json.corrupt-<timestamp>}) and the app starts with defaults and a message, not a crash.
 */
package org.latencylab.app.ui.settings;
