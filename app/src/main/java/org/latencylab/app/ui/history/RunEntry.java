package org.latencylab.app.ui.history;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * One saved run as listed in the history. Immutable and thread-safe.
 *
 * @param directory  the run directory
 * @param title      display title ({@code app.json} title, else the run name)
 * @param name       run name from {@code run.json}
 * @param status     {@code completed}, {@code cancelled}, {@code failed} or {@code running} (a run that never ended)
 * @param startedAt  start time, or null when unknown
 * @param endpoint   what was measured
 * @param kinds      step types, e.g. {@code probe} or {@code sweep}
 */
public record RunEntry(Path directory, String title, String name, String status, Instant startedAt, String endpoint,
                       String kinds) {
    @Override
    public String toString() {
        String when = startedAt == null ? "" : java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm",
                Locale.ROOT).withZone(java.time.ZoneId.systemDefault()).format(startedAt) + " · ";
        return title + "\n" + when + kinds + (status.equals("completed") ? "" : " · " + status);
    }
}
