package org.latencylab.engine.server;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.latencylab.engine.analysis.Roofline;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.load.LoadSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A GPU-server benchmark ({@code type: server-bench}): every variant (grids expanded) is started or attached to,
 * loaded with the same load plan at each level of an optional concurrency or rate sweep, watched by telemetry,
 * stopped, and compared (Pareto front, batching heatmap, roofline, cost). Immutable and thread-safe.
 *
 * @param variants        the server variants, at least one; names unique
 * @param load            the load plan of every variant (a {@code load} step's fields; {@code duration} or
 *                        {@code requests} bound it)
 * @param sweep           optional: run the load at each of these levels instead of its own concurrency / rate
 * @param readyTimeout    how long a launched server may take to answer its readiness path; default 120 s
 * @param stopGrace       how long a server may take to exit after SIGTERM before SIGKILL; default 10 s
 * @param scrapeInterval  telemetry period; default 1 s (1 Hz)
 * @param gpuTelemetry    {@code auto} (default: the simulator's {@code /sim/gpu} when offered, else
 *                        {@code nvidia-smi} when installed, else a note), {@code nvidia-smi}, {@code simulated} or
 *                        {@code off}
 * @param latencyMetric   the latency objective of the Pareto front, at P99: {@code ttft} (default), {@code e2e} or
 *                        {@code tpot}
 * @param roofline        optional: GPU and model for the roofline bound
 * @param pricePerGpuHour default price of one GPU-hour for the cost table (currency of your choice); optional
 * @param gpus            default GPUs per server; default 1
 * @param heatmap         optional: which grid parameters are the heatmap's rows and columns (default: the first
 *                        variant whose grid has two parameters)
 * @throws IllegalArgumentException when a field is missing or out of range; the message names it
 */
@JsonIgnoreProperties(value = "type", allowGetters = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerBenchSpec(List<VariantSpec> variants, LoadSpec load, Sweep sweep, Duration readyTimeout,
                              Duration stopGrace, Duration scrapeInterval, String gpuTelemetry, String latencyMetric,
                              RooflineSpec roofline, Double pricePerGpuHour, Integer gpus, Heatmap heatmap)
        implements ExperimentSpec {

    /** Scenario type name of this spec. */
    public static final String TYPE = "server-bench";

    private static final List<String> GPU_MODES = List.of("auto", "nvidia-smi", "simulated", "off");
    private static final List<String> LATENCY = List.of("ttft", "e2e", "tpot");

    /**
     * Load levels: closed-loop concurrencies or open-loop rates (one of the two).
     *
     * @param concurrency workers, each &gt;= 1
     * @param rate        requests/s, each &gt; 0
     */
    public record Sweep(List<Integer> concurrency, List<Double> rate) {
        public Sweep {
            if ((concurrency == null) == (rate == null)) {
                throw new IllegalArgumentException("server-bench: sweep needs exactly one of concurrency or rate");
            }
            if (concurrency != null && (concurrency.isEmpty() || concurrency.stream().anyMatch(c -> c == null || c < 1))) {
                throw new IllegalArgumentException("server-bench: sweep.concurrency values must be >= 1, were "
                        + concurrency);
            }
            if (rate != null && (rate.isEmpty() || rate.stream().anyMatch(r -> r == null || !(r > 0)))) {
                throw new IllegalArgumentException("server-bench: sweep.rate values must be > 0, were " + rate);
            }
            concurrency = concurrency == null ? null : List.copyOf(concurrency);
            rate = rate == null ? null : List.copyOf(rate);
        }
    }

    /**
     * The roofline's GPU and model.
     *
     * @param gpu           a {@link Roofline#GPUS} id, e.g. {@code A10}, {@code H100-SXM}
     * @param model         a {@link Roofline#MODELS} id, e.g. {@code llama-2-7b}; or null with {@code modelConfig}
     * @param modelConfig   path of a Hugging Face {@code config.json}; or null with {@code model}
     * @param bytesPerParam weight precision override: 2 (16 bit), 1 (8 bit), 0.5 (4 bit); optional
     */
    public record RooflineSpec(String gpu, String model, String modelConfig, Double bytesPerParam) {
        public RooflineSpec {
            try {
                Roofline.gpu(gpu);
                if ((model == null) == (modelConfig == null)) {
                    throw new IllegalArgumentException("give exactly one of model or modelConfig");
                }
                if (model != null) {
                    Roofline.model(model);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("server-bench: roofline: " + e.getMessage(), e);
            }
            if (bytesPerParam != null && !(bytesPerParam > 0)) {
                throw new IllegalArgumentException("server-bench: roofline.bytesPerParam must be > 0, was "
                        + bytesPerParam);
            }
        }

        /** @return the model, read from the catalogue or the config file, at the chosen precision */
        public Roofline.Model resolveModel() {
            Roofline.Model m = model != null ? Roofline.model(model)
                    : Roofline.fromHuggingFaceConfig(java.nio.file.Path.of(modelConfig));
            return bytesPerParam == null ? m : m.withBytesPerParam(bytesPerParam);
        }
    }

    /**
     * The batching heatmap's axes.
     *
     * @param rows    grid parameter of the rows, e.g. {@code batch_size}
     * @param columns grid parameter of the columns, e.g. {@code max_prefill_tokens}
     */
    public record Heatmap(String rows, String columns) {
    }

    public ServerBenchSpec {
        if (variants == null || variants.isEmpty()) {
            throw new IllegalArgumentException("server-bench: variants needs at least one server variant");
        }
        Set<String> names = new HashSet<>();
        for (VariantSpec v : variants) {
            if (!names.add(v.name())) {
                throw new IllegalArgumentException("server-bench: two variants are named '" + v.name() + "'");
            }
        }
        variants = List.copyOf(variants);
        if (load == null) {
            throw new IllegalArgumentException("server-bench: load is missing; e.g. load: {concurrency: 8, "
                    + "duration: 10s, contextTokens: 512, maxOutputTokens: 64}");
        }
        readyTimeout = readyTimeout == null ? Duration.ofSeconds(120) : readyTimeout;
        stopGrace = stopGrace == null ? Duration.ofSeconds(10) : stopGrace;
        scrapeInterval = scrapeInterval == null ? Duration.ofSeconds(1) : scrapeInterval;
        if (readyTimeout.isNegative() || readyTimeout.isZero() || stopGrace.isNegative()
                || scrapeInterval.toMillis() < 50) {
            throw new IllegalArgumentException("server-bench: readyTimeout must be > 0, stopGrace >= 0 and "
                    + "scrapeInterval >= 50ms");
        }
        gpuTelemetry = gpuTelemetry == null ? "auto" : gpuTelemetry.strip().toLowerCase(Locale.ROOT);
        if (!GPU_MODES.contains(gpuTelemetry)) {
            throw new IllegalArgumentException("server-bench: gpuTelemetry must be one of " + GPU_MODES + ", was '"
                    + gpuTelemetry + "'");
        }
        latencyMetric = latencyMetric == null ? "ttft" : latencyMetric.strip().toLowerCase(Locale.ROOT);
        if (!LATENCY.contains(latencyMetric)) {
            throw new IllegalArgumentException("server-bench: latencyMetric must be one of " + LATENCY + ", was '"
                    + latencyMetric + "'");
        }
        if (pricePerGpuHour != null && !(pricePerGpuHour >= 0)) {
            throw new IllegalArgumentException("server-bench: pricePerGpuHour must be >= 0, was " + pricePerGpuHour);
        }
        gpus = gpus == null ? 1 : gpus;
        if (gpus < 1) {
            throw new IllegalArgumentException("server-bench: gpus must be >= 1, was " + gpus);
        }
    }

    @Override
    public List<String> ownEndpoints() {
        return variants.stream().map(VariantSpec::name).toList();
    }

    @Override
    public List<org.latencylab.engine.stats.Slo> stepSlos() {
        return load.slos();
    }

    @Override
    public String type() {
        return TYPE;
    }

    /** @return the load plan of each level: the sweep's concurrencies or rates applied to {@code load} */
    public List<LoadSpec> levels() {
        if (sweep == null) {
            return List.of(load);
        }
        List<LoadSpec> out = new ArrayList<>();
        if (sweep.concurrency() != null) {
            for (int c : sweep.concurrency()) {
                out.add(load.toBuilder().rate(null).ramp(null).burst(null).phases(null).arrival(null).shape(null)
                        .mode(null).concurrency(c).build());
            }
        } else {
            for (double r : sweep.rate()) {
                out.add(load.toBuilder().concurrency(null).thinkTime(null).mode(null).ramp(null).burst(null).phases(null)
                        .rate(r).build());
            }
        }
        return out;
    }

    /** @return variants × levels × requests when the load is bounded by requests, else -1 */
    @Override
    public long plannedRequests() {
        long per = load.plannedRequests();
        if (per < 0) {
            return -1;
        }
        long n = variants.stream().mapToLong(v -> v.combinations().size()).sum();
        return n * levels().size() * per;
    }

    @Override
    public String tierMetric() {
        return load.tierMetric();
    }

    @Override
    public boolean streaming() {
        return load.streaming();
    }
}
