package org.latencylab.engine.trace;

import org.latencylab.engine.load.ArrivalFeed;

import java.io.Closeable;
import java.io.IOException;

/**
 * A trace's window as arrivals of an open loop, read from the file as the replay goes: each record's offset is its
 * trace time after the window's first arrival divided by the speed-up, so ×10 sends a 10-minute trace in one.
 * Memory is one record whatever the trace's length. Not thread-safe: the step's dispatcher thread reads it.
 */
public final class TraceFeed implements ArrivalFeed, Closeable {
    private final ReplayWindow window;
    private final TraceReader reader;
    private final long originNanos;
    private final double speed;
    private long taken;

    /**
     * @param window      which part of the trace
     * @param originNanos the trace time that becomes the step's start, ns (the window's first arrival)
     * @param speed       speed-up, > 0 (2: twice as fast as traced)
     * @throws TraceException when the file cannot be opened (see {@link TraceReader#open})
     * @throws IllegalArgumentException when the speed is not > 0
     */
    public TraceFeed(ReplayWindow window, long originNanos, double speed) {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed must be > 0, was " + speed);
        }
        this.window = window;
        this.originNanos = originNanos;
        this.speed = speed;
        this.reader = window.open();
    }

    @Override
    public Arrival next() {
        for (TraceEntry e = reader.next(); e != null; e = reader.next()) {
            int where = window.place(e.arrivalNanos(), taken);
            if (where < 0) {
                continue;
            }
            if (where > 0) {
                return null;
            }
            taken++;
            long offset = Math.round((e.arrivalNanos() - originNanos) / speed);
            return new Arrival(Math.max(0, offset), e.inputTokens(), e.outputTokens());
        }
        return null;
    }

    /** @return records sent so far */
    public long taken() {
        return taken;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
