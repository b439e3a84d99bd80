package org.latencylab.engine.load;

import org.latencylab.engine.run.StepResult;
import java.util.List;

/**
 * The result of a load step: totals, the per-second series and the interval logs written. Immutable and
 * thread-safe; Jackson writes it into {@code run.json}.
 *
 * @param label    step label
 * @param totals   totals of the step
 * @param seconds  one entry per second from the step's start, in order (unmodifiable)
 * @param logFiles HdrHistogram interval logs written, relative to the run directory (unmodifiable)
 */
public record LoadResult(String label, LoadTotals totals, List<LoadSecond> seconds, List<String> logFiles)
        implements StepResult {
    public LoadResult {
        label = label == null ? "" : label;
        seconds = seconds == null ? List.of() : List.copyOf(seconds);
        logFiles = logFiles == null ? List.of() : List.copyOf(logFiles);
    }

    /** @return {@value LoadSpec#TYPE} */
    @Override
    public String type() {
        return LoadSpec.TYPE;
    }
}
