package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.tokens.TokenCounter;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class SimMetricsTest {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)$");

    /** Parses Prometheus text format samples into "name{labels}" -> value (and "name" -> sum over labels). */
    static Map<String, Double> parse(String text) {
        Map<String, Double> out = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line.strip());
            assertThat(m.matches()).as("sample line: %s", line).isTrue();
            double v = Double.parseDouble(m.group(3));
            String labels = m.group(2) == null ? "" : m.group(2);
            out.put(m.group(1) + labels, v);
            out.merge(m.group(1), v, Double::sum);
        }
        return out;
    }

    @Test
    void metricsCountRequestsAndTokensUnderVllmNames() {
        SimProfile p = Loopback.profile("""
                model: metric-model
                prefill: {t0: 0.002, k: 0, alpha: 1}
                decode: {tpot: 0.001}
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            Map<String, Double> before = parse(http.get("/metrics").text());
            assertThat(before.get("vllm:num_requests_running")).isZero();
            assertThat(before.get("vllm:request_success_total")).isZero();
            assertThat(before.get("vllm:time_to_first_token_seconds_count")).isZero();

            int promptTokens = 0;
            for (int i = 0; i < 5; i++) {
                String prompt = "metrics request number " + i;
                promptTokens += TokenCounter.cl100k().count(prompt);
                assertThat(http.post("/v1/chat/completions", Loopback.chat(prompt, 3 + i, i % 2 == 0, false))
                        .status()).isEqualTo(200);
            }
            Loopback.Result scrape = http.get("/metrics");
            assertThat(scrape.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
            Map<String, Double> m = parse(scrape.text());
            assertThat(m.get("vllm:request_success_total{finished_reason=\"length\",model_name=\"metric-model\"}"))
                    .isEqualTo(5.0);
            assertThat(m.get("vllm:prompt_tokens_total")).isEqualTo(promptTokens);
            assertThat(m.get("vllm:generation_tokens_total")).isEqualTo(3 + 4 + 5 + 6 + 7);
            assertThat(m.get("vllm:time_to_first_token_seconds_count")).isEqualTo(5.0);
            assertThat(m.get("vllm:e2e_request_latency_seconds_count")).isEqualTo(5.0);
            assertThat(m.get("vllm:time_to_first_token_seconds_sum")).isGreaterThanOrEqualTo(5 * 0.002);
            assertThat(m.get("vllm:time_to_first_token_seconds_bucket{model_name=\"metric-model\",le=\"+Inf\"}"))
                    .isEqualTo(5.0);
            assertThat(m.get("vllm:num_requests_waiting")).isZero();
        }
    }
}
