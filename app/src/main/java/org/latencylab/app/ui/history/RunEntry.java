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
 * @param requests   requests the run sent (all steps), or -1 when unknown (a run that never ended)
 */
public record RunEntry(Path directory, String title, String name, String status, Instant startedAt, String endpoint,
                       String kinds, long requests) {

    /** As the canonical constructor, with the request count unknown. */
    public RunEntry(Path directory, String title, String name, String status, Instant startedAt, String endpoint,
                    String kinds) {
        this(directory, title, name, status, startedAt, endpoint, kinds, -1);
    }

    /**
     * @return the second line of the history entry: start time to the second, steps, requests and what was measured,
     *         e.g. {@code 11-30 09:12:05 · load · 1 200 requests · simulator (small-fast)} — what tells runs of the
     *         same name apart
     */
    public String detail() {
        String when = startedAt == null ? "" : java.time.format.DateTimeFormatter.ofPattern("MM-dd HH:mm:ss",
                Locale.ROOT).withZone(java.time.ZoneId.systemDefault()).format(startedAt) + " · ";
        return when + kinds + (requests >= 0 ? " · " + requests + " requests" : "")
                + (endpoint == null || endpoint.isBlank() ? "" : " · " + endpoint);
    }

    @Override
    public String toString() {
        return title + "\n" + detail() + (status.equals("completed") ? "" : " · " + status);
    }
}
