package org.latencylab.app.ui.settings;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads and writes {@code settings.json}. Blocking (disk): call it off the UI thread. Thread-safe: reads and
 * writes are serialised on this object.
 */
public final class SettingsStore {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private final Path file;
    private final Clock clock;
    private final ObjectMapper mapper = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * @param file  the settings file, e.g. {@link AppDirectories#settingsFile()}
     * @param clock clock for the timestamp of a corrupt file's new name
     */
    public SettingsStore(Path file, Clock clock) {
        this.file = Objects.requireNonNull(file, "file");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @param file the settings file @return a store using the system clock (UTC) */
    public static SettingsStore at(Path file) {
        return new SettingsStore(file, Clock.systemUTC());
    }

    /** @return the settings file */
    public Path file() {
        return file;
    }

    /**
     * Reads the settings. A missing file gives the defaults. A file that cannot be parsed is renamed to
     * {@code settings.json.corrupt-<yyyyMMdd-HHmmss>} (UTC) and the defaults are returned with a message saying so.
     *
     * @return the settings and an optional message for the user
     * @throws UncheckedIOException when the file exists but cannot be read or moved aside
     */
    public synchronized Loaded load() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new Loaded(AppSettings.DEFAULTS, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            AppSettings s = mapper.readValue(bytes, AppSettings.class);
            if (s == null) {
                throw new IOException("the file is empty or holds null");
            }
            return new Loaded(s, null);
        } catch (IOException | RuntimeException e) {
            Path aside = file.resolveSibling(file.getFileName() + ".corrupt-" + STAMP.format(clock.instant()));
            try {
                Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException moveFailure) {
                throw new UncheckedIOException("settings file " + file + " is unreadable (" + e.getMessage()
                        + ") and could not be moved aside: " + moveFailure.getMessage(), moveFailure);
            }
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst()
                    .orElse("");
            return new Loaded(AppSettings.DEFAULTS, "Settings file " + file + " could not be read (" + why
                    + "). It was moved to " + aside.getFileName() + "; starting with default settings.");
        }
    }

    /**
     * Writes the settings atomically (temporary file, then move). Credential headers are removed from every
     * endpoint first ({@link EndpointConfig#withoutSecrets()}); API key values are never part of the settings.
     *
     * @param settings what to write
     * @throws UncheckedIOException when the folder cannot be created or the file cannot be written
     */
    public synchronized void save(AppSettings settings) {
        AppSettings clean = new AppSettings(settings.format(), settings.theme(),
                settings.endpoints().stream().map(EndpointConfig::withoutSecrets).toList(), settings.selected(),
                settings.simProfile(), settings.lastExperiment(), settings.tierMetric(), settings.tiers(),
                settings.slos(), settings.dataDir());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            mapper.writeValue(tmp.toFile(), clean);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Result of {@link #load()}.
     *
     * @param settings the settings (defaults when there was no usable file)
     * @param message  a message for the user (e.g. the file was corrupt and moved aside), or null
     */
    public record Loaded(AppSettings settings, String message) {
    }
}
