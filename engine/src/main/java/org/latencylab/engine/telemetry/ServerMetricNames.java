package org.latencylab.engine.telemetry;

import java.util.List;

/**
 * The Prometheus names under which vLLM, SGLang and TGI expose the quantities a GPU-server benchmark watches, in
 * the order they are tried (the first name present in a scrape wins). Sources: vLLM {@code vllm/engine/metrics.py}
 * and {@code vllm/v1/metrics/loggers.py} (V0 and V1 names), SGLang {@code sglang/srt/metrics/collector.py}, TGI
 * {@code router/src} ({@code tgi_*}), llama.cpp server with {@code --metrics} ({@code llamacpp:*}). Constants only;
 * thread-safe.
 */
public final class ServerMetricNames {
    private ServerMetricNames() {
    }

    /** Requests running (in the batch) now. */
    public static final List<String> RUNNING = List.of("vllm:num_requests_running", "sglang:num_running_reqs",
            "tgi_batch_current_size", "llamacpp:requests_processing");
    /** Requests waiting in the server's queue now. */
    public static final List<String> WAITING = List.of("vllm:num_requests_waiting", "sglang:num_queue_reqs",
            "tgi_queue_size", "llamacpp:requests_deferred");
    /** KV-cache usage as a fraction in [0, 1] (vLLM's "_perc" is a fraction too). */
    public static final List<String> KV_CACHE_USAGE = List.of("vllm:gpu_cache_usage_perc", "vllm:kv_cache_usage_perc",
            "sglang:token_usage", "llamacpp:kv_cache_usage_ratio");
    /** Prefix-cache hit rate as a fraction, where a server exposes it as a gauge. */
    public static final List<String> PREFIX_HIT_RATE = List.of("vllm:gpu_prefix_cache_hit_rate",
            "sglang:cache_hit_rate");
    /** Prefix-cache hits and queries (tokens), vLLM V1 counters: hit rate = Δhits / Δqueries. */
    public static final String PREFIX_HITS = "vllm:prefix_cache_hits_total";
    /** @see #PREFIX_HITS */
    public static final String PREFIX_QUERIES = "vllm:prefix_cache_queries_total";
    /** Server-side TTFT histograms (seconds); TGI has none. */
    public static final List<String> TTFT_HISTOGRAM = List.of("vllm:time_to_first_token_seconds",
            "sglang:time_to_first_token_seconds");
    /** Server-side inter-token latency histograms (seconds). */
    public static final List<String> ITL_HISTOGRAM = List.of("vllm:inter_token_latency_seconds",
            "vllm:time_per_output_token_seconds", "sglang:inter_token_latency_seconds",
            "tgi_request_mean_time_per_token_duration");

    /**
     * @param samples a parsed scrape
     * @param names   candidate names, tried in order
     * @return the value of the first name present (summed over label sets), or NaN when none is
     */
    public static double first(List<PrometheusText.Sample> samples, List<String> names) {
        for (String n : names) {
            Double v = PrometheusText.sum(samples, n);
            if (v != null) {
                return v;
            }
        }
        return Double.NaN;
    }
}
