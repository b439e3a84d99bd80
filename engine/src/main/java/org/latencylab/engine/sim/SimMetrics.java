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
 * The simulator's Prometheus metrics under vLLM's names ({@code vllm:...}, label {@code model_name}), so scrapers
 * written for vLLM work unchanged. Uses prometheus-metrics-core, which accepts the colon in vLLM's names, and its
 * text format writer (exposition format 0.0.4). One registry per server, so several servers in one JVM do not
 * share counts. Bucket bounds are vLLM's (vllm/engine/metrics.py). Thread-safe.
 */
final class SimMetrics {
    /** Content type of {@link #scrape()}. */
    static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5,
            0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    private static final double[] E2E_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
            40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final String model;
    private final Counter promptTokens;
    private final Counter generationTokens;
    private final Counter success;
    private final Histogram ttft;
    private final Histogram e2e;

    /**
     * @param model     value of the {@code model_name} label
     * @param admission source of the running/waiting gauges
     */
    SimMetrics(String model, AdmissionQueue admission) {
        this.model = model;
        GaugeWithCallback.builder().name("vllm:num_requests_running")
                .help("Number of requests currently running on GPU.").labelNames("model_name")
                .callback(cb -> cb.call(admission.running(), model)).register(registry);
        GaugeWithCallback.builder().name("vllm:num_requests_waiting")
                .help("Number of requests waiting to be processed.").labelNames("model_name")
                .callback(cb -> cb.call(admission.waiting(), model)).register(registry);
        promptTokens = Counter.builder().name("vllm:prompt_tokens_total")
                .help("Number of prefill tokens processed.").labelNames("model_name").register(registry);
        generationTokens = Counter.builder().name("vllm:generation_tokens_total")
                .help("Number of generation tokens processed.").labelNames("model_name").register(registry);
        success = Counter.builder().name("vllm:request_success_total")
                .help("Count of successfully processed requests.").labelNames("model_name", "finished_reason")
                .register(registry);
        ttft = Histogram.builder().name("vllm:time_to_first_token_seconds")
                .help("Histogram of time to first token in seconds.").labelNames("model_name")
                .classicUpperBounds(TTFT_BUCKETS).register(registry);
        e2e = Histogram.builder().name("vllm:e2e_request_latency_seconds")
                .help("Histogram of end to end request latency in seconds.").labelNames("model_name")
                .classicUpperBounds(E2E_BUCKETS).register(registry);
        // create the series now, so that a scrape before the first request shows zeros, as vLLM's does
        promptTokens.labelValues(model);
        generationTokens.labelValues(model);
        success.labelValues(model, "length");
        ttft.labelValues(model);
        e2e.labelValues(model);
    }

    /** @param tokens prompt tokens of a request whose prefill finished */
    void prefillDone(int tokens) {
        promptTokens.labelValues(model).inc(tokens);
    }

    /** @param ttftNanos server-side TTFT of a request: body read &rarr; first token written [ns] */
    void firstToken(long ttftNanos) {
        ttft.labelValues(model).observe(ttftNanos / 1e9);
    }

    /** Counts one generated token. */
    void token() {
        generationTokens.labelValues(model).inc();
    }

    /**
     * @param e2eNanos       body read &rarr; last event written [ns]
     * @param finishedReason e.g. {@code length}
     */
    void finished(long e2eNanos, String finishedReason) {
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
