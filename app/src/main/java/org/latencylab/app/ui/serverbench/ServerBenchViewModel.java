package org.latencylab.app.ui.serverbench;

import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.report.ServerBenchReport;
import org.latencylab.app.report.Units;
import org.latencylab.engine.step.StepProgress;
import org.latencylab.engine.server.ServerBenchProgress;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;
import org.latencylab.engine.telemetry.GpuReading;
import org.latencylab.engine.telemetry.ServerSample;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the server-benchmark panel shows: one row per variant with its state (live from the engine's
 * {@link ServerBenchProgress}, or from a finished {@link ServerBenchResult}), the telemetry time series of the variant
 * under load (or of the one selected), and the finished benchmark with its report text. Every number is one the
 * engine measured or concluded. Not thread-safe: use it on the UI thread.
 */
public final class ServerBenchViewModel {
    /**
     * One variant's row.
     *
     * @param index  1-based position among the expanded variants
     * @param name   variant name with its grid values
     * @param state  {@code starting}, {@code under load}, {@code stopping}, or how it ended: {@code ok}, {@code oom},
     *               {@code start failed}, {@code not ready}, {@code crashed}, {@code cancelled}
     * @param detail what to know: why it failed, or its measured throughput, P99 latency and memory; may be empty
     */
    public record VariantState(int index, String name, String state, String detail) {
    }

    /**
     * The telemetry of one variant so far.
     *
     * @param index   the variant's index
     * @param variant its name
     * @param server  its {@code /metrics} samples in time order (empty when the server exposes none)
     * @param gpus    its GPU readings in time order (empty without a GPU source)
     */
    public record Telemetry(int index, String variant, List<ServerSample> server, List<GpuReading> gpus) {
        /** Copies the lists. */
        public Telemetry {
            server = List.copyOf(server);
            gpus = List.copyOf(gpus);
        }
    }

    private final ObservableList<VariantState> variants = FXCollections.observableArrayList();
    private final Map<Integer, List<ServerSample>> server = new LinkedHashMap<>();
    private final Map<Integer, List<GpuReading>> gpus = new LinkedHashMap<>();
    private final Map<Integer, String> names = new LinkedHashMap<>();
    private final ReadOnlyObjectWrapper<Telemetry> telemetry = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper liveText = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<ServerBenchResult> result = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper report = new ReadOnlyStringWrapper("");
    private String runName = "";
    private Path runDirectory;
    private int running;

    /** Forgets everything (a new run starts, or another run is shown). */
    public void reset() {
        variants.clear();
        server.clear();
        gpus.clear();
        names.clear();
        telemetry.set(null);
        liveText.set("");
        result.set(null);
        report.set("");
        runDirectory = null;
        running = 0;
    }

    /**
     * Takes one event of a running step; anything but a {@link ServerBenchProgress} is ignored.
     *
     * @param p the event
     */
    public void accept(StepProgress p) {
        if (!(p instanceof ServerBenchProgress b)) {
            return;
        }
        names.put(b.index(), b.variant());
        String where = String.format(Locale.ROOT, "variant %d/%d '%s'", b.index(), b.count(), b.variant());
        switch (b.phase()) {
            case STARTING -> {
                running = b.index();
                server.put(b.index(), new ArrayList<>());
                gpus.put(b.index(), new ArrayList<>());
                put(new VariantState(b.index(), b.variant(), "starting", "launching; waiting until it is ready"));
                liveText.set(where + " · starting");
                showTelemetry(b.index());
            }
            case LOAD -> {
                running = b.index();
                if (b.tick() != null) {
                    if (b.tick().server() != null) {
                        server.computeIfAbsent(b.index(), k -> new ArrayList<>()).add(b.tick().server());
                    }
                    gpus.computeIfAbsent(b.index(), k -> new ArrayList<>()).addAll(b.tick().gpus());
                }
                put(new VariantState(b.index(), b.variant(), "under load", tickText(b)));
                liveText.set(where + " · under load" + (tickText(b).isEmpty() ? "" : " · " + tickText(b)));
                if (telemetry.get() == null || telemetry.get().index() == b.index()) {
                    showTelemetry(b.index());
                }
            }
            case STOPPING -> {
                put(new VariantState(b.index(), b.variant(), "stopping", "SIGTERM, then SIGKILL after the grace"));
                liveText.set(where + " · stopping");
            }
            case DONE -> {
                String state = stateOf(b.status());
                put(new VariantState(b.index(), b.variant(), state, b.message() == null ? "" : b.message()));
                liveText.set(where + " · " + state + (b.index() == b.count() ? " · comparing variants" : ""));
            }
        }
    }

    private static String tickText(ServerBenchProgress b) {
        if (b.tick() == null) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        ServerSample s = b.tick().server();
        if (s != null) {
            if (Double.isFinite(s.kvCacheUsage())) {
                parts.add("KV cache " + Units.percent(s.kvCacheUsage()));
            }
            if (Double.isFinite(s.running())) {
                parts.add(String.format(Locale.ROOT, "%.0f running", s.running()));
            }
            if (Double.isFinite(s.waiting())) {
                parts.add(String.format(Locale.ROOT, "%.0f waiting", s.waiting()));
            }
        }
        double used = b.tick().gpus().stream().mapToDouble(GpuReading::memoryUsedMiB).filter(Double::isFinite)
                .sum();
        if (!b.tick().gpus().isEmpty()) {
            parts.add(String.format(Locale.ROOT, "GPU memory %.1f GiB", used / 1024));
        }
        return String.join(" · ", parts);
    }

    private static String stateOf(VariantResult.Status s) {
        return s == null ? "done" : s.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private void put(VariantState s) {
        for (int i = 0; i < variants.size(); i++) {
            if (variants.get(i).index() == s.index()) {
                if (!variants.get(i).equals(s)) {
                    variants.set(i, s);
                }
                return;
            }
        }
        int at = 0;
        while (at < variants.size() && variants.get(at).index() < s.index()) {
            at++;
        }
        variants.add(at, s);
    }

    /**
     * Shows the telemetry received for one variant (the table's selection); a variant without any shows empty
     * series.
     *
     * @param index the variant's index
     */
    public void showTelemetry(int index) {
        if (!names.containsKey(index)) {
            return;
        }
        telemetry.set(new Telemetry(index, names.get(index), server.getOrDefault(index, List.of()),
                gpus.getOrDefault(index, List.of())));
    }

    /**
     * Shows a finished benchmark (at the end of a live run, or reopened from the history): one row per variant
     * with its status and measurements, and the report the console prints for it.
     *
     * @param name      run name, for chart titles
     * @param directory the run directory (its {@code <label>.variants.csv} is the benchmark's data), or null
     * @param r         the benchmark
     */
    public void showResult(String name, Path directory, ServerBenchResult r) {
        Objects.requireNonNull(r, "r");
        if (r.equals(result.get())) {
            return;
        }
        runName = name == null ? "" : name;
        runDirectory = directory;
        for (VariantResult v : r.variants()) {
            names.put(v.index(), v.name());
            put(new VariantState(v.index(), v.name(), stateOf(v.status()), detail(v)));
        }
        variants.removeIf(s -> r.variants().stream().noneMatch(v -> v.index() == s.index()));
        StringWriter text = new StringWriter();
        try (PrintWriter out = new PrintWriter(text)) {
            ServerBenchReport.print(r, out);
        }
        report.set(text.toString());
        long ok = r.variants().stream().filter(v -> v.status() == VariantResult.Status.OK).count();
        liveText.set(String.format(Locale.ROOT, "%s · %d of %d variants measured", r.label(), ok,
                r.variants().size()));
        result.set(r);
    }

    /** @return a finished variant in words: the message's first line when it failed, else its best point */
    static String detail(VariantResult v) {
        if (v.status() != VariantResult.Status.OK) {
            return v.message() == null ? "" : v.message().lines().findFirst().orElse("");
        }
        VariantResult.Point best = v.points().stream()
                .max(java.util.Comparator.comparingDouble(VariantResult.Point::outputTokensPerSecond)).orElse(null);
        if (best == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%.1f tokens/s", best.outputTokensPerSecond()));
        if (best.latencyP99Ms() != null) {
            b.append(" · P99 ").append(Units.ms(best.latencyP99Ms()));
        }
        if (v.peakGpuMemoryGiB() != null) {
            b.append(String.format(Locale.ROOT, " · peak %.1f GiB", v.peakGpuMemoryGiB()));
        }
        if (v.points().stream().anyMatch(VariantResult.Point::paretoOptimal)) {
            b.append(" · Pareto ★");
        }
        return b.toString();
    }

    /** @return one row per variant, in index order */
    public ObservableList<VariantState> variants() {
        return variants;
    }

    /** @return the telemetry shown (the variant under load, or the one selected), or null before any */
    public ReadOnlyObjectProperty<Telemetry> telemetryProperty() {
        return telemetry.getReadOnlyProperty();
    }

    /** @return one line: which variant does what now, with its latest telemetry; or the finished benchmark's tally */
    public ReadOnlyStringProperty liveTextProperty() {
        return liveText.getReadOnlyProperty();
    }

    /** @return the finished benchmark shown, or null while it runs */
    public ReadOnlyObjectProperty<ServerBenchResult> resultProperty() {
        return result.getReadOnlyProperty();
    }

    /** @return the finished benchmark as the console prints it (variants, Pareto front, roofline, cost), or "" */
    public ReadOnlyStringProperty reportProperty() {
        return report.getReadOnlyProperty();
    }

    /** @return the run's name, for chart titles */
    public String runName() {
        return runName;
    }

    /** @return the variants CSV the engine wrote for the benchmark shown ({@code <label>.variants.csv}), or null */
    public Path variantsCsv() {
        ServerBenchResult r = result.get();
        return r == null || runDirectory == null ? null : runDirectory.resolve(r.label() + ".variants.csv");
    }

    /** @return index of the variant under load or last started, 0 before any */
    public int runningIndex() {
        return running;
    }
}
