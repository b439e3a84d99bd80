package org.latencylab.app.ui.experiment;

import javafx.beans.Observable;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.analysis.Roofline;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.server.ServerBenchSpec;
import org.latencylab.engine.server.VariantSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * State of the Server benchmark form, as JavaFX properties (no nodes): the server variants
 * ({@link ServerVariantRow}), the load plan every variant runs (closed-loop concurrency or open-loop rate, one level
 * or a sweep of several, duration, warmup, prompt and output tokens, an SLO), the servers' lifecycle and telemetry,
 * and the analysis (Pareto latency metric, roofline GPU and model, price per GPU-hour). {@link #spec()} builds the
 * engine's {@link ServerBenchSpec} through the engine's own constructors, so the form accepts exactly what a
 * scenario file accepts and shows the engine's messages: {@link #validate()} puts each next to its part
 * (a variant's row, the load plan, the benchmark). The defaults reproduce {@code sample-data/scenarios/engine-pareto.yaml}:
 * three simulator processes (vllm-like, tgi-like, ollama-like) at concurrency 8 for 10 s. Not thread-safe: use it on
 * the UI thread.
 */
public final class ServerBenchForm {
    /** Load level axes offered. */
    public static final List<String> LEVEL_AXES = List.of("concurrency", "rate");
    /** Pareto latency metrics offered (at P99). */
    public static final List<String> LATENCY_METRICS = Metric.ids(Metric.TTFT, Metric.E2E, Metric.TPOT);
    /** GPU telemetry modes offered. */
    public static final List<String> GPU_TELEMETRY = List.of("auto", "nvidia-smi", "simulated", "off");
    /** SLO metrics offered for the goodput SLO. */
    public static final List<String> SLO_METRICS = Metric.ids(Metric.TTFT, Metric.E2E, Metric.TPOT,
            Metric.TTFT_FROM_INTENDED, Metric.E2E_FROM_INTENDED);
    /** Choice meaning "no roofline". */
    public static final String NONE = "none";
    /** Roofline GPUs offered: {@link #NONE} and the engine's catalogue. */
    public static final List<String> GPUS = withNone(Roofline.GPUS.values().stream().map(Roofline.Gpu::id).toList());
    /** Roofline models offered: the engine's catalogue. */
    public static final List<String> MODELS = Roofline.MODELS.values().stream().map(Roofline.Model::id).toList();

    private final ObservableList<ServerVariantRow> variants = FXCollections.observableArrayList(
            r -> new Observable[] {r.nameProperty(), r.sourceProperty(), r.commandProperty(), r.modelProperty(),
                r.parametersProperty(), r.protocolProperty(), r.pricePerGpuHourProperty(),
                r.instanceTypeProperty()});
    private final StringProperty levelAxis = new SimpleStringProperty("concurrency");
    private final StringProperty levels = new SimpleStringProperty("8");
    private final StringProperty duration = new SimpleStringProperty("10s");
    private final StringProperty warmup = new SimpleStringProperty("2s");
    private final IntegerProperty contextTokens = new SimpleIntegerProperty(512);
    private final IntegerProperty maxOutputTokens = new SimpleIntegerProperty(32);
    private final BooleanProperty cold = new SimpleBooleanProperty(true);
    private final StringProperty sloMetric = new SimpleStringProperty(Metric.TTFT.id());
    private final StringProperty sloMaxMs = new SimpleStringProperty("1000");
    private final StringProperty readyTimeout = new SimpleStringProperty("60s");
    private final StringProperty stopGrace = new SimpleStringProperty("5s");
    private final StringProperty scrapeInterval = new SimpleStringProperty("1s");
    private final StringProperty gpuTelemetry = new SimpleStringProperty("auto");
    private final StringProperty latencyMetric = new SimpleStringProperty(Metric.TTFT.id());
    private final StringProperty rooflineGpu = new SimpleStringProperty("A10");
    private final StringProperty rooflineModel = new SimpleStringProperty("llama-2-7b");
    private final StringProperty pricePerGpuHour = new SimpleStringProperty("1.01");
    private final IntegerProperty gpus = new SimpleIntegerProperty(1);
    private final ReadOnlyStringWrapper loadError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper benchError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");

    /** A form with the defaults of {@code engine-pareto.yaml}. */
    public ServerBenchForm() {
        for (String p : List.of("vllm-like", "tgi-like", "ollama-like")) {
            ServerVariantRow r = ServerVariantRow.of(p, "sim:" + p);
            r.instanceTypeProperty().set("g5.xlarge");
            variants.add(r);
        }
    }

    private static List<String> withNone(List<String> ids) {
        List<String> out = new ArrayList<>();
        out.add(NONE);
        out.addAll(ids);
        return List.copyOf(out);
    }

    /** @return the variants, in the order they run (each row's changes are reported as list updates) */
    public ObservableList<ServerVariantRow> variants() {
        return variants;
    }

    /** Adds a variant: a simulator profile with a name not used yet. */
    public void addVariant() {
        String base = "variant";
        int i = variants.size() + 1;
        while (names().contains(base + "-" + i)) {
            i++;
        }
        variants.add(ServerVariantRow.of(base + "-" + i, "sim:vllm-like"));
    }

    /** @param row a variant to remove (the last one stays: a benchmark needs one) */
    public void removeVariant(ServerVariantRow row) {
        if (variants.size() > 1) {
            variants.remove(row);
        }
    }

    private List<String> names() {
        return variants.stream().map(r -> r.nameProperty().get()).toList();
    }

    /** @return {@code concurrency} (closed loop, workers) or {@code rate} (open loop, requests/s) */
    public StringProperty levelAxisProperty() {
        return levelAxis;
    }

    /** @return load levels, comma-separated: one runs the plan once, several sweep it (every variant, each level) */
    public StringProperty levelsProperty() {
        return levels;
    }

    /** @return how long each level runs, a duration text such as {@code 10s} */
    public StringProperty durationProperty() {
        return duration;
    }

    /** @return the first part of each level left out of the statistics, a duration text; {@code 0s} for none */
    public StringProperty warmupProperty() {
        return warmup;
    }

    /** @return prompt length, tokens */
    public IntegerProperty contextTokensProperty() {
        return contextTokens;
    }

    /** @return max_tokens of each request */
    public IntegerProperty maxOutputTokensProperty() {
        return maxOutputTokens;
    }

    /** @return unique prompt prefix per request (no prefix cache helps) */
    public BooleanProperty coldProperty() {
        return cold;
    }

    /** @return the goodput SLO's per-request metric */
    public StringProperty sloMetricProperty() {
        return sloMetric;
    }

    /** @return the goodput SLO's threshold, ms; empty or 0 = no SLO */
    public StringProperty sloMaxMsProperty() {
        return sloMaxMs;
    }

    /** @return launch → readiness timeout, a duration text */
    public StringProperty readyTimeoutProperty() {
        return readyTimeout;
    }

    /** @return SIGTERM → SIGKILL grace period, a duration text */
    public StringProperty stopGraceProperty() {
        return stopGrace;
    }

    /** @return telemetry period, a duration text (1s = 1 Hz) */
    public StringProperty scrapeIntervalProperty() {
        return scrapeInterval;
    }

    /** @return one of {@link #GPU_TELEMETRY} */
    public StringProperty gpuTelemetryProperty() {
        return gpuTelemetry;
    }

    /** @return the Pareto front's latency, at P99: one of {@link #LATENCY_METRICS} */
    public StringProperty latencyMetricProperty() {
        return latencyMetric;
    }

    /** @return roofline GPU id, or {@link #NONE} for no roofline */
    public StringProperty rooflineGpuProperty() {
        return rooflineGpu;
    }

    /** @return roofline model id */
    public StringProperty rooflineModelProperty() {
        return rooflineModel;
    }

    /** @return price of one GPU-hour for the cost table (any currency); empty = no cost table */
    public StringProperty pricePerGpuHourProperty() {
        return pricePerGpuHour;
    }

    /** @return GPUs per server (cost and roofline) */
    public IntegerProperty gpusProperty() {
        return gpus;
    }

    /** @return the engine's message about the load plan after the last validation, or empty */
    public ReadOnlyStringProperty loadErrorProperty() {
        return loadError.getReadOnlyProperty();
    }

    /** @return the engine's message about the benchmark as a whole after the last validation, or empty */
    public ReadOnlyStringProperty benchErrorProperty() {
        return benchError.getReadOnlyProperty();
    }

    /** @return after a valid validation: how many variants (grids expanded), levels and the time it takes at least */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /**
     * Builds the spec and puts every message where it belongs: each variant's in its row, the load plan's and the
     * benchmark's in their own properties; a valid form gets a one-line summary instead.
     *
     * @return the spec, or null when some part is invalid
     */
    public ServerBenchSpec validate() {
        List<VariantSpec> specs = new ArrayList<>();
        boolean ok = true;
        for (ServerVariantRow r : variants) {
            try {
                specs.add(r.spec());
                r.setError("");
            } catch (IllegalArgumentException e) {
                r.setError(e.getMessage());
                ok = false;
            }
        }
        LoadSpec load = null;
        try {
            load = load();
            loadError.set("");
        } catch (IllegalArgumentException e) {
            loadError.set(e.getMessage());
            ok = false;
        }
        benchError.set("");
        summary.set("");
        if (!ok) {
            return null;
        }
        try {
            ServerBenchSpec s = bench(specs, load);
            long n = specs.stream().mapToLong(v -> v.combinations().size()).sum();
            int levelsCount = s.levels().size();
            double seconds = s.load().duration() == null ? Double.NaN : s.load().duration().toMillis() / 1000.0;
            summary.set(String.format(Locale.ROOT, "%d variant%s × %d level%s%s, plus each server's start-up", n,
                    n == 1 ? "" : "s", levelsCount, levelsCount == 1 ? "" : "s", Double.isNaN(seconds) ? ""
                            : String.format(Locale.ROOT, " × %.0f s = %.0f s of load", seconds,
                            n * levelsCount * seconds)));
            return s;
        } catch (IllegalArgumentException e) {
            benchError.set(e.getMessage());
            return null;
        }
    }

    /**
     * @return the benchmark the form describes
     * @throws IllegalArgumentException when a field is invalid: the engine's message (a variant's names it)
     */
    public ServerBenchSpec spec() {
        List<VariantSpec> specs = new ArrayList<>();
        for (ServerVariantRow r : variants) {
            specs.add(r.spec());
        }
        return bench(specs, load());
    }

    private ServerBenchSpec bench(List<VariantSpec> specs, LoadSpec load) {
        List<Number> lv = levelValues();
        ServerBenchSpec.Sweep sweep = null;
        if (lv.size() > 1) {
            sweep = "rate".equals(levelAxis.get())
                    ? new ServerBenchSpec.Sweep(null, lv.stream().map(Number::doubleValue).toList())
                    : new ServerBenchSpec.Sweep(lv.stream().map(Number::intValue).toList(), null);
        }
        ServerBenchSpec.RooflineSpec roofline = NONE.equals(rooflineGpu.get()) ? null
                : new ServerBenchSpec.RooflineSpec(rooflineGpu.get(), rooflineModel.get(), null, null);
        String p = pricePerGpuHour.get() == null ? "" : pricePerGpuHour.get().strip();
        Double price;
        try {
            price = p.isEmpty() ? null : Double.valueOf(p);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("server-bench: price per GPU-hour '" + p + "' is not a number");
        }
        return new ServerBenchSpec(specs, load, sweep, duration("ready timeout", readyTimeout.get()),
                duration("stop grace", stopGrace.get()), duration("scrape interval", scrapeInterval.get()),
                gpuTelemetry.get(), latencyMetric.get(), roofline, price, gpus.get(), null);
    }

    private List<Number> levelValues() {
        boolean rate = "rate".equals(levelAxis.get());
        List<Number> out = new ArrayList<>();
        String t = levels.get() == null ? "" : levels.get().strip();
        for (String part : t.isEmpty() ? new String[0] : t.split("[,;\\s]+")) {
            try {
                out.add(rate ? (Number) Double.parseDouble(part) : (Number) Integer.parseInt(part));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("load levels: '" + part + "' is not " + (rate
                        ? "a rate in requests/s" : "a whole number of workers"));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("load levels: give at least one " + (rate ? "rate [req/s]"
                    : "concurrency"));
        }
        return out;
    }

    /**
     * @return the load plan of one level (the first level's concurrency or rate)
     * @throws IllegalArgumentException the engine's message, or which field does not parse
     */
    LoadSpec load() {
        List<Number> lv = levelValues();
        LoadSpec.Builder b = LoadSpec.builder();
        if ("rate".equals(levelAxis.get())) {
            b.rate(lv.get(0).doubleValue());
        } else {
            b.concurrency(lv.get(0).intValue());
        }
        String d = duration.get() == null ? "" : duration.get().strip();
        if (d.isEmpty()) {
            throw new IllegalArgumentException("load: duration is empty; e.g. 10s");
        }
        b.duration(duration("duration", d));
        String w = warmup.get() == null ? "" : warmup.get().strip();
        if (!w.isEmpty()) {
            b.warmup(duration("warmup", w));
        }
        b.contextTokens(contextTokens.get()).maxOutputTokens(maxOutputTokens.get()).coldPrompts(cold.get());
        String slo = sloMaxMs.get() == null ? "" : sloMaxMs.get().strip();
        if (!slo.isEmpty()) {
            double ms;
            try {
                ms = Double.parseDouble(slo);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("load: SLO threshold '" + slo + "' is not a number of ms");
            }
            if (ms != 0) {
                b.slos(List.of(org.latencylab.engine.stats.Slo.ofMillis(sloMetric.get(), null, ms)));
            }
        }
        return b.build();
    }

    private static Duration duration(String field, String text) {
        try {
            return DurationText.parse(text == null ? "" : text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
        }
    }

    /** @return a short run name, e.g. {@code server-bench-3-variants} */
    public String suggestedName() {
        long n;
        try {
            n = spec().variants().stream().mapToLong(v -> v.combinations().size()).sum();
        } catch (IllegalArgumentException e) {
            n = variants.size();
        }
        return "server-bench-" + n + "-variant" + (n == 1 ? "" : "s");
    }
}
