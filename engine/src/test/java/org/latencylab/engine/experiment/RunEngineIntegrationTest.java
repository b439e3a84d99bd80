package org.latencylab.engine.experiment;

import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole engine over real loopback HTTP: simulator, client, steps, statistics, run directory. */
class RunEngineIntegrationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How the notice of a failed connection-opening request begins. */
    private static final String OPENING_FAILED = "a request that opens a connection before measuring failed";

    @Test
    void probeAndSweepAgainstTheSimulatorWriteACompleteRunDirectory(@TempDir Path dir) throws Exception {
        ProbeSpec probe = new ProbeSpec(30, 5, 200, 8, true, true, 0);
        SweepSpec sweep = new SweepSpec(List.of(256, 1024, 4096), 4, 4, 4, true, false, List.of(16384), 1);
        RunSpec spec = new RunSpec("it", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                new StatsSettings(null, null, List.of(org.latencylab.engine.stats.Slo.ofMillis("ttft", 95.0, 5000.0))),
                List.of(probe, sweep), null, null, 7);
        List<IntervalSnapshot> snaps = new CopyOnWriteArrayList<>();
        AtomicLong seenRecords = new AtomicLong();
        RunHandle h = StepCatalog.engine().start(spec, dir.resolve("run"), s -> {
            snaps.add(s);
            seenRecords.addAndGet(s.newRecords().size());
        });
        RunResult r = h.await(Duration.ofSeconds(90));
        assertThat(r).as("run finished in time").isNotNull();
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(r.failure()).isNull();
        // every request is in requests.jsonl exactly once, and in the snapshots exactly once
        List<RequestRecord> log = RequestLog.read(dir.resolve("run/requests.jsonl"));
        assertThat(log).hasSize(30 + 12);
        assertThat(log.stream().map(RequestRecord::id).distinct().count()).isEqualTo(42);
        assertThat(log).allMatch(x -> x.outcome() == Outcome.SUCCESS);
        assertThat(seenRecords.get()).isEqualTo(42);
        assertThat(snaps.get(snaps.size() - 1).finished()).isTrue();
        assertThat(snaps.get(snaps.size() - 1).completed()).isEqualTo(42);
        // the setup before the first step (simulator start, JIT warm-up) is said once and the same in every
        // snapshot, and no measured request was sent before it ended (requests.jsonl times are from the run start)
        long setup = snaps.get(0).setupNanos();
        assertThat(setup).isPositive();
        assertThat(snaps).allSatisfy(x -> assertThat(x.setupNanos()).isEqualTo(setup)
                .isLessThanOrEqualTo(x.elapsedNanos()));
        assertThat(snaps.get(snaps.size() - 1).measuringNanos())
                .isEqualTo(snaps.get(snaps.size() - 1).elapsedNanos() - setup);
        assertThat(log).allSatisfy(x -> assertThat(x.sendNanos()).isGreaterThanOrEqualTo(setup));
        // probe statistics and the SLO
        RunResult.StepOutcome p = r.steps().get(0);
        assertThat(p.stats().sent()).isEqualTo(30);
        assertThat(p.stats().summary("ttft")).isPresent();
        assertThat(p.stats().sloResults()).hasSize(1);
        assertThat(r.slosPassed()).isTrue();
        // sweep points and a fit whose TTFT grows with context
        SweepRunner.SweepResult sw = (SweepRunner.SweepResult) r.steps().get(1).result();
        assertThat(sw.points()).extracting(SweepRunner.SweepPoint::contextTokens).containsExactly(256, 1024, 4096);
        assertThat(sw.points().get(2).p50TtftMs()).isGreaterThan(sw.points().get(0).p50TtftMs());
        assertThat(sw.fitP50()).isNotNull();
        assertThat(sw.fitP50().alpha()).isBetween(0.1, 1.5);
        assertThat(sw.extrapolations()).hasSize(1);
        // run.json is complete and parseable
        JsonNode run = JSON.readTree(dir.resolve("run/run.json").toFile());
        assertThat(run.path("format").asInt()).isEqualTo(2);
        assertThat(run.path("status").asText()).isEqualTo("completed");
        assertThat(run.path("summary").path("sent").asLong()).isEqualTo(42);
        assertThat(run.path("steps").get(0).path("summary").path("metrics").path("ttft").path("count").asLong())
                .isEqualTo(30);
        assertThat(run.path("steps").get(1).path("result").path("fitP50").path("alpha").asDouble())
                .isEqualTo(sw.fitP50().alpha());
        assertThat(Files.readAllLines(dir.resolve("run/summary.csv")).get(0)).startsWith("step,metric,count,mean_ms");
        assertThat(Files.exists(dir.resolve("run/run.json.tmp"))).isFalse();
        // the probe's request threads were tracked: the run and the step carry a run-queue wait, read back as written
        if (org.latencylab.engine.trust.SchedulerWaits.available()) {
            JsonNode wait = run.path("trust").path("run_queue_wait_ms");
            assertThat(wait.isNumber()).as(run.path("trust").toString()).isTrue();
            assertThat(wait.asDouble()).isGreaterThanOrEqualTo(0).isEqualTo(r.trust().runQueueWaitMs());
            assertThat(run.path("steps").get(0).path("trust").path("run_queue_wait_ms").isNumber()).isTrue();
            assertThat(StepCatalog.reader().open(dir.resolve("run")).trust().runQueueWaitMs())
                    .isEqualTo(wait.asDouble());
        }
    }

    @Test
    void measuredRequestsOfAClosedLoopReuseConnectionsOpenedBeforeUnlessColdConnectionsAreAsked(@TempDir Path dir)
            throws Exception {
        ProbeSpec probe = new ProbeSpec(24, 6, 64, 4, true, true, 0);
        for (boolean cold : new boolean[] {false, true}) {
            RunSpec spec = new RunSpec("conn", TargetSpec.simulator("small-fast"),
                    ClientOptions.DEFAULTS.withColdConnections(cold), null, List.of(probe), null, null, 5);
            Path run = dir.resolve(cold ? "cold" : "warm");
            RunResult r = StepCatalog.engine().start(spec, run, RunListener.NONE).await(Duration.ofSeconds(60));
            assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
            List<RequestRecord> log = RequestLog.read(run.resolve("requests.jsonl"));
            assertThat(log).hasSize(24).allMatch(RequestRecord::succeeded);
            long connected = log.stream().filter(x -> x.connectStartNanos() != RequestRecord.UNSET).count();
            if (cold) {
                // six workers start together on an empty pool: each of their first requests opens a connection
                assertThat(connected).as("measured requests that connected").isGreaterThanOrEqualTo(6);
            } else {
                assertThat(connected).as("measured requests that connected").isZero();
            }
        }
    }

    @Test
    void aFailedConnectionOpeningRequestIsReportedOnceAndNotRecorded(@TempDir Path dir) throws Exception {
        try (mockwebserver3.MockWebServer mock = new mockwebserver3.MockWebServer()) {
            mock.start();
            // the first request is the one that opens the connection before the clock; it fails
            mock.enqueue(new mockwebserver3.MockResponse.Builder().code(503).body("warming up").build());
            String ok = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":null}]}\n\n"
                    + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                    + "data: [DONE]\n\n";
            for (int i = 0; i < 3; i++) {
                mock.enqueue(new mockwebserver3.MockResponse.Builder().code(200)
                        .setHeader("Content-Type", "text/event-stream").body(ok).build());
            }
            String url = mock.url("/v1").toString();
            org.latencylab.engine.api.Endpoint endpoint = new org.latencylab.engine.api.Endpoint("m",
                    org.latencylab.engine.api.Protocol.OPENAI_CHAT, url, "m", null, java.util.Map.of(), true);
            RunSpec spec = new RunSpec("prime", TargetSpec.of(endpoint), ClientOptions.DEFAULTS.withMaxRetries(0), null,
                    List.of(new ProbeSpec(3, 1, 16, 4, true, false, 0)), null, null, 5);
            List<String> told = new CopyOnWriteArrayList<>();
            RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), noticesTo(told)).await(Duration.ofSeconds(60));
            assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
            List<RequestRecord> log = RequestLog.read(dir.resolve("run/requests.jsonl"));
            assertThat(log).as("the failed request is not recorded").hasSize(3).allMatch(RequestRecord::succeeded);
            assertThat(r.notices()).filteredOn(n -> n.startsWith(OPENING_FAILED))
                    .singleElement().asString().contains("http_status").contains("503").contains("warming up");
            assertThat(told).anyMatch(n -> n.startsWith(OPENING_FAILED));
        }
    }

    @Test
    void aRunWhoseEveryRequestFailedQualifiesNoPercentileInRunJson(@TempDir Path dir) throws Exception {
        try (mockwebserver3.MockWebServer mock = new mockwebserver3.MockWebServer()) {
            mock.start();
            for (int i = 0; i < 6; i++) { // the connection-opening request, the three measured ones, to spare
                mock.enqueue(new mockwebserver3.MockResponse.Builder().code(503).body("overloaded").build());
            }
            org.latencylab.engine.api.Endpoint endpoint = new org.latencylab.engine.api.Endpoint("m",
                    org.latencylab.engine.api.Protocol.OPENAI_CHAT, mock.url("/v1").toString(), "m", null,
                    java.util.Map.of(), true);
            RunSpec spec = new RunSpec("all-failed", TargetSpec.of(endpoint), ClientOptions.DEFAULTS.withMaxRetries(0),
                    null, List.of(new ProbeSpec(3, 1, 16, 4, true, false, 0)), null, null, 5);
            RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE)
                    .await(Duration.ofSeconds(60));
            assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
            assertThat(r.overall().failed()).isEqualTo(3);
            assertThat(r.overall().succeeded()).isZero();
            assertThat(r.trust().trustedUpToPercentile()).isNaN();
            // run.json leaves the percentile out (there are no latencies to qualify), keeps the rest of the check
            JsonNode trust = JSON.readTree(dir.resolve("run/run.json").toFile()).path("trust");
            assertThat(trust.has("message")).isTrue();
            assertThat(trust.has("hiccup_p99_ms")).isTrue();
            assertThat(trust.has("trusted_up_to_percentile")).as(trust.toString()).isFalse();
            // and a reader of the run directory takes the absence as "no percentile", not as "trusted up to P100"
            RunResult reopened = StepCatalog.reader().open(dir.resolve("run"));
            assertThat(reopened.trust().trustedUpToPercentile()).isNaN();
            assertThat(reopened.trust().message()).isEqualTo(r.trust().message());
        }
    }

    @Test
    void aProbeWithMoreConcurrencyThanRequestsSaysHowManyWereInFlight(@TempDir Path dir) throws Exception {
        RunSpec spec = new RunSpec("few", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, null,
                List.of(new ProbeSpec(5, 16, 64, 4, true, true, 0)), null, null, 3);
        List<String> notices = new CopyOnWriteArrayList<>();
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), noticesTo(notices)).await(Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(RequestLog.read(dir.resolve("run/requests.jsonl"))).hasSize(5);
        assertThat(notices).containsExactly(
                "probe 'probe': concurrency 16 is more than its 5 requests: it keeps at most 5 in flight");
    }

    @Test
    void aSweepOfTwoLengthsSaysWhyThereIsNoFit(@TempDir Path dir) throws Exception {
        SweepSpec sweep = new SweepSpec(List.of(128, 512), 2, 2, 2, true, false, List.of(), 0);
        RunSpec spec = new RunSpec("two", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, null,
                List.of(sweep), null, null, 3);
        List<String> notices = new CopyOnWriteArrayList<>();
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), noticesTo(notices)).await(Duration.ofSeconds(60));
        SweepRunner.SweepResult sw = (SweepRunner.SweepResult) r.steps().get(0).result();
        assertThat(sw.points()).hasSize(2);
        assertThat(sw.fitP50()).isNull();
        assertThat(sw.fitMessage()).contains("at least 3 context lengths").contains("got 2");
        assertThat(notices).anyMatch(n -> n.contains("at least 3 context lengths"));
        assertThat(r.notices()).isEqualTo(notices);
    }

    @Test
    void cancelStopsPromptlyAndKeepsWhatFinished(@TempDir Path dir) throws Exception {
        ProbeSpec slow = new ProbeSpec(1000, 4, 2048, 200, true, true, 0);
        RunSpec spec = new RunSpec("cancel", TargetSpec.simulator("llama-8b-class"), ClientOptions.DEFAULTS, null,
                List.of(slow), null, null, 1);
        java.util.concurrent.CountDownLatch sending = new java.util.concurrent.CountDownLatch(1);
        RunHandle h = StepCatalog.engine().start(spec, dir.resolve("run"), s -> {
            if (s.inFlight() > 0) { // requests are in flight: the cancel finds some to cancel
                sending.countDown();
            }
        });
        assertThat(sending.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the probe sends").isTrue();
        long t0 = System.nanoTime();
        h.cancel();
        RunResult r = h.await(Duration.ofSeconds(10));
        double stopSeconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r).isNotNull();
        assertThat(r.status()).isEqualTo(RunResult.Status.CANCELLED);
        assertThat(stopSeconds).as("seconds from cancel to a finished run").isLessThan(5.0);
        List<RequestRecord> log = RequestLog.read(dir.resolve("run/requests.jsonl"));
        assertThat(log.size()).isLessThan(1000);
        assertThat(log).anyMatch(x -> x.outcome() == Outcome.CANCELLED);
        assertThat(r.overall().sent()).isEqualTo(log.size());
        assertThat(r.overall().succeeded() + r.overall().failed() + r.overall().cancelled()).isEqualTo(log.size());
    }

    /** @return a listener that keeps every notice in {@code sink} and ignores snapshots */
    private static RunListener noticesTo(List<String> sink) {
        return new RunListener() {
            @Override
            public void onSnapshot(IntervalSnapshot snapshot) {
            }

            @Override
            public void onNotice(String message) {
                sink.add(message);
            }
        };
    }
}
