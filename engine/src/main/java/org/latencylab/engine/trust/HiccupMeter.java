package org.latencylab.engine.trust;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.TimeUnit;

/**
 * Measures the hiccups of this JVM the way jHiccup does (Gil Tene, Azul Systems): a platform thread sleeps
 * {@value #RESOLUTION_MILLIS} ms again and again and records by how much each sleep overran into an HdrHistogram
 * {@link SingleWriterRecorder} (one writer: the meter's thread), filling in the wake-ups missed during a long
 * hiccup ({@code recordValueWithExpectedInterval}) so that percentiles are shares of time, not of wake-ups.
 * Whatever delays the meter (a garbage-collector pause, a safepoint, a saturated CPU, the scheduler) delays the
 * client's stamping threads too.
 *
 * <p>Cost: about a thousand wake-ups per second on one daemon thread. Thread-safe: {@link #stop} may be called from
 * any thread, once.
 */
public final class HiccupMeter implements AutoCloseable {
    /** Sleep per sample, milliseconds (jHiccup's default resolution is 1 ms too). */
    public static final long RESOLUTION_MILLIS = 1;
    private static final long RESOLUTION_NANOS = TimeUnit.MILLISECONDS.toNanos(RESOLUTION_MILLIS);
    /** Largest hiccup recorded, ns (longer ones are clamped): one hour. */
    private static final long HIGHEST_NANOS = TimeUnit.HOURS.toNanos(1);

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_NANOS, 2);
    private final Thread thread;
    private volatile boolean running = true;
    /** Everything recorded up to the latest {@link #mark}; guarded by this. */
    private final Histogram total = new Histogram(HIGHEST_NANOS, 2);
    private Histogram result;

    private HiccupMeter() {
        thread = Thread.ofPlatform().name("latencylab-hiccup-meter").daemon(true).unstarted(this::loop);
        thread.setPriority(Thread.NORM_PRIORITY);
    }

    /** @return a meter that is already measuring */
    public static HiccupMeter start() {
        HiccupMeter m = new HiccupMeter();
        m.thread.start();
        return m;
    }

    private void loop() {
        try {
            while (running) {
                sample();
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /**
     * One sample: sleeps {@value #RESOLUTION_MILLIS} ms and records the oversleep. A method of its own so that the JIT
     * compiles it after a few hundred samples; the body of {@link #loop}'s never-ending loop stayed interpreted until
     * on-stack replacement, tens of thousands of iterations later.
     *
     * @throws InterruptedException when the thread is interrupted while it sleeps
     */
    private void sample() throws InterruptedException {
        long before = System.nanoTime();
        Thread.sleep(RESOLUTION_MILLIS);
        long overslept = System.nanoTime() - before - RESOLUTION_NANOS;
        recorder.recordValueWithExpectedInterval(Math.min(Math.max(0, overslept), HIGHEST_NANOS), RESOLUTION_NANOS);
    }

    /**
     * Stops measuring (waits up to a second for the thread) and returns everything recorded.
     *
     * @return oversleep per 1 ms interval, nanoseconds; the same histogram on every call
     */
    public synchronized Histogram stop() {
        if (result == null) {
            running = false;
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            mark();
            result = total.copy();
        }
        return result;
    }

    /**
     * The hiccups recorded since the previous mark (or the start), for judging one part of a run (a step); they stay in
     * the whole run's histogram that {@link #stop} returns. After {@link #stop}, an empty histogram.
     *
     * @return oversleep per 1 ms interval since the previous mark, nanoseconds; a new histogram
     */
    public synchronized Histogram mark() {
        Histogram interval = recorder.getIntervalHistogram();
        total.add(interval);
        return interval;
    }

    /** Same as {@link #stop()}, ignoring the result. */
    @Override
    public void close() {
        stop();
    }
}
