package org.latencylab.engine.sim;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The simulator's Prometheus metrics under one inference engine's names, so scrapers written for that engine work
 * unchanged ({@link SimProfile.Engine#metrics()}):
 * <ul>
 *   <li>{@code vllm} (default): {@code vllm:num_requests_running}, {@code vllm:num_requests_waiting},
 *       {@code vllm:gpu_cache_usage_perc} (a fraction in [0, 1], despite the name), {@code vllm:prefix_cache_queries_total} /
 *       {@code vllm:prefix_cache_hits_total} (tokens), {@code vllm:time_to_first_token_seconds},
 *       {@code vllm:time_per_output_token_seconds}, {@code vllm:e2e_request_latency_seconds} and token counters,
 *       label {@code model_name}; bucket bounds are vLLM's ({@code vllm/engine/metrics.py});</li>
 *   <li>{@code sglang}: {@code sglang:num_running_reqs}, {@code sglang:num_queue_reqs}, {@code sglang:token_usage},
 *       {@code sglang:cache_hit_rate}, {@code sglang:time_to_first_token_seconds},
 *       {@code sglang:inter_token_latency_seconds}, {@code sglang:e2e_request_latency_seconds} (SGLang's
 *       {@code metrics_collector.py});</li>
 *   <li>{@code tgi}: {@code tgi_batch_current_size}, {@code tgi_queue_size}, {@code tgi_batch_current_max_tokens},
 *       {@code tgi_request_duration}, {@code tgi_request_queue_duration},
 *       {@code tgi_request_mean_time_per_token_duration}, {@code tgi_request_success} (TGI's router; it has no TTFT
 *       histogram);</li>
 *   <li>{@code none}: no {@code /metrics} at all (as Ollama).</li>
 * </ul>
 * Uses prometheus-metrics-core, which accepts the colon in vLLM's and SGLang's names, and its text format writer
 * (exposition format 0.0.4). One registry per server, so several servers in one JVM do not share counts.
 * Thread-safe.
 */
final class SimMetrics {
    /** Content type of {@link #scrape()}. */
    static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
            0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    private static final double[] TPOT_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75,
            1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
    private static final double[] E2E_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
            40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final String naming;
    private final String[] labels;
    private final Counter promptTokens;
    private final Counter generationTokens;
    private final Counter success;
    private final Counter prefixQueries;
    private final Counter prefixHits;
    private final Histogram ttft;
    private final Histogram itl;
    private final Histogram e2e;
    private final Histogram queue;
    private final Histogram meanTpot;
    private final String model;

    /**
     * @param model     value of the {@code model_name} label
     * @param admission source of the running/waiting gauges
     */
    SimMetrics(String model, AdmissionQueue admission) {
        this(model, admission, null, "vllm");
    }

    /**
     * @param model     value of the {@code model_name} label
     * @param admission source of the running/waiting gauges
     * @param gpu       source of the KV-cache usage gauge, or null (always 0)
     * @param naming    {@code vllm}, {@code sglang}, {@code tgi} or {@code none}
     */
    SimMetrics(String model, AdmissionQueue admission, GpuModel gpu, String naming) {
        this.model = model;
        this.naming = naming;
        boolean tgi = naming.equals("tgi");
        String p = naming.equals("sglang") ? "sglang:" : "vllm:";
        this.labels = tgi ? new String[0] : new String[] {"model_name"};
        String[] lv = tgi ? new String[0] : new String[] {model};
        GaugeWithCallback.builder().name(tgi ? "tgi_batch_current_size" : naming.equals("sglang")
                        ? "sglang:num_running_reqs" : "vllm:num_requests_running")
                .help("Number of requests currently running on GPU.").labelNames(labels)
                .callback(cb -> cb.call(admission.running(), lv)).register(registry);
        GaugeWithCallback.builder().name(tgi ? "tgi_queue_size" : naming.equals("sglang")
                        ? "sglang:num_queue_reqs" : "vllm:num_requests_waiting")
                .help("Number of requests waiting to be processed.").labelNames(labels)
                .callback(cb -> cb.call(admission.waiting(), lv)).register(registry);
        if (!tgi) {
            GaugeWithCallback.builder().name(naming.equals("sglang") ? "sglang:token_usage"
                            : "vllm:gpu_cache_usage_perc")
                    .help("KV-cache usage: 1 means 100 percent usage.").labelNames(labels)
                    .callback(cb -> cb.call(gpu == null ? 0 : gpu.kvCacheUsage(), lv)).register(registry);
        } else {
            GaugeWithCallback.builder().name("tgi_batch_current_max_tokens")
                    .help("Maximum tokens of the current batch.")
                    .callback(cb -> cb.call(gpu == null ? 0 : gpu.kvCacheUsage())).register(registry);
        }
        promptTokens = tgi ? null : Counter.builder().name(p + "prompt_tokens_total")
                .help("Number of prefill tokens processed.").labelNames(labels).register(registry);
        generationTokens = tgi ? null : Counter.builder().name(p + "generation_tokens_total")
                .help("Number of generation tokens processed.").labelNames(labels).register(registry);
        success = Counter.builder().name(tgi ? "tgi_request_success" : p + "request_success_total")
                .help("Count of successfully processed requests.")
                .labelNames(tgi ? new String[0] : new String[] {"model_name", "finished_reason"})
                .register(registry);
        prefixQueries = naming.equals("vllm") ? Counter.builder().name("vllm:prefix_cache_queries_total")
                .help("Prefix cache queries, in tokens.").labelNames(labels).register(registry) : null;
        prefixHits = naming.equals("vllm") ? Counter.builder().name("vllm:prefix_cache_hits_total")
                .help("Prefix cache hits, in tokens.").labelNames(labels).register(registry) : null;
        ttft = tgi ? null : Histogram.builder().name(p + "time_to_first_token_seconds")
                .help("Histogram of time to first token in seconds.").labelNames(labels)
                .classicUpperBounds(TTFT_BUCKETS).register(registry);
        itl = tgi ? null : Histogram.builder().name(naming.equals("sglang") ? "sglang:inter_token_latency_seconds"
                        : "vllm:time_per_output_token_seconds")
                .help("Histogram of time per output token in seconds.").labelNames(labels)
                .classicUpperBounds(TPOT_BUCKETS).register(registry);
        e2e = Histogram.builder().name(tgi ? "tgi_request_duration" : p + "e2e_request_latency_seconds")
                .help("Histogram of end to end request latency in seconds.").labelNames(labels)
                .classicUpperBounds(E2E_BUCKETS).register(registry);
        queue = tgi ? Histogram.builder().name("tgi_request_queue_duration")
                .help("Time spent in the queue, seconds.").classicUpperBounds(TTFT_BUCKETS).register(registry) : null;
        meanTpot = tgi ? Histogram.builder().name("tgi_request_mean_time_per_token_duration")
                .help("Mean time per token per request, seconds.").classicUpperBounds(TPOT_BUCKETS)
                .register(registry) : null;
        // create the series now, so that a scrape before the first request shows zeros, as the engines' do
        if (!tgi) {
            promptTokens.labelValues(model);
            generationTokens.labelValues(model);
            success.labelValues(model, "length");
            ttft.labelValues(model);
            itl.labelValues(model);
            e2e.labelValues(model);
        }
        if (prefixQueries != null) {
            prefixQueries.labelValues(model);
            prefixHits.labelValues(model);
        }
    }

    /** @return whether this server exposes {@code /metrics} at all */
    boolean exposed() {
        return !naming.equals("none");
    }

    /**
     * @param tokens       prompt tokens of a request whose prefill finished
     * @param cachedTokens of those, tokens found in the prefix cache
     */
    void prefillDone(int tokens, int cachedTokens) {
        if (promptTokens != null) {
            promptTokens.labelValues(model).inc(tokens);
        }
        if (prefixQueries != null) {
            prefixQueries.labelValues(model).inc(tokens);
            prefixHits.labelValues(model).inc(cachedTokens);
        }
    }

    /** @param tokens prompt tokens of a request whose prefill finished (no prefix-cache hits) */
    void prefillDone(int tokens) {
        prefillDone(tokens, 0);
    }

    /** @param ttftNanos server-side TTFT of a request: body read &rarr; first token written [ns] */
    void firstToken(long ttftNanos) {
        if (ttft != null) {
            ttft.labelValues(model).observe(ttftNanos / 1e9);
        }
    }

    /** @param queuedNanos time the request waited for a running slot [ns] */
    void queued(long queuedNanos) {
        if (queue != null) {
            queue.observe(queuedNanos / 1e9);
        }
    }

    /** @param gapNanos time between two consecutive tokens of one request [ns] */
    void interToken(long gapNanos) {
        if (itl != null) {
            itl.labelValues(model).observe(gapNanos / 1e9);
        }
    }

    /** Counts one generated token. */
    void token() {
        if (generationTokens != null) {
            generationTokens.labelValues(model).inc();
        }
    }

    /**
     * @param e2eNanos       body read &rarr; last event written [ns]
     * @param finishedReason e.g. {@code length}
     */
    void finished(long e2eNanos, String finishedReason) {
        finished(e2eNanos, finishedReason, 0);
    }

    /**
     * @param e2eNanos       body read &rarr; last event written [ns]
     * @param finishedReason e.g. {@code length}
     * @param tokens         generated tokens (for TGI's mean time per token)
     */
    void finished(long e2eNanos, String finishedReason, int tokens) {
        if (labels.length == 0) {
            e2e.observe(e2eNanos / 1e9);
            success.inc();
            if (tokens > 0) {
                meanTpot.observe(e2eNanos / 1e9 / tokens);
            }
            return;
        }
        e2e.labelValues(model).observe(e2eNanos / 1e9);
        success.labelValues(model, finishedReason).inc();
    }

    /** @return all metrics in Prometheus text format 0.0.4 */
    String scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
