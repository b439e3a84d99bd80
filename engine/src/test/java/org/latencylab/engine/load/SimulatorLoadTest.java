package org.latencylab.engine.load;

import org.latencylab.engine.results.RunLayout;
import org.apache.commons.math3.distribution.ExponentialDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Load steps through LatencyLab's own client against the built-in simulator on loopback. */
class SimulatorLoadTest {
    @TempDir
    Path dir;

    @Test
    void poissonAt500PerSecondHitsTheRateAndHasExponentialGaps() throws Exception {
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS.withKeepText(false))) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            TestContext ctx = new TestContext(ep, dir, (req, t) -> client.execute(ep, req, t));
            LoadSpec spec = LoadSpec.builder().rate(500.0).arrival(ArrivalProcess.POISSON)
                    .duration(Duration.ofSeconds(20)).contextTokens(16).maxOutputTokens(4).stream(false)
                    .seed(2024L).build();
            LoadResult r = new LoadStepRunner().run(spec, "poisson", ctx);

            LoadTotals t = r.totals();
            assertThat(t.sent()).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
            assertThat(t.failed()).isZero();
            assertThat(t.achievedRateRps()).isCloseTo(500, within(10.0));
            // achieved from the client's own send stamps, over the same 20 s
            List<RequestRecord> recs = ctx.records();
            long first = recs.stream().mapToLong(RequestRecord::sendNanos).min().orElseThrow();
            long last = recs.stream().mapToLong(RequestRecord::sendNanos).max().orElseThrow();
            double achieved = (recs.size() - 1) / ((last - first) / 1e9);
            assertThat(achieved).isCloseTo(500, within(10.0));

            double[] gaps = gapsSeconds(recs.stream().mapToLong(RequestRecord::intendedStartNanos).sorted().toArray());
            KolmogorovSmirnovTest ks = new KolmogorovSmirnovTest();
            assertThat(ks.kolmogorovSmirnovTest(new ExponentialDistribution(1 / 500.0), gaps)).isGreaterThan(0.01);
            assertThat(ks.kolmogorovSmirnovTest(new ExponentialDistribution(1 / 460.0), gaps))
                    .as("the check is sharp enough to reject an 8 %% slower rate").isLessThan(0.01);
        }
    }

    private static double[] gapsSeconds(long[] sortedNanos) {
        double[] g = new double[sortedNanos.length - 1];
        for (int i = 1; i < sortedNanos.length; i++) {
            g[i - 1] = (sortedNanos[i] - sortedNanos[i - 1]) / 1e9;
        }
        return g;
    }

    @Test
    void faultProfileAt200PerSecondAccountsForEveryRequestOnce() throws Exception {
        SimProfile faulty = SimProfile.parse("test", "faulty", """
                name: faulty
                model: faulty-sim
                prefill: {t0: 0.002, k: 0, alpha: 1}
                decode: {tpot: 0.001, batchSlowdown: 0}
                maxRunningSeqs: 100000
                faults:
                  rateLimited: {rate: 0.08, retryAfterSeconds: 0}
                  serverError: {rate: 0.08, status: 503}
                  reset: {rate: 0.05, afterTokens: 2}
                  stall: {rate: 0.01, seconds: 3}
                """);
        ClientOptions opts = new ClientOptions(Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofSeconds(10), 2, Duration.ofMillis(10), false, true, false);
        try (SimServer sim = SimServer.start(faulty, SimOptions.defaults());
             LlmClient client = new LlmClient(opts)) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            TestContext ctx = new TestContext(ep, dir, (req, t) -> client.execute(ep, req, t));
            LoadSpec spec = LoadSpec.builder().rate(200.0).duration(Duration.ofSeconds(4)).contextTokens(8)
                    .maxOutputTokens(8).stream(true).drainTimeout(Duration.ofMillis(300)).build();
            LoadResult r = new LoadStepRunner().run(spec, "faults", ctx);

            LoadTotals t = r.totals();
            assertThat(t.sent()).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
            assertThat(t.sent()).isBetween(650L, 950L);
            assertThat(ctx.duplicates.get()).isZero();
            assertThat(ctx.finished).hasSize((int) t.sent());
            Set<Long> ids = new HashSet<>();
            ctx.records().forEach(x -> ids.add(x.id()));
            assertThat(ids).hasSize((int) t.sent());
            assertThat(t.failed()).isPositive();
            assertThat(t.http429Attempts()).isPositive();
            assertThat(t.retries()).isPositive();
            assertThat(t.failedByKind()).containsKey("truncated");
            // stalled streams were still running when the 300 ms drain ended: cancelled, and recorded
            assertThat(t.cancelled()).isPositive();
            assertThat(ctx.records().stream().filter(x -> x.outcome() == Outcome.CANCELLED).count())
                    .isEqualTo(t.cancelled());
            assertThat(r.seconds().stream().mapToLong(LoadSecond::http429Attempts).sum())
                    .isEqualTo(t.http429Attempts());
        }
    }

    @Test
    void firstTokenDeadlineCancelsOnlyStreamsWithoutAFirstToken() throws Exception {
        SimProfile slowSome = SimProfile.parse("test", "slow-some", """
                name: slow-some
                model: m
                prefill: {t0: 0.01, k: 0, alpha: 1}
                decode: {tpot: 0.05, batchSlowdown: 0}
                maxRunningSeqs: 100000
                faults:
                  slowHeaders: {rate: 0.4, seconds: 0.6}
                """);
        try (SimServer sim = SimServer.start(slowSome, SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            TestContext ctx = new TestContext(ep, dir,
                    (TestContext.SignallingSender) (req, t, onFirstToken) -> client.execute(ep, req, t, onFirstToken));
            LoadSpec spec = LoadSpec.builder().rate(25.0).arrival(ArrivalProcess.CONSTANT)
                    .duration(Duration.ofSeconds(2)).contextTokens(8).maxOutputTokens(8).stream(true)
                    .firstTokenDeadline(Duration.ofMillis(150)).build();
            LoadResult r = new LoadStepRunner().run(spec, "deadline", ctx);

            LoadTotals t = r.totals();
            assertThat(t.sent()).isEqualTo(50);
            assertThat(t.sent()).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
            assertThat(t.deadlineMisses()).isBetween(8L, 32L);
            assertThat(t.succeeded() + t.deadlineMisses()).isEqualTo(50);
            for (RequestRecord x : ctx.records()) {
                if (x.succeeded()) {
                    // the stream outlived the deadline (8 tokens x 50 ms) but its first token came in time
                    assertThat(x.endNanos() - x.intendedStartNanos()).isGreaterThan(250_000_000L);
                } else {
                    assertThat(x.errorKind()).isEqualTo(org.latencylab.engine.api.ErrorKind.TIMEOUT);
                    assertThat(x.endNanos() - x.intendedStartNanos()).isLessThan(450_000_000L);
                }
            }
        }
    }

    @Test
    void theOverloadLimitIsSmallerWithASmallHeap() {
        assertThat(LoadRun.overloadInFlight(288L << 20)).isEqualTo(2304); // the default heap
        assertThat(LoadRun.overloadInFlight(2048L << 20)).isEqualTo(LoadRun.OVERLOAD_IN_FLIGHT);
        assertThat(LoadRun.overloadInFlight(1L << 20)).isEqualTo(64);
    }

    @Test
    void anOpenLoopThatPilesUpRequestsInFlightStopsByItselfAndSaysWhy() throws Exception {
        // every request waits 3 s for its first token, 100 arrive per second: in flight grows by 100 per second
        SimProfile slow = SimProfile.parse("test", "slow", """
                name: slow
                model: m
                prefill: {t0: 3.0, k: 0, alpha: 1}
                decode: {tpot: 0.01, batchSlowdown: 0}
                maxRunningSeqs: 100000
                """);
        System.setProperty("latencylab.overloadInFlight", "40");
        try (SimServer sim = SimServer.start(slow, SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            TestContext ctx = new TestContext(ep, dir, (req, t) -> client.execute(ep, req, t));
            LoadSpec spec = LoadSpec.builder().rate(100.0).arrival(ArrivalProcess.CONSTANT)
                    .duration(Duration.ofSeconds(30)).contextTokens(8).maxOutputTokens(2).stream(true)
                    .drainTimeout(Duration.ofSeconds(5)).build();
            long t0 = System.nanoTime();
            LoadResult r = new LoadStepRunner().run(spec, "overload", ctx);
            double seconds = (System.nanoTime() - t0) / 1e9;

            LoadTotals t = r.totals();
            assertThat(t.stopReason()).startsWith("overload: 40 requests in flight");
            assertThat(t.sent()).isEqualTo(40); // the 41st arrival found 40 in flight
            assertThat(t.sent()).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
            assertThat(seconds).as("stopped long before its 30 s").isLessThan(15);
            assertThat(ctx.notices).anyMatch(n -> n.contains("overload: 40 requests in flight"));
            // sent in about 0.4 s, each served in 3 s or more: goodput counts over the time they were served, not
            // over the 0.4 s of sending (that read 100 req/s)
            assertThat(t.measuredSeconds()).isLessThan(1.5);
            assertThat(t.goodput()).as("no SLOs: every success counts").isEqualTo(t.succeeded()).isPositive();
            assertThat(t.goodputRps()).isLessThanOrEqualTo(t.goodput() / 3.0).isGreaterThan(t.goodput() / 15.0);
        } finally {
            System.clearProperty("latencylab.overloadInFlight");
        }
    }

    @Test
    void burstScenarioDegradesTheTierAndRecovers() throws Exception {
        Path repo = Path.of(System.getProperty("latencylab.repo.dir", ".."));
        RunSpec spec = StepCatalog.loader().load(repo.resolve("sample-data/scenarios/load-burst-tiers.yaml"));
        RunResult run = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(90));
        assertThat(run.status()).as("failure: %s", run.failure()).isEqualTo(RunResult.Status.COMPLETED);
        LoadResult r = (LoadResult) run.steps().get(0).result();
        List<LoadSecond> s = r.seconds();
        // before the burst (seconds 2-3, after the 2 s warmup), at its end (6-9), and well after it (16-19)
        assertThat(tiers(s, 2, 4)).containsOnly("Tier-1");
        assertThat(worst(s, 6, 10)).isGreaterThanOrEqualTo(3);
        assertThat(tiers(s, 16, 20)).containsOnly("Tier-1");
        LoadTotals t = r.totals();
        assertThat(t.sent()).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
        // requests.jsonl has every request exactly once
        List<RequestRecord> logged = RequestLog.read(dir.resolve("run").resolve(RunLayout.REQUESTS_JSONL));
        assertThat(logged).hasSize((int) t.sent());
        assertThat(logged.stream().map(RequestRecord::id).distinct().count()).isEqualTo(t.sent());
        assertThat(dir.resolve("run").resolve("load.ttft.hlog")).isNotEmptyFile();
    }

    @Test
    void aStepWhoseRequestsAllFailToConnectStopsInsteadOfRunningItsDuration() throws Exception {
        Endpoint dead;
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults())) {
            dead = sim.endpoint(Protocol.OPENAI_CHAT);
        } // nothing listens at its port any more
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            TestContext ctx = new TestContext(dead, dir, (req, t) -> client.execute(dead, req, t));
            LoadSpec spec = LoadSpec.builder().rate(50.0).arrival(ArrivalProcess.CONSTANT)
                    .duration(Duration.ofMinutes(10)).contextTokens(16).maxOutputTokens(4).stream(true).build();
            long t0 = System.nanoTime();
            LoadResult r = new LoadStepRunner().run(spec, "dead", ctx);
            assertThat((System.nanoTime() - t0) / 1e9).as("seconds, of a 10-minute step").isLessThan(60);
            LoadTotals t = r.totals();
            assertThat(t.stopReason()).startsWith("no server: its first 20 requests all failed to connect (")
                    .contains("connection refused");
            assertThat(t.succeeded()).isZero();
            assertThat(t.sent()).isGreaterThanOrEqualTo(LoadRun.NO_SERVER_AFTER)
                    .isEqualTo(t.failed() + t.cancelled());
            assertThat(ctx.records()).filteredOn(x -> x.outcome() == Outcome.ERROR)
                    .allMatch(x -> x.errorKind() == org.latencylab.engine.api.ErrorKind.CONNECTION);
            assertThat(ctx.notices).anyMatch(n -> n.startsWith("load step 'dead': stopped, no server: "));
        }
    }

    @Test
    void waitsAtTheInFlightCapAreNotTheClientFallingBehindItsSchedule() throws Exception {
        // 60 req/s of ~45 ms requests with at most one in flight: a queue at the user's cap that grows all run long
        RunSpec spec = StepCatalog.loader().parse(new java.io.ByteArrayInputStream("""
                format: 1
                name: capped
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: load, rate: 60, arrival: constant, duration: 3s, contextTokens: 32, maxOutputTokens: 8,
                     stream: true, maxInFlight: 1, atCap: queue}
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "capped.yaml");
        RunResult run = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                .await(Duration.ofSeconds(90));
        assertThat(run.status()).as("failure: %s", run.failure()).isEqualTo(RunResult.Status.COMPLETED);
        double lagP99 = run.steps().get(0).stats().summary("dispatch_lag").orElseThrow().pMillis(99);
        assertThat(lagP99).as("the queue at the cap is in the dispatch lag").isGreaterThan(500);
        List<RequestRecord> logged = RequestLog.read(dir.resolve("run").resolve(RunLayout.REQUESTS_JSONL));
        List<RequestRecord> waited = logged.stream().filter(x -> x.capWaitNanos() > 0).toList();
        assertThat(waited.size()).as("most requests waited at the cap").isGreaterThan(logged.size() / 2);
        assertThat(waited).allSatisfy(x -> {
            assertThat(x.capWaitNanos()).isLessThanOrEqualTo(x.dispatchLagNanos());
            assertThat(x.clientDispatchLagNanos()).isEqualTo(x.dispatchLagNanos() - x.capWaitNanos());
        });
        // the trust check judges the client's own part: a few ms at most, against hundreds of ms of queue
        org.latencylab.engine.api.TrustCheck step = run.steps().get(0).trust();
        assertThat(step.dispatchLagP99Ms()).isLessThan(lagP99 / 10);
        assertThat(step.message()).doesNotContain("fell behind its schedule");
        if (!step.saturated()) { // (hiccups of a busy machine may still call it saturated, for their own reason)
            assertThat(step.message()).contains("the client's own dispatch lag P99 = ")
                    .contains("(waits at the maxInFlight/maxRateRps caps left out)");
        }
        assertThat(run.trust().dispatchLagP99Ms()).isLessThan(lagP99 / 10);
        // the wait is in requests.jsonl (line 1 is the format line), read back as written, to the microsecond
        RequestRecord last = waited.get(waited.size() - 1);
        com.fasterxml.jackson.databind.JsonNode line = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                java.nio.file.Files.readAllLines(dir.resolve("run").resolve(RunLayout.REQUESTS_JSONL))
                        .get(1 + logged.indexOf(last)));
        assertThat(line.path("id").asLong()).isEqualTo(last.id());
        assertThat(line.path("cap_wait_ms").asDouble() * 1e6).isCloseTo((double) last.capWaitNanos(), within(1_000.0));
    }

    private static List<String> tiers(List<LoadSecond> s, int from, int to) {
        return s.subList(from, to).stream().map(LoadSecond::tier).toList();
    }

    private static int worst(List<LoadSecond> s, int from, int to) {
        return s.subList(from, to).stream().map(LoadSecond::tier)
                .mapToInt(x -> x == null ? -1 : Integer.parseInt(x.substring("Tier-".length()))).max().orElse(-1);
    }
}
