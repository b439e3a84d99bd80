package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each fault is observed over loopback at its configured rate. Bounds are the binomial expectation ± 4.5 standard
 * deviations (a false failure about once in 150,000 runs), so a wrong rate or a fault that never fires fails.
 */
class SimFaultsTest {

    private static void assertRate(int hits, int trials, double rate) {
        double mean = trials * rate;
        double sd = Math.sqrt(trials * rate * (1 - rate));
        assertThat((double) hits).as("%d of %d at rate %s", hits, trials, rate)
                .isBetween(mean - 4.5 * sd, mean + 4.5 * sd);
    }

    private static SimProfile zero(String faults) {
        return Loopback.profile("""
                prefill: {t0: 0, k: 0, alpha: 1}
                decode: {tpot: 0}
                faults:
                """ + faults.indent(2));
    }

    @Test
    void rateLimitsAndServerErrorsAtTheirRates() {
        SimProfile p = zero("""
                rateLimited: {rate: 0.3, retryAfterSeconds: 2}
                serverError: {rate: 0.2, status: 502}
                """);
        int n = 300;
        int limited = 0;
        int failed = 0;
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            for (int i = 0; i < n; i++) {
                Loopback.Result r = http.post("/v1/chat/completions", Loopback.chat("x", 2, false, false));
                switch (r.status()) {
                    case 429 -> {
                        limited++;
                        assertThat(r.headers().firstValue("retry-after")).hasValue("2");
                        assertThat(r.headers().firstValue("retry-after-ms")).hasValue("2000");
                        assertThat(r.body().at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
                    }
                    case 502 -> {
                        failed++;
                        assertThat(r.body().at("/error/type").asText()).isEqualTo("server_error");
                    }
                    case 200 -> assertThat(r.body().at("/usage/completion_tokens").asInt()).isEqualTo(2);
                    default -> throw new AssertionError("unexpected status " + r.status());
                }
            }
        }
        assertRate(limited, n, 0.3);
        assertRate(failed, n, 0.2);
    }

    @Test
    void sameSeedGivesTheSameFaultSequence() {
        SimProfile p = zero("rateLimited: {rate: 0.5}\n");
        List<List<Integer>> runs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            long seed = run < 2 ? 42 : 43;
            List<Integer> statuses = new ArrayList<>();
            try (SimServer server = SimServer.start(p, SimOptions.builder().seed(seed).build());
                 Loopback http = new Loopback(server)) {
                for (int i = 0; i < 40; i++) {
                    statuses.add(http.post("/v1/completions", "{\"prompt\": \"x\", \"max_tokens\": 1}").status());
                }
            }
            runs.add(statuses);
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
        assertThat(runs.get(2)).isNotEqualTo(runs.get(0));
    }

    @Test
    void resetClosesTheStreamAfterTheConfiguredTokensWithoutEndMarker() throws Exception {
        // OkHttp here: the JDK HttpClient discards lines it has buffered once the connection breaks
        SimProfile p = zero("reset: {rate: 0.25, afterTokens: 3}\n");
        int n = 200;
        int resets = 0;
        OkHttpClient ok = new OkHttpClient.Builder().retryOnConnectionFailure(false).build();
        try (SimServer server = SimServer.start(p, SimOptions.defaults())) {
            Request request = new Request.Builder().url(server.baseUrl() + "/v1/chat/completions")
                    .header("Accept-Encoding", "identity")
                    .post(RequestBody.create(Loopback.chat("x", 6, true, false), MediaType.get("application/json")))
                    .build();
            for (int i = 0; i < n; i++) {
                List<String> data = new ArrayList<>();
                boolean broke = false;
                try (Response resp = ok.newCall(request).execute()) {
                    assertThat(resp.code()).isEqualTo(200);
                    BufferedSource src = resp.body().source();
                    String line;
                    while ((line = src.readUtf8Line()) != null) {
                        if (line.startsWith("data: ")) {
                            data.add(line.substring(6));
                        }
                    }
                } catch (IOException e) {
                    broke = true;
                }
                boolean done = data.contains("[DONE]");
                long tokens = data.stream().filter(d -> !d.equals("[DONE]"))
                        .filter(d -> !Loopback.parse(d).at("/choices/0/delta/content").asText().isEmpty()).count();
                if (broke) {
                    resets++;
                    assertThat(done).isFalse();
                    assertThat(tokens).isEqualTo(3);
                } else {
                    assertThat(done).isTrue();
                    assertThat(tokens).isEqualTo(6);
                }
            }
            // the server is still healthy after dropping connections
            try (Response health = ok.newCall(new Request.Builder().url(server.baseUrl() + "/health").build())
                    .execute()) {
                assertThat(health.code()).isEqualTo(200);
            }
        } finally {
            ok.dispatcher().executorService().shutdown();
            ok.connectionPool().evictAll();
        }
        assertRate(resets, n, 0.25);
    }

    @Test
    void stallsLengthenTokenGapsAtTheirRate() {
        SimProfile p = zero("stall: {rate: 0.1, seconds: 0.03}\n");
        int gaps = 0;
        int stalls = 0;
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            for (int i = 0; i < 16; i++) {
                Loopback.Result r = http.post("/v1/completions", "{\"prompt\": \"x\", \"max_tokens\": 21, \"stream\": true}");
                List<Loopback.Line> data = r.data();
                for (int k = 1; k < 21; k++) {
                    gaps++;
                    if (data.get(k).atNanos() - data.get(k - 1).atNanos() > 20_000_000L) {
                        stalls++;
                    }
                }
            }
        }
        assertRate(stalls, gaps, 0.1);
    }

    @Test
    void slowHeadersDelayTheResponseAtTheirRate() {
        SimProfile p = zero("slowHeaders: {rate: 0.3, seconds: 0.05}\n");
        int n = 100;
        int slow = 0;
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            for (int i = 0; i < n; i++) {
                Loopback.Result r = http.post("/v1/chat/completions", Loopback.chat("x", 1, true, false));
                if (r.headersNanos() - r.sentNanos() >= 45_000_000L) {
                    slow++;
                }
            }
        }
        assertRate(slow, n, 0.3);
    }

    @Test
    void closeEndsStreamsInProgress() throws Exception {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0, k: 0, alpha: 1}
                decode: {tpot: 0.2}
                """);
        SimServer server = SimServer.start(p, SimOptions.defaults());
        try (Loopback http = new Loopback(server); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Loopback.Result> call = pool.submit(() -> http.post("/v1/chat/completions",
                    Loopback.chat("x", 100, true, false)));
            long until = System.nanoTime() + 5_000_000_000L;
            while (server.runningSeqs() == 0 && System.nanoTime() < until) {
                Thread.sleep(2);
            }
            Thread.sleep(300);
            long before = System.nanoTime();
            server.close();
            double closeSeconds = (System.nanoTime() - before) / 1e9;
            Loopback.Result r = call.get();
            assertThat(r.error()).isNotNull();
            List<JsonNode> ev = r.dataJson();
            assertThat(ev.size()).isBetween(2, 10);
            assertThat(closeSeconds).isLessThan(3.0);
            assertThat(server.runningSeqs()).isZero();
        } finally {
            server.close();
        }
    }
}
