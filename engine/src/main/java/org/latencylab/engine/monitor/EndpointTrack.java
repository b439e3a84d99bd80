package org.latencylab.engine.monitor;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.stats.Slo;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * One monitored endpoint: cumulative counters and TTFT/E2E histograms over every session, plus the open hourly
 * and daily intervals, written to HdrHistogram interval logs when they close. Thread-safe (every method
 * synchronises on the track); probes of one endpoint end on their own virtual threads.
 */
final class EndpointTrack {
    /** Significant digits of every histogram: 3 (0.1 % resolution). */
    static final int DIGITS = 3;

    final String name;
    final Histogram ttft = new Histogram(DIGITS);
    final Histogram e2e = new Histogram(DIGITS);
    long sent;
    long succeeded;
    long failed;
    long cancelled;
    long judged;
    long met;
    private final Interval hourly;
    private final Interval daily;

    EndpointTrack(String name, Path hourlyLog, long hourlyMillis, Path dailyLog, long dailyMillis) {
        this.name = name;
        this.hourly = new Interval(hourlyLog, hourlyMillis);
        this.daily = new Interval(dailyLog, dailyMillis);
    }

    /**
     * Counts a finished probe.
     *
     * @param r          the record
     * @param slos       the SLA
     * @param nowMillis  wall-clock time of its end, epoch ms
     */
    synchronized void add(RequestRecord r, List<Slo> slos, long nowMillis) {
        sent++;
        switch (r.outcome()) {
            case SUCCESS -> succeeded++;
            case ERROR -> failed++;
            case CANCELLED -> cancelled++;
        }
        if (r.outcome() != Outcome.CANCELLED && !slos.isEmpty()) {
            judged++;
            if (slos.stream().allMatch(s -> s.meets(r))) {
                met++;
            }
        }
        hourly.roll(nowMillis, false);
        daily.roll(nowMillis, false);
        if (r.succeeded()) {
            record(r.ttftNanos(), ttft, hourly.ttft, daily.ttft);
            record(r.e2eNanos(), e2e, hourly.e2e, daily.e2e);
        }
    }

    private static void record(long v, Histogram... hs) {
        if (v >= 0) {
            for (Histogram h : hs) {
                h.recordValue(v);
            }
        }
    }

    /** Writes the open intervals (partial) at the end of a session. @param nowMillis epoch ms */
    synchronized void flush(long nowMillis) {
        hourly.roll(nowMillis, true);
        daily.roll(nowMillis, true);
        hourly.close();
        daily.close();
    }

    /** @return SLO attainment in [0, 1], NaN when nothing was judged */
    synchronized double attainment() {
        return judged == 0 ? Double.NaN : (double) met / judged;
    }

    /** @param h a histogram @return its compressed encoding in base64 (for {@code monitor.json}) */
    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }

    /** @param b64 an encoding made by {@link #encode} @param into histogram to add it to */
    static void decodeInto(String b64, Histogram into) {
        try {
            into.add(Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(b64)), 0));
        } catch (java.util.zip.DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("a histogram in the monitor state is damaged: " + e.getMessage(), e);
        }
    }

    /** One open interval of a given length and its log. */
    private static final class Interval {
        final Histogram ttft = new Histogram(DIGITS);
        final Histogram e2e = new Histogram(DIGITS);
        private final Path log;
        private final long lengthMillis;
        private long bucket = -1;
        private long openedMillis;
        private HistogramLogWriter writer;
        private OutputStream out;

        Interval(Path log, long lengthMillis) {
            this.log = log;
            this.lengthMillis = lengthMillis;
        }

        /** Closes the open interval when {@code nowMillis} lies in a later one (or when forced). */
        void roll(long nowMillis, boolean force) {
            long b = nowMillis / lengthMillis;
            if (bucket == -1) {
                bucket = b;
                openedMillis = nowMillis;
                return;
            }
            if (b == bucket && !force) {
                return;
            }
            long start = Math.max(bucket * lengthMillis, openedMillis);
            long end = force ? Math.min(nowMillis, (bucket + 1) * lengthMillis) : (bucket + 1) * lengthMillis;
            write(start, end);
            bucket = b;
            openedMillis = force ? nowMillis : b * lengthMillis;
        }

        private void write(long startMillis, long endMillis) {
            if (ttft.getTotalCount() + e2e.getTotalCount() == 0) {
                return;
            }
            try {
                if (writer == null) {
                    boolean fresh = !Files.exists(log);
                    out = new FileOutputStream(log.toFile(), true);
                    writer = new HistogramLogWriter(out);
                    if (fresh) {
                        writer.outputLogFormatVersion();
                        writer.outputComment("LatencyLab monitor intervals; values in ns; timestamps epoch seconds");
                        writer.outputLegend();
                    }
                }
                for (Histogram h : List.of(ttft, e2e)) {
                    if (h.getTotalCount() > 0) {
                        h.setTag(h == ttft ? "ttft" : "e2e");
                        writer.outputIntervalHistogram(startMillis / 1000.0, endMillis / 1000.0, h, 1.0);
                    }
                }
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + log + ": " + e.getMessage(), e);
            }
            ttft.reset();
            e2e.reset();
        }

        void close() {
            if (writer != null) {
                writer.close();
                writer = null;
            }
        }
    }
}
