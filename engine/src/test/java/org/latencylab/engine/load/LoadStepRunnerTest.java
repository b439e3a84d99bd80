package org.latencylab.engine.load;

import org.latencylab.engine.api.Phase;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Load steps against a real HTTP server on loopback, sent with the JDK HTTP client. */
class LoadStepRunnerTest extends LoopbackLoadTest {

    static void assertAccounting(LoadResult r, TestContext ctx) {
        LoadTotals t = r.totals();
        assertThat(t.sent()).isEqualTo(t.succeeded() + t.failed() + t.cancelled());
        assertThat(ctx.duplicates.get()).isZero();
        assertThat(ctx.finished).hasSize((int) t.sent());
        assertThat(ctx.finishedIds).hasSize((int) t.sent());
        assertThat(ctx.inFlight.get()).isZero();
        long perSecondSent = r.seconds().stream().mapToLong(LoadSecond::sent).sum();
        long perSecondEnded = r.seconds().stream().mapToLong(LoadSecond::ended).sum();
        assertThat(perSecondSent).isEqualTo(t.sent());
        assertThat(perSecondEnded).isEqualTo(t.sent());
    }

    @Test
    void openLoopConstantRateSendsOnScheduleAndWritesIntervalLogs() throws Exception {
        server.delayMillis = () -> 5;
        LoadSpec spec = LoadSpec.builder().rate(100.0).arrival(ArrivalProcess.CONSTANT)
                .duration(Duration.ofSeconds(2)).stream(false).build();
        LoadResult r = new LoadStepRunner().run(spec, "open", ctx);

        assertAccounting(r, ctx);
        assertThat(r.totals().sent()).isEqualTo(200);
        assertThat(r.totals().succeeded()).isEqualTo(200);
        assertThat(r.totals().achievedRateRps()).isCloseTo(100, within(0.5));
        assertThat(r.totals().targetRateRps()).isCloseTo(100, within(1e-6));
        assertThat(r.totals().stopReason()).isEqualTo("duration");
        // the whole 2 s duration is the measured window (not the 1.99 s to the last send): 200 sends are 100.0 req/s
        assertThat(r.totals().measuredSeconds()).isCloseTo(2.0, within(1e-6));
        assertThat(r.totals().achievedRateRps()).isCloseTo(100, within(1e-6));
        // intended starts exactly 10 ms apart from the step's start
        List<Long> intended = ctx.records().stream().map(RequestRecord::intendedStartNanos).sorted().toList();
        for (int i = 1; i < intended.size(); i++) {
            assertThat(intended.get(i) - intended.get(i - 1)).isCloseTo(10_000_000L, within(1L));
        }
        assertThat(r.seconds()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(r.seconds().get(0).sent()).isBetween(80L, 100L); // by actual dispatch; a cold JVM starts late
        assertThat(r.seconds().get(0).e2eP50Ms()).isGreaterThanOrEqualTo(5.0);
        assertThat(r.logFiles()).containsExactly("open.ttft.hlog", "open.e2e.hlog", "open.dispatch-lag.hlog");
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("open.e2e.hlog").toFile());
        long intendedCount = 0;
        long sendCount = 0;
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            org.HdrHistogram.Histogram hh = (org.HdrHistogram.Histogram) h;
            if ("intended".equals(hh.getTag())) {
                intendedCount += hh.getTotalCount();
            } else if ("send".equals(hh.getTag())) {
                sendCount += hh.getTotalCount();
            }
        }
        assertThat(intendedCount).isEqualTo(200);
        assertThat(sendCount).isEqualTo(200);
    }

    @Test
    void closedLoopKeepsConcurrencyAndStopsAtTheRequestCount() throws Exception {
        server.delayMillis = () -> 10;
        LoadSpec spec = LoadSpec.builder().concurrency(4).requests(60L).stream(false).build();
        LoadResult r = new LoadStepRunner().run(spec, "closed", ctx);
        assertAccounting(r, ctx);
        assertThat(r.totals().sent()).isEqualTo(60);
        assertThat(r.totals().stopReason()).isEqualTo("requests");
        assertThat(ctx.maxInFlight.get()).isEqualTo(4);
        // 60 requests of >= 10 ms on 4 workers take >= 150 ms
        assertThat(r.totals().elapsedSeconds()).isGreaterThanOrEqualTo(0.15);
        assertThat(r.totals().dispatchLag().p99Ms()).isLessThan(50.0);
    }

    @Test
    void closedLoopWorkersWaitTheirThinkTimeBetweenRequests() throws Exception {
        server.delayMillis = () -> 5;
        LoadSpec spec = LoadSpec.builder().concurrency(2).requests(12L).thinkTime(Duration.ofMillis(100))
                .stream(false).build();
        LoadResult r = new LoadStepRunner().run(spec, "think", ctx);
        assertAccounting(r, ctx);
        assertThat(r.totals().sent()).isEqualTo(12);
        assertThat(ctx.maxInFlight.get()).isLessThanOrEqualTo(2);
        // 12 requests on 2 workers: each worker sends 6 with 5 pauses of 100 ms between them
        assertThat(r.totals().elapsedSeconds()).isGreaterThanOrEqualTo(0.5);
        // the two workers start together; the third request comes from a worker whose first request had ended
        // and which then thought for 100 ms, so it starts at least 100 ms after the earlier of the first two ends
        List<RequestRecord> byStart = ctx.records().stream()
                .sorted(java.util.Comparator.comparingLong(RequestRecord::intendedStartNanos)).toList();
        long firstEnd = Math.min(byStart.get(0).endNanos(), byStart.get(1).endNanos());
        assertThat(byStart.get(2).intendedStartNanos() - firstEnd).isGreaterThanOrEqualTo(99_000_000L);
    }

    @Test
    void aDispatchStallShowsInIntendedLatencyAndLagButNotInSendLatency() throws Exception {
        server.delayMillis = () -> 2;
        AtomicBoolean stalled = new AtomicBoolean();
        long t0 = System.nanoTime();
        Executor stalling = task -> {
            if (System.nanoTime() - t0 > 1_000_000_000L && stalled.compareAndSet(false, true)) {
                try {
                    Thread.sleep(200); // the dispatching path stalls once
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Thread.ofVirtual().start(task);
        };
        LoadSpec spec = LoadSpec.builder().rate(200.0).arrival(ArrivalProcess.CONSTANT)
                .duration(Duration.ofSeconds(3)).stream(false).build();
        LoadResult r = new LoadStepRunner(stalling, FirstTokenHook.NONE).run(spec, "stall", ctx);
        assertAccounting(r, ctx);
        assertThat(stalled).isTrue();
        LoadTotals t = r.totals();
        assertThat(t.dispatchLag().maxMs()).isGreaterThan(180.0);
        assertThat(t.e2e().maxMs()).isGreaterThan(180.0);
        assertThat(t.ttft().maxMs()).isGreaterThan(180.0);
        assertThat(t.e2eSend().p99Ms()).isLessThan(100.0);
        long delayed = ctx.records().stream().filter(x -> x.dispatchLagNanos() > 100_000_000L).count();
        assertThat(delayed).as("requests scheduled during the stall").isGreaterThanOrEqualTo(15);
        // the schedule did not drift: every request kept its place
        assertThat(t.sent()).isEqualTo(600);
    }

    @Test
    void inFlightCapDropsOrQueuesAsConfigured() throws Exception {
        server.delayMillis = () -> 200;
        LoadSpec drop = LoadSpec.builder().rate(100.0).arrival(ArrivalProcess.CONSTANT)
                .duration(Duration.ofSeconds(1)).maxInFlight(5).atCap(CapPolicy.DROP).stream(false).build();
        LoadResult d = new LoadStepRunner().run(drop, "drop", ctx);
        assertAccounting(d, ctx);
        assertThat(ctx.maxInFlight.get()).isLessThanOrEqualTo(5);
        assertThat(d.totals().dropped()).isGreaterThan(50);
        assertThat(d.totals().sent() + d.totals().dropped()).isEqualTo(100);
        assertThat(d.totals().e2e().maxMs()).isLessThan(400.0);
        // the drops are said once, with their count and share, not only counted
        assertThat(ctx.notices).filteredOn(n -> n.contains("dropped at the maxInFlight cap")).containsExactly(
                String.format(java.util.Locale.ROOT, "load step 'drop': %,d of 100 arrivals (%.1f %%) were dropped at"
                        + " the maxInFlight cap (atCap: drop); the step's statistics count only the requests sent",
                        d.totals().dropped(), (double) d.totals().dropped()));

        TestContext q = new TestContext(ctx.endpoint(), dir.resolve("q"), server::send);
        LoadSpec queue = drop.toBuilder().atCap(CapPolicy.QUEUE).build();
        LoadResult r = new LoadStepRunner().run(queue, "queue", q);
        assertAccounting(r, q);
        assertThat(q.maxInFlight.get()).isLessThanOrEqualTo(5);
        assertThat(r.totals().sent() + r.totals().dropped()).isEqualTo(100);
        // queued requests wait: latency from the intended start grows far beyond the 200 ms the server takes
        assertThat(r.totals().e2e().maxMs()).isGreaterThan(600.0);
        assertThat(r.totals().e2eSend().p50Ms()).isLessThan(400.0);
        assertThat(r.totals().dispatchLag().maxMs()).isGreaterThan(400.0);
        // that wait is the cap's, recorded per request: the client's own part of the lag stays small
        List<RequestRecord> queued = q.records().stream().filter(x -> x.dispatchLagNanos() > 400_000_000L).toList();
        assertThat(queued).isNotEmpty().allSatisfy(x -> {
            assertThat(x.capWaitNanos()).isPositive();
            assertThat(x.clientDispatchLagNanos()).isLessThan(100_000_000L);
        });
        assertThat(d.totals().sent()).isPositive();
        assertThat(ctx.records()).allMatch(x -> x.capWaitNanos() == 0); // dropping at a cap never waits there
    }

    @Test
    void cancelStopsPromptlyAndEveryRequestEndsOnce() throws Exception {
        server.delayMillis = () -> 400;
        LoadSpec spec = LoadSpec.builder().rate(200.0).duration(Duration.ofSeconds(20)).stream(false).build();
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            ctx.cancelled = true;
        });
        long t0 = System.nanoTime();
        LoadResult r = new LoadStepRunner().run(spec, "cancel", ctx);
        canceller.join();
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(4.0);
        assertAccounting(r, ctx);
        assertThat(r.totals().stopReason()).isEqualTo("cancelled");
        assertThat(r.totals().cancelled()).isGreaterThan(10);
        assertThat(ctx.records().stream().filter(x -> x.outcome() == Outcome.CANCELLED).count())
                .isEqualTo(r.totals().cancelled());
    }

    @Test
    void warmupAndCooldownCarryTheirPhaseAndAreExcluded() throws Exception {
        server.delayMillis = () -> 1;
        LoadSpec spec = LoadSpec.builder().rate(100.0).arrival(ArrivalProcess.CONSTANT)
                .duration(Duration.ofSeconds(3)).warmup(Duration.ofSeconds(1)).cooldown(Duration.ofSeconds(1))
                .stream(false).build();
        LoadResult r = new LoadStepRunner().run(spec, "wc", ctx);
        assertAccounting(r, ctx);
        assertThat(ctx.records()).allMatch(x -> x.label().equals("wc"));
        assertThat(ctx.records().stream().filter(x -> x.phase() == Phase.WARMUP).count()).isEqualTo(100);
        assertThat(ctx.records().stream().filter(x -> x.phase() == Phase.COOLDOWN).count()).isEqualTo(100);
        assertThat(ctx.records().stream().filter(x -> x.phase() == Phase.MEASURED).count()).isEqualTo(100);
        assertThat(r.totals().excluded()).isEqualTo(200);
        assertThat(r.totals().e2e().count()).isEqualTo(100);
        assertThat(r.totals().measuredSeconds()).isCloseTo(1.0, within(1e-6));
        assertThat(r.totals().achievedRateRps()).isCloseTo(100, within(0.5));
        assertThat(r.seconds().get(0).phase()).isEqualTo("warmup");
        assertThat(r.seconds().get(1).phase()).isEqualTo("measure");
        assertThat(r.seconds().get(2).phase()).isEqualTo("cooldown");
    }

    @Test
    void firstTokenDeadlineInterruptsLateRequestsAndCountsMisses() throws Exception {
        AtomicLong n = new AtomicLong();
        server.delayMillis = () -> n.getAndIncrement() % 2 == 0 ? 5 : 600;
        LoadSpec spec = LoadSpec.builder().rate(20.0).arrival(ArrivalProcess.CONSTANT)
                .duration(Duration.ofSeconds(2)).firstTokenDeadline(Duration.ofMillis(150)).stream(false).build();
        LoadResult r = new LoadStepRunner().run(spec, "deadline", ctx);
        assertAccounting(r, ctx);
        LoadTotals t = r.totals();
        assertThat(t.deadlineMisses()).isBetween(15L, 25L);
        assertThat(t.failedByKind()).containsEntry("timeout", t.deadlineMisses());
        for (RequestRecord x : ctx.records()) {
            if (x.outcome() == Outcome.ERROR) {
                assertThat(x.errorKind()).isEqualTo(ErrorKind.TIMEOUT);
                // ended at the deadline, long before the server's 600 ms
                assertThat(x.endNanos() - x.intendedStartNanos()).isLessThan(450_000_000L);
            }
        }
    }

    @Test
    void autoStopOnErrorRate() throws Exception {
        server.status = 500;
        LoadSpec spec = LoadSpec.builder().rate(50.0).duration(Duration.ofSeconds(20)).stream(false)
                .autoStop(new LoadSpec.AutoStop(0.5, Duration.ofSeconds(1), false, null, null, 10)).build();
        long t0 = System.nanoTime();
        LoadResult r = new LoadStepRunner().run(spec, "auto", ctx);
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0);
        assertAccounting(r, ctx);
        assertThat(r.totals().stopReason()).startsWith("auto-stop: error rate");
        assertThat(r.totals().serverErrors()).isEqualTo(r.totals().failed());
        assertThat(r.totals().errorRate()).isEqualTo(1.0);
    }
}
