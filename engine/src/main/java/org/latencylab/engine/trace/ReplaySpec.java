package org.latencylab.engine.trace;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.latencylab.engine.api.InvalidFieldException;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.stats.Slo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A trace replay ({@code type: replay}): the requests of a trace file sent at their traced times as an open loop,
 * each with its traced prompt and answer lengths, latency timed from its intended start as in a load step.
 * Immutable; thread-safe.
 *
 * @param file      path of the trace file (relative paths from the working directory)
 * @param format    {@code mooncake}, {@code burstgpt} or {@code azure}; default from the file name (.jsonl: mooncake;
 *                  .csv: burstgpt when the name holds "burst", else azure)
 * @param speed     speed-up of the trace's times, > 0 (10: a 10-minute trace in one minute); default 1
 * @param rate      instead of {@code speed}: the mean rate to rescale the window to, req/s, > 0
 * @param start     trace time the window starts at (from the trace's start); default 0
 * @param duration  trace time the window spans; default the rest of the trace
 * @param limit     most requests sent, >= 1; default all in the window
 * @param model     BurstGPT: keep only rows of this {@code Model}; default all
 * @param logType   BurstGPT: keep only rows of this {@code Log Type}; default all
 * @param stream    streaming requests; default true
 * @param slos      goodput SLOs of the step, as a load step's
 * @param tierMetric metric whose P95 decides the step's tier; default {@code ttft_from_intended}, as an open loop's
 * @throws InvalidFieldException when a field is missing or out of range; the message names it
 */
@JsonIgnoreProperties(value = "type", allowGetters = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReplaySpec(String file, String format, Double speed, Double rate, Duration start, Duration duration,
                         Long limit, String model, String logType, Boolean stream, List<Slo> slos, String tierMetric)
        implements ExperimentSpec {

    /** Scenario type name of this spec. */
    public static final String TYPE = "replay";

    public ReplaySpec {
        if (file == null || file.isBlank()) {
            throw new InvalidFieldException("file", "replay: file (the trace to replay) is required");
        }
        if (format == null) {
            TraceFormat guessed = TraceFormat.guess(Path.of(file).getFileName().toString());
            if (guessed == null) {
                throw new InvalidFieldException("format", "replay: cannot tell the format of '" + file
                        + "' from its name: set format to mooncake, burstgpt or azure");
            }
            format = guessed.id();
        } else {
            try {
                format = TraceFormat.parse(format).id();
            } catch (IllegalArgumentException e) {
                throw new InvalidFieldException("format", "replay: " + e.getMessage());
            }
        }
        if (speed != null && rate != null) {
            throw new InvalidFieldException("rate", "replay: give speed or rate, not both");
        }
        if (speed != null && (!(speed > 0) || speed.isInfinite())) {
            throw new InvalidFieldException("speed", "replay: speed must be > 0, was " + speed);
        }
        if (rate != null && (!(rate > 0) || rate.isInfinite())) {
            throw new InvalidFieldException("rate", "replay: rate must be > 0 req/s, was " + rate);
        }
        if (start != null && start.isNegative()) {
            throw new InvalidFieldException("start", "replay: start must be >= 0, was " + start);
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new InvalidFieldException("duration", "replay: duration must be > 0, was " + duration);
        }
        if (limit != null && limit < 1) {
            throw new InvalidFieldException("limit", "replay: limit must be >= 1, was " + limit);
        }
        if ((model != null || logType != null) && !TraceFormat.BURSTGPT.id().equals(format)) {
            throw new InvalidFieldException(model != null ? "model" : "logType",
                    "replay: model and logType filter burstgpt traces only, not " + format);
        }
        stream = stream == null || stream;
        slos = slos == null ? List.of() : List.copyOf(slos);
        tierMetric = tierMetric == null ? "ttft_from_intended" : tierMetric;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public long plannedRequests() {
        return limit == null ? -1 : limit;
    }

    /** @return the part of the trace to send, as a reader takes it */
    public ReplayWindow window() {
        return new ReplayWindow(Path.of(file), TraceFormat.parse(format), start == null ? 0 : start.toNanos(),
                duration == null ? Long.MAX_VALUE : duration.toNanos(), limit == null ? Long.MAX_VALUE : limit,
                model, logType);
    }
}
