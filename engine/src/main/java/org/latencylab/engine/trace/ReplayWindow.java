package org.latencylab.engine.trace;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Which part of a trace file a replay sends and how it filters it. Immutable; thread-safe.
 *
 * @param file      the trace file
 * @param format    its format
 * @param startNanos  first trace time sent, ns from the trace's start, >= 0 (0: from its first record)
 * @param durationNanos trace time sent from {@code startNanos}, ns, > 0; or {@link Long#MAX_VALUE} for the rest of it
 * @param limit     most records sent, >= 1; or {@link Long#MAX_VALUE}
 * @param model     BurstGPT {@code Model} to keep, or null for all
 * @param logType   BurstGPT {@code Log Type} to keep, or null for all
 */
public record ReplayWindow(Path file, TraceFormat format, long startNanos, long durationNanos, long limit,
                           String model, String logType) {

    public ReplayWindow {
        if (file == null || format == null) {
            throw new IllegalArgumentException("a replay needs a trace file and its format");
        }
        if (startNanos < 0) {
            throw new IllegalArgumentException("start must be >= 0, was " + Duration.ofNanos(startNanos));
        }
        if (durationNanos <= 0) {
            throw new IllegalArgumentException("duration must be > 0, was " + Duration.ofNanos(durationNanos));
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
    }

    /** @return a reader of the file with this window's filters; close it */
    TraceReader open() {
        return TraceReader.open(file, format, model, logType);
    }

    /**
     * @param arrivalNanos a record's arrival, trace time, ns
     * @param taken        records already taken into the window
     * @return -1 before the window, 0 in it, 1 after it (or beyond the limit)
     */
    int place(long arrivalNanos, long taken) {
        if (arrivalNanos < startNanos) {
            return -1;
        }
        if (arrivalNanos - startNanos >= durationNanos || taken >= limit) {
            return 1;
        }
        return 0;
    }
}
