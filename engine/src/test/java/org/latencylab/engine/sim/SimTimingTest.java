package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Timing through real loopback HTTP. Tolerances allow for a busy 2-core machine (late, rarely early). */
class SimTimingTest {

    /** Time from send to the first event with content text [s]. */
    static double ttftSeconds(Loopback.Result r) {
        for (Loopback.Line l : r.data()) {
            if (!l.text().equals("[DONE]")
                    && !Loopback.parse(l.text()).at("/choices/0/delta/content").asText().isEmpty()) {
                return (l.atNanos() - r.sentNanos()) / 1e9;
            }
        }
        throw new AssertionError("no content event in " + r.lines());
    }

    static double e2eSeconds(Loopback.Result r) {
        return (r.lines().get(r.lines().size() - 1).atNanos() - r.sentNanos()) / 1e9;
    }

    @Test
    void ttftFollowsThePrefillPowerLaw() {
        // 2048 tokens -> 0.01 + 0.09 s; 32768 tokens -> 0.01 + 0.09 * 16^0.72 = 0.673 s
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0.010, k: 0.00037161, alpha: 0.72}
                decode: {tpot: 0.001}
                jitter: {sigma: 0.02}
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            http.post("/v1/chat/completions", Loopback.chat("warm up", 2, true, false));
            double[] small = new double[3];
            double[] large = new double[3];
            for (int i = 0; i < 3; i++) {
                small[i] = ttftSeconds(http.post("/v1/chat/completions",
                        Loopback.chat(Loopback.prompt(2048, i), 2, true, false)));
                large[i] = ttftSeconds(http.post("/v1/chat/completions",
                        Loopback.chat(Loopback.prompt(32768, 100 + i), 2, true, false)));
            }
            double ttft2k = median(small);
            double ttft32k = median(large);
            double model2k = p.prefillTime(2048).toNanos() / 1e9;
            double model32k = p.prefillTime(32768).toNanos() / 1e9;
            assertThat(ttft2k).isBetween(model2k * 0.94, model2k + 0.12);
            assertThat(ttft32k).isBetween(model32k * 0.94, model32k + 0.20);
            double alpha = Math.log((ttft32k - 0.010) / (ttft2k - 0.010)) / Math.log(16);
            assertThat(alpha).isCloseTo(0.72, within(0.10));
        }
    }

    @Test
    void decodeGapsFollowTpot() {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0.02, k: 0, alpha: 1}
                decode: {tpot: 0.015}
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            http.post("/v1/chat/completions", Loopback.chat("warm up", 2, true, false));
            Loopback.Result r = http.post("/v1/chat/completions", Loopback.chat("x", 21, true, false));
            double ttft = ttftSeconds(r);
            double e2e = e2eSeconds(r);
            // absolute deadlines: the end stays on schedule even when single events are late
            assertThat(e2e).isBetween(0.98 * (0.02 + 20 * 0.015), 0.02 + 20 * 0.015 + 0.1);
            double tpot = (e2e - ttft) / 20;
            assertThat(tpot).isBetween(0.015 * 0.8, 0.015 + 0.006);
        }
    }

    @Test
    void secondRequestQueuesBehindTheFirstWithOneRunningSequence() throws Exception {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0.200, k: 0, alpha: 1}
                decode: {tpot: 0.010}
                maxRunningSeqs: 1
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server);
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            http.post("/v1/chat/completions", Loopback.chat("warm up", 1, true, false));
            String body = Loopback.chat("queue", 10, true, false);
            Future<Loopback.Result> first = pool.submit(() -> http.post("/v1/chat/completions", body));
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (server.runningSeqs() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            Future<Loopback.Result> second = pool.submit(() -> http.post("/v1/chat/completions", body));
            boolean sawWaiting = false;
            while (!second.isDone() && System.nanoTime() < deadline + 2_000_000_000L) {
                sawWaiting |= server.waitingRequests() == 1;
                Thread.sleep(2);
            }
            Loopback.Result a = first.get();
            Loopback.Result b = second.get();
            double firstTtft = ttftSeconds(a);
            double secondTtft = ttftSeconds(b);
            long firstEnd = a.lines().get(a.lines().size() - 1).atNanos();
            // the second starts its prefill only when the first has finished its 10 tokens (0.2 + 9 * 0.01 s)
            double waitedForFirst = (firstEnd - b.sentNanos()) / 1e9;
            assertThat(firstTtft).isBetween(0.19, 0.35);
            assertThat(secondTtft).isGreaterThan(waitedForFirst + 0.19);
            assertThat(secondTtft).isGreaterThan(0.35);
            assertThat(sawWaiting).as("the second request was seen waiting").isTrue();
        }
    }

    @Test
    void stampsArePresentMonotonicAndBetweenSendAndReceive() {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0.01, k: 0, alpha: 1}
                decode: {tpot: 0.002}
                """);
        SimOptions o = SimOptions.builder().stamping(true).build();
        try (SimServer server = SimServer.start(p, o); Loopback http = new Loopback(server)) {
            Loopback.Result r = http.post("/v1/chat/completions", Loopback.chat("stamp", 12, true, true));
            long previous = r.sentNanos();
            int stamped = 0;
            for (Loopback.Line l : r.data()) {
                if (l.text().equals("[DONE]")) {
                    continue;
                }
                JsonNode e = Loopback.parse(l.text());
                long sent = e.get("x_sent_ns").asLong();
                assertThat(sent).isGreaterThan(previous).isLessThanOrEqualTo(l.atNanos());
                previous = sent;
                stamped++;
            }
            assertThat(stamped).isEqualTo(14);
            Loopback.Result ndjson = http.post("/api/generate", "{\"prompt\": \"p\", \"options\": {\"num_predict\": 3}}");
            assertThat(ndjson.ndjson()).hasSize(4).allMatch(n -> n.has("x_sent_ns"));
        }
    }

    @Test
    void prefixCacheSkipsPrefillOfARepeatedPrompt() {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0.01, k: 0.0001, alpha: 1}
                decode: {tpot: 0.001}
                prefixCache: {enabled: true, blockTokens: 16, capacityTokens: 100000}
                """);
        try (SimServer server = SimServer.start(p, SimOptions.defaults()); Loopback http = new Loopback(server)) {
            String prompt = Loopback.prompt(4000, 5); // 0.41 s cold, 0.01 s + 1 token warm
            Loopback.Result cold = http.post("/v1/chat/completions", Loopback.chat(prompt, 2, true, true));
            Loopback.Result warm = http.post("/v1/chat/completions", Loopback.chat(prompt, 2, true, true));
            assertThat(ttftSeconds(cold)).isGreaterThan(0.38);
            assertThat(ttftSeconds(warm)).isLessThan(0.2);
            List<JsonNode> ev = warm.dataJson();
            assertThat(ev.get(ev.size() - 1).at("/usage/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(3999);
        }
    }

    @Test
    void servesOneThousandTwentyFourConcurrentStreams() throws Exception {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 2.0, k: 0, alpha: 1}
                decode: {tpot: 0.05}
                maxRunningSeqs: 2048
                """);
        int n = 1024;
        try (SimServer server = SimServer.start(p, SimOptions.defaults());
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Loopback> clients = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                clients.add(new Loopback(server));
            }
            try {
                List<CompletableFuture<Loopback.Result>> calls = new ArrayList<>();
                String body = Loopback.chat("many", 4, true, false);
                for (int i = 0; i < n; i++) {
                    Loopback c = clients.get(i % clients.size());
                    calls.add(CompletableFuture.supplyAsync(() -> c.post("/v1/chat/completions", body), pool));
                }
                int maxRunning = 0;
                while (!calls.stream().allMatch(CompletableFuture::isDone)) {
                    maxRunning = Math.max(maxRunning, server.runningSeqs());
                    Thread.sleep(5);
                }
                for (CompletableFuture<Loopback.Result> c : calls) {
                    Loopback.Result r = c.get();
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.error()).isNull();
                    assertThat(r.dataJson()).hasSize(5);
                }
                // every stream was open at the same time at some point (prefill alone lasts 2 s)
                assertThat(maxRunning).isEqualTo(n);
            } finally {
                clients.forEach(Loopback::close);
            }
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
