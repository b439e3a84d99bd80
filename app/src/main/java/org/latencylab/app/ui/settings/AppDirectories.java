package org.latencylab.app.ui.settings;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The folders the desktop app writes to. Pure: the environment, system properties and OS name are passed in, so
 * every platform's rule is testable anywhere. Immutable and thread-safe.
 *
 * <ul>
 *   <li>Config ({@code settings.json}): {@code -Dlatencylab.config.dir}, else the environment variable
 *       {@code LATENCYLAB_CONFIG_DIR} (works with every launcher, the installed one included), else Linux {@code $XDG_CONFIG_HOME/latencylab}
 *       or {@code ~/.config/latencylab}; Windows {@code %APPDATA%\LatencyLab}; macOS
 *       {@code ~/Library/Application Support/LatencyLab}. Sources: XDG Base Directory Specification 0.8; Apple
 *       "File System Programming Guide" (Application Support); Microsoft "Known folders" (RoamingAppData).</li>
 *   <li>Data (run directories under {@code runs/}): {@code -Dlatencylab.data.dir}, else
 *       {@code LATENCYLAB_DATA_DIR}, else Linux
 *       {@code $XDG_DATA_HOME/latencylab} or {@code ~/.local/share/latencylab}; Windows {@code %APPDATA%\LatencyLab};
 *       macOS {@code ~/Library/Application Support/LatencyLab}. The settings may override it again.</li>
 * </ul>
 *
 * @param configDir   folder of {@code settings.json}
 * @param dataDir     default data folder; runs live in {@code dataDir/runs}
 * @param dataDirFixed true when {@code dataDir} came from {@code -Dlatencylab.data.dir} or
 *                    {@code LATENCYLAB_DATA_DIR}, which then wins over the data folder of the settings
 */
public record AppDirectories(Path configDir, Path dataDir, boolean dataDirFixed) {
    /** System property that overrides the config folder. */
    public static final String CONFIG_DIR_PROPERTY = "latencylab.config.dir";
    /** System property that overrides the data folder. */
    public static final String DATA_DIR_PROPERTY = "latencylab.data.dir";
    /** Environment variable that overrides the config folder (for launchers that take no JVM options). */
    public static final String CONFIG_DIR_ENV = "LATENCYLAB_CONFIG_DIR";
    /** Environment variable that overrides the data folder (for launchers that take no JVM options). */
    public static final String DATA_DIR_ENV = "LATENCYLAB_DATA_DIR";

    /** @throws NullPointerException when a folder is null */
    public AppDirectories {
        Objects.requireNonNull(configDir, "configDir");
        Objects.requireNonNull(dataDir, "dataDir");
    }

    /** @return the folders of this process (real environment, system properties and OS) */
    public static AppDirectories current() {
        return resolve(System.getenv(), System::getProperty);
    }

    /**
     * @param env        environment variables ({@code XDG_*}, {@code APPDATA} and the two overrides)
     * @param properties system properties ({@code os.name}, {@code user.home} and the two overrides, which win
     *                   over the environment's)
     * @return the folders by the rules in the class documentation
     */
    public static AppDirectories resolve(Map<String, String> env, Function<String, String> properties) {
        String os = properties.apply("os.name") == null ? "" : properties.apply("os.name").toLowerCase(Locale.ROOT);
        Path home = Path.of(properties.apply("user.home") == null ? "." : properties.apply("user.home"));
        Path config;
        Path data;
        if (os.startsWith("windows")) {
            String appData = env.get("APPDATA");
            Path base = appData == null || appData.isBlank() ? home.resolve("AppData").resolve("Roaming")
                    : Path.of(appData);
            config = base.resolve("LatencyLab");
            data = config;
        } else if (os.startsWith("mac")) {
            config = home.resolve("Library").resolve("Application Support").resolve("LatencyLab");
            data = config;
        } else {
            config = xdg(env, "XDG_CONFIG_HOME", home.resolve(".config")).resolve("latencylab");
            data = xdg(env, "XDG_DATA_HOME", home.resolve(".local").resolve("share")).resolve("latencylab");
        }
        String configOverride = blank(properties.apply(CONFIG_DIR_PROPERTY)) ? env.get(CONFIG_DIR_ENV)
                : properties.apply(CONFIG_DIR_PROPERTY);
        String dataOverride = blank(properties.apply(DATA_DIR_PROPERTY)) ? env.get(DATA_DIR_ENV)
                : properties.apply(DATA_DIR_PROPERTY);
        return new AppDirectories(blank(configOverride) ? config : Path.of(configOverride),
                blank(dataOverride) ? data : Path.of(dataOverride), !blank(dataOverride));
    }

    /** @return {@code dataDir/runs} */
    public Path runsDir() {
        return dataDir.resolve("runs");
    }

    /** @return {@code configDir/settings.json} */
    public Path settingsFile() {
        return configDir.resolve("settings.json");
    }

    private static Path xdg(Map<String, String> env, String name, Path fallback) {
        String v = env.get(name);
        // The XDG spec says a relative path in these variables is invalid and must be ignored.
        return v == null || v.isBlank() || !Path.of(v).isAbsolute() ? fallback : Path.of(v);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
