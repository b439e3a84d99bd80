package org.latencylab.engine.telemetry;

import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.latencylab.engine.csv.CsvWriter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Samples a server's {@code /metrics} and a {@link GpuSource} at a fixed interval (1 Hz by default) on a daemon
 * thread while a variant is under load, appends every sample to CSV files as it is taken, and summarises them when
 * stopped ({@link TelemetrySummary}). A failed scrape or GPU reading is counted as a gap, never an error: telemetry
 * must not end a benchmark. Thread-safe: {@link #stop()} may be called from any thread, once.
 *
 * <p>Files: {@code METRICS_CSV} with {@code t_s,running,waiting,kv_cache_usage,prefix_cache_hit_rate,ttft_count,
 * ttft_sum_s,itl_count,itl_sum_s} and {@code GPU_CSV} with {@code t_s,gpu,name,memory_used_mib,memory_total_mib,
 * utilization_pct,power_w,sm_clock_mhz} (empty cells where a value is missing).
 */
public final class TelemetryRecorder implements AutoCloseable {
    private final OkHttpClient http;
    private final String metricsUrl;
    private final GpuSource gpu;
    private final BufferedWriter metricsOut;
    private final BufferedWriter gpuOut;
    private final CsvWriter metricsCsvOut;
    private final CsvWriter gpuCsvOut;
    private final long originNanos = System.nanoTime();
    private final List<ServerSample> server = Collections.synchronizedList(new ArrayList<>());
    private final List<GpuReading> gpuReadings = Collections.synchronizedList(new ArrayList<>());
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    private final ScheduledExecutorService ticker;
    private final Consumer<TelemetryTick> listener;
    private volatile String lastScrapeError;
    private volatile String lastGpuError;
    private int scrapeFailures;
    private int gpuFailures;
    /** Set by {@link #stop()} before it interrupts the sampling thread. */
    private volatile boolean stopping;

    /**
     * One tick's readings, for live displays.
     *
     * @param server the scrape, or null when none was taken or it failed
     * @param gpus   the GPU readings (empty when none)
     */
    public record TelemetryTick(ServerSample server, List<GpuReading> gpus) {
    }

    private TelemetryRecorder(OkHttpClient http, String metricsUrl, GpuSource gpu, Path metricsCsv, Path gpuCsv,
                              Duration interval, Consumer<TelemetryTick> listener) throws IOException {
        this.http = http;
        this.metricsUrl = metricsUrl;
        this.gpu = gpu;
        this.listener = listener == null ? t -> { } : listener;
        this.metricsOut = metricsUrl == null ? null : Files.newBufferedWriter(metricsCsv, StandardCharsets.UTF_8);
        this.gpuOut = gpu == null ? null : Files.newBufferedWriter(gpuCsv, StandardCharsets.UTF_8);
        this.metricsCsvOut = metricsOut == null ? null : CsvWriter.to(metricsOut, CsvWriter.LineEnd.LF);
        this.gpuCsvOut = gpuOut == null ? null : CsvWriter.to(gpuOut, CsvWriter.LineEnd.LF);
        if (metricsCsvOut != null) {
            metricsCsvOut.row("t_s", "running", "waiting", "kv_cache_usage", "prefix_cache_hit_rate", "ttft_count",
                    "ttft_sum_s", "itl_count", "itl_sum_s").flush();
        }
        if (gpuCsvOut != null) {
            gpuCsvOut.row("t_s", "gpu", "name", "memory_used_mib", "memory_total_mib", "utilization_pct", "power_w",
                    "sm_clock_mhz").flush();
        }
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "latencylab-telemetry");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::tick, 0, Math.max(50, interval.toMillis()), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts sampling at once and then every {@code interval}.
     *
     * @param http       HTTP client for the scrapes (not closed here)
     * @param metricsUrl the server's metrics URL (e.g. {@code http://127.0.0.1:8000/metrics}), or null for none
     * @param gpu        the GPU source, or null for none
     * @param metricsCsv file for the server samples (written only with a metrics URL)
     * @param gpuCsv     file for the GPU readings (written only with a GPU source)
     * @param interval   sampling period, &gt;= 50 ms (1 s for 1 Hz)
     * @param listener   receives every tick on the sampling thread (must be fast), or null
     * @return the running recorder
     * @throws UncheckedIOException when a CSV file cannot be created
     */
    public static TelemetryRecorder start(OkHttpClient http, String metricsUrl, GpuSource gpu, Path metricsCsv,
                                          Path gpuCsv, Duration interval, Consumer<TelemetryTick> listener) {
        try {
            return new TelemetryRecorder(http, metricsUrl, gpu, metricsCsv, gpuCsv, interval, listener);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create telemetry files: " + e.getMessage(), e);
        }
    }

    private double now() {
        return (System.nanoTime() - originNanos) / 1e9;
    }

    private synchronized void tick() {
        ServerSample s = null;
        boolean cut = false; // a sample cut off by stop() is no reading: it is not shown either
        if (metricsUrl != null) {
            double t = now();
            try (Response r = http.newCall(new Request.Builder().url(metricsUrl).get().build()).execute()) {
                if (r.code() != 200) {
                    throw new IOException("GET " + metricsUrl + " answered HTTP " + r.code());
                }
                s = ServerSample.of(t, PrometheusText.parse(r.body().string()));
                server.add(s);
                metricsCsvOut.row(seconds(s.tSeconds()), cell(s.running()), cell(s.waiting()),
                        cell(s.kvCacheUsage()), cell(s.prefixHitRate()), cell(s.ttftCount()),
                        cell(s.ttftSumSeconds()), cell(s.itlCount()), cell(s.itlSumSeconds())).flush();
            } catch (IOException | RuntimeException e) {
                if (cutOffByStop(e)) {
                    cut = true;
                } else {
                    scrapeFailures++;
                    lastScrapeError = e.getMessage();
                }
            }
        }
        List<GpuReading> gs = List.of();
        if (gpu != null) {
            double t = now();
            try {
                gs = gpu.read().stream().map(g -> g.at(t)).toList();
                gpuReadings.addAll(gs);
                for (GpuReading g : gs) {
                    gpuCsvOut.row(seconds(g.tSeconds()), g.index(), CsvWriter.quoted(g.name()),
                            cell(g.memoryUsedMiB()), cell(g.memoryTotalMiB()), cell(g.utilizationPct()),
                            cell(g.powerWatts()), cell(g.smClockMhz()));
                }
                gpuCsvOut.flush();
            } catch (IOException | RuntimeException e) {
                if (cutOffByStop(e)) {
                    cut = true;
                } else {
                    gpuFailures++;
                    lastGpuError = e.getMessage();
                }
            }
        }
        if (cut) {
            return; // stop() takes the last sample itself; a tick without its readings would show as a gap
        }
        try {
            listener.accept(new TelemetryTick(s, gs));
        } catch (RuntimeException e) {
            // a display's failure must not stop sampling
        }
    }

    /**
     * Whether a failed sample was only cut off by {@link #stop()}: the sampling thread was interrupted while it
     * waited for the scrape or for {@code nvidia-smi} (which is then killed). That is the normal end of sampling,
     * not a gap in the telemetry; {@link #stop()} takes one more sample itself.
     */
    private boolean cutOffByStop(Exception e) {
        if (!stopping) {
            return false;
        }
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException) {
                return true;
            }
        }
        return false;
    }

    private static String seconds(double t) {
        return String.format(Locale.ROOT, "%.3f", t);
    }

    private static String cell(double v) {
        return Double.isNaN(v) ? "" : v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
                : String.format(Locale.ROOT, "%.6g", v);
    }

    /**
     * Adds a note to the summary (e.g. why there is no GPU source).
     *
     * @param note one line
     */
    public void note(String note) {
        notes.add(note);
    }

    /**
     * Stops sampling, takes a last sample, closes the files and summarises. A sample in progress when this is called
     * (a scrape, or an {@code nvidia-smi} process, which is killed) is cut off without counting as a failure.
     *
     * @return the summary
     */
    public TelemetrySummary stop() {
        stopping = true;
        ticker.shutdownNow();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tick();
        close();
        return summary();
    }

    @Override
    public synchronized void close() {
        ticker.shutdownNow();
        for (BufferedWriter w : new BufferedWriter[] {metricsOut, gpuOut}) {
            if (w != null) {
                try {
                    w.close();
                } catch (IOException e) {
                    // the samples written so far are on disk; nothing else to do
                }
            }
        }
    }

    private synchronized TelemetrySummary summary() {
        List<String> n = new ArrayList<>(notes);
        if (scrapeFailures > 0) {
            n.add(scrapeFailures + " scrape(s) of " + metricsUrl + " failed; last: " + lastScrapeError);
        }
        if (gpuFailures > 0) {
            n.add(gpuFailures + " GPU reading(s) from " + gpu.describe() + " failed; last: " + lastGpuError);
        }
        List<ServerSample> ss = List.copyOf(server);
        Double serverTtft = null;
        Double serverItl = null;
        if (ss.size() >= 2) {
            ServerSample a = ss.get(0);
            ServerSample b = ss.get(ss.size() - 1);
            serverTtft = meanMs(b.ttftSumSeconds() - a.ttftSumSeconds(), b.ttftCount() - a.ttftCount());
            serverItl = meanMs(b.itlSumSeconds() - a.itlSumSeconds(), b.itlCount() - a.itlCount());
        }
        List<GpuReading> gs = List.copyOf(gpuReadings);
        Map<Double, Double> memoryByTime = new TreeMap<>();
        Map<Double, Double> powerByTime = new TreeMap<>();
        for (GpuReading g : gs) {
            memoryByTime.merge(g.tSeconds(), g.memoryUsedMiB(), Double::sum);
            powerByTime.merge(g.tSeconds(), g.powerWatts(), Double::sum);
        }
        Map<Integer, Double> totalByGpu = new TreeMap<>();
        gs.forEach(g -> totalByGpu.put(g.index(), g.memoryTotalMiB()));
        return new TelemetrySummary(ss.size(), mean(ss.stream().mapToDouble(ServerSample::running).toArray()),
                max(ss.stream().mapToDouble(ServerSample::waiting).toArray()),
                mean(ss.stream().mapToDouble(ServerSample::kvCacheUsage).toArray()),
                max(ss.stream().mapToDouble(ServerSample::kvCacheUsage).toArray()),
                ss.isEmpty() || Double.isNaN(ss.get(ss.size() - 1).prefixHitRate()) ? null
                        : ss.get(ss.size() - 1).prefixHitRate(),
                serverTtft, serverItl, gs.size(), totalByGpu.size(), gs.isEmpty() ? null : gs.get(0).name(),
                max(memoryByTime.values().stream().mapToDouble(Double::doubleValue).toArray()),
                totalByGpu.isEmpty() ? null : totalByGpu.values().stream().mapToDouble(Double::doubleValue).sum(),
                mean(gs.stream().mapToDouble(GpuReading::utilizationPct).toArray()),
                mean(powerByTime.values().stream().mapToDouble(Double::doubleValue).toArray()),
                max(gs.stream().mapToDouble(GpuReading::smClockMhz).toArray()),
                gpu == null ? null : gpu.describe(), n);
    }

    private static Double meanMs(double sumSeconds, double count) {
        return count > 0 && Double.isFinite(sumSeconds) ? sumSeconds / count * 1000 : null;
    }

    private static Double mean(double[] values) {
        DoubleSummaryStatistics s = java.util.Arrays.stream(values).filter(Double::isFinite).summaryStatistics();
        return s.getCount() == 0 ? null : s.getAverage();
    }

    private static Double max(double[] values) {
        DoubleSummaryStatistics s = java.util.Arrays.stream(values).filter(Double::isFinite).summaryStatistics();
        return s.getCount() == 0 ? null : s.getMax();
    }
}
