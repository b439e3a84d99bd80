package org.latencylab.engine.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Objects;

/**
 * Records latency values of one metric (nanoseconds) from many threads and hands out interval and cumulative
 * histograms.
 *
 * <p>Backed by an HdrHistogram {@link Recorder} with 3 significant decimal digits (values are stored within 0.1 %)
 * and an auto-resizing range, so any non-negative {@code long} can be recorded without configuring a maximum.
 *
 * <p>Thread-safety: {@link #record(long)} is wait-free and may be called from any number of threads at once.
 * {@link #intervalHistogram()} and {@link #cumulativeHistogram()} are synchronized with each other; they may be called
 * from any thread while recording goes on. Every value recorded is in exactly one interval histogram and in the
 * cumulative histogram once it has been drained (either reader drains the recorder).
 */
public final class MetricRecorder {
    /** Significant decimal digits kept by the histograms (0.1 % value precision). */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final String metric;
    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    // Guarded by this: values drained by cumulativeHistogram() that the next interval must still contain.
    private final Histogram pending = newHistogram();
    private final Histogram cumulative = newHistogram();
    private Histogram recycle;

    /**
     * @param metric the metric's name, e.g. {@code "ttft"}; not blank
     * @throws IllegalArgumentException when the name is null or blank
     */
    public MetricRecorder(String metric) {
        if (metric == null || metric.isBlank()) {
            throw new IllegalArgumentException("metric name must not be blank, was '" + metric + "'");
        }
        this.metric = metric;
    }

    private static Histogram newHistogram() {
        Histogram h = new Histogram(SIGNIFICANT_DIGITS);
        h.setAutoResize(true);
        return h;
    }

    /** @return the metric's name */
    public String metric() {
        return metric;
    }

    /**
     * Records one value. Wait-free; callable from any thread.
     *
     * @param nanos the value in nanoseconds, &gt;= 0
     * @throws IllegalArgumentException when {@code nanos} is negative (a missing measurement is not a latency)
     */
    public void record(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException(metric + ": value must be >= 0 ns, was " + nanos);
        }
        recorder.recordValue(nanos);
    }

    /**
     * Returns the values recorded since the previous call (the first call: since construction) and adds them to
     * the cumulative histogram. The returned histogram carries the interval's start and end time stamps
     * (milliseconds since the epoch, set by the {@code Recorder}) so it can be written to an HdrHistogram interval log.
     *
     * @return a new histogram owned by the caller, values in nanoseconds
     */
    public synchronized Histogram intervalHistogram() {
        drain();
        Histogram out = pending.copy();
        pending.reset();
        return out;
    }

    /**
     * Returns every value recorded so far. Drains the recorder but does not end the current interval: the values
     * drained here still appear in the next {@link #intervalHistogram()}.
     *
     * @return a new histogram owned by the caller, values in nanoseconds
     */
    public synchronized Histogram cumulativeHistogram() {
        drain();
        return cumulative.copy();
    }

    private void drain() {
        Histogram h = recorder.getIntervalHistogram(recycle);
        cumulative.add(h);
        if (pending.getTotalCount() == 0) {
            pending.setStartTimeStamp(h.getStartTimeStamp());
        }
        pending.add(h);
        pending.setEndTimeStamp(h.getEndTimeStamp());
        recycle = h;
    }

    @Override
    public String toString() {
        return "MetricRecorder[" + Objects.toString(metric) + "]";
    }
}
