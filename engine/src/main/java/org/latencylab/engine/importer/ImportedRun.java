package org.latencylab.engine.importer;

import org.latencylab.engine.api.RequestRecord;

import java.time.Instant;
import java.util.List;

/**
 * Another tool's result, read into LatencyLab records. Timestamps of the records are nanoseconds from the first
 * request's start (origin 0). Immutable and thread-safe.
 *
 * @param tool           the tool that wrote the file
 * @param sourceFile     the file's name (no directory)
 * @param name           run name (from the file, or the file name)
 * @param model          model the tool measured, or empty
 * @param target         endpoint the tool measured (URL), or empty
 * @param startedAt      wall-clock start when the file says it, else null
 * @param records        one record per request, labels {@code import} (or {@code import/<benchmark>})
 * @param missingMetrics LatencyLab metrics the tool does not store (they stay empty), e.g. {@code ttfb}
 * @param notes          where values were derived or interpolated, and whose definitions the numbers follow
 */
public record ImportedRun(SourceTool tool, String sourceFile, String name, String model, String target,
                          Instant startedAt, List<RequestRecord> records, List<String> missingMetrics,
                          List<String> notes) {
    public ImportedRun {
        records = List.copyOf(records);
        missingMetrics = List.copyOf(missingMetrics);
        notes = List.copyOf(notes);
        model = model == null ? "" : model;
        target = target == null ? "" : target;
    }
}
