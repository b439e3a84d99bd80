package org.latencylab.engine.step;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one closed loop's scheduling: warming per worker before a common start, the start gate, think time, stop and
 * cancel. Turns here do no I/O: what is tested is when and on which thread the loop calls them (requests over real
 * HTTP are covered by the probe, sweep and load tests that use this loop).
 */
class ClosedLoopTest {

    /** Records warmings (thread and time) and lets a test cancel; sends nothing. */
    static class Ctx implements StepContext {
        final Map<Thread, Long> warmedAt = new ConcurrentHashMap<>();
        volatile boolean cancelled;

        @Override
        public Endpoint endpoint() {
            return Endpoint.of("none", Protocol.OPENAI_CHAT, "http://127.0.0.1:9", "m");
        }

        @Override
        public ClientOptions clientOptions() {
            return ClientOptions.DEFAULTS;
        }

        @Override
        public RequestRecord send(GenerationRequest request, RequestTicket ticket) {
            throw new AssertionError("not used");
        }

        @Override
        public void warmConnection(boolean stream, int connections) {
            warmedAt.put(Thread.currentThread(), System.nanoTime());
            try {
                Thread.sleep(30); // one small request's latency
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public String prompt(int tokens, boolean cold) {
            return "x";
        }

        @Override
        public long nextRequestId() {
            return 0;
        }

        @Override
        public void finished(RequestRecord record) {
        }

        @Override
        public void inFlight(int inFlightDelta) {
        }

        @Override
        public void targetRate(double targetRateRps) {
        }

        @Override
        public boolean cancelled() {
            return cancelled;
        }

        @Override
        public void notice(String message) {
        }

        @Override
        public Path runDirectory() {
            return Path.of(".");
        }
    }

    record Turn(int worker, Thread thread, long readyNanos) {
    }

    /** @return a record of a request sent and ended now, with the ticket's identity */
    static RequestRecord sentNow(RequestTicket ticket) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = ticket.id();
        b.label = ticket.label();
        b.intendedStartNanos = ticket.intendedStartNanos();
        b.sendNanos = System.nanoTime();
        b.endNanos = System.nanoTime();
        return b.build();
    }

    @Test
    void everyWorkerWarmsOnItsOwnThreadThenAllStartTogetherAfterTheGate() throws Exception {
        Ctx ctx = new Ctx();
        ConcurrentLinkedQueue<Turn> turns = new ConcurrentLinkedQueue<>();
        long gate = System.nanoTime() + 150_000_000L;
        ClosedLoop.start(new ClosedLoop.Options(4, "t", true, true, gate, Duration.ZERO, null),
                (w, ready) -> {
                    turns.add(new Turn(w, Thread.currentThread(), ready));
                    return false;
                }, () -> false, ctx).join();
        assertThat(turns).hasSize(4);
        assertThat(turns).extracting(Turn::worker).containsExactlyInAnyOrder(0, 1, 2, 3);
        long lastWarm = ctx.warmedAt.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        for (Turn t : turns) {
            assertThat(ctx.warmedAt).as("worker %d warmed on the thread that sends", t.worker()).containsKey(t.thread());
            assertThat(t.readyNanos()).as("no turn before every worker warmed").isGreaterThan(lastWarm);
            assertThat(t.readyNanos()).as("no turn before the gate").isGreaterThanOrEqualTo(gate);
        }
    }

    @Test
    void aWorkerThatEndedKeepsItsThreadUntilTheLastWorkerEndedAndJoinReturnsOnceAllThreadsAreGone() throws Exception {
        Ctx ctx = new Ctx();
        Map<Integer, Thread> threads = new ConcurrentHashMap<>();
        java.util.concurrent.CountDownLatch othersEnded = new java.util.concurrent.CountDownLatch(3);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        ClosedLoop.Handle h = ClosedLoop.start(new ClosedLoop.Options(4, "t", false, true, Long.MIN_VALUE,
                        Duration.ZERO, null),
                (w, ready) -> {
                    threads.put(w, Thread.currentThread());
                    if (w == 3) {
                        release.await(); // the last stream, still being read
                    } else {
                        othersEnded.countDown();
                    }
                    return false;
                }, () -> false, ctx);
        assertThat(othersEnded.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100); // time enough for an ended worker's thread to exit, were it not held
        for (int w = 0; w < 3; w++) {
            assertThat(threads.get(w).isAlive()).as("worker %d's thread while worker 3 still runs", w).isTrue();
        }
        release.countDown();
        h.join();
        assertThat(threads).hasSize(4);
        for (Thread t : threads.values()) {
            assertThat(t.isAlive()).as("%s after join", t.getName()).isFalse();
        }
    }

    @Test
    void aWorkerThinksBetweenTurnsAndTheStopConditionEndsTheLoop() throws Exception {
        Ctx ctx = new Ctx();
        ConcurrentLinkedQueue<Turn> turns = new ConcurrentLinkedQueue<>();
        AtomicInteger taken = new AtomicInteger();
        ClosedLoop.start(new ClosedLoop.Options(1, "t", false, true, Long.MIN_VALUE, Duration.ofMillis(80), null),
                (w, ready) -> {
                    turns.add(new Turn(w, Thread.currentThread(), ready));
                    taken.incrementAndGet();
                    return true;
                }, () -> taken.get() >= 4, ctx).join();
        assertThat(ctx.warmedAt).as("no warming unless asked").isEmpty();
        List<Long> ready = turns.stream().map(Turn::readyNanos).toList();
        assertThat(ready).hasSize(4);
        for (int i = 1; i < ready.size(); i++) {
            assertThat(ready.get(i) - ready.get(i - 1)).as("gap before turn %d", i).isGreaterThanOrEqualTo(80_000_000L);
        }
    }

    @Test
    void cancellingTheRunInterruptsTurnsInProgressAndJoinReturns() throws Exception {
        Ctx ctx = new Ctx();
        AtomicInteger interrupted = new AtomicInteger();
        ClosedLoop.Handle h = ClosedLoop.start(new ClosedLoop.Options(3, "t", false, true, Long.MIN_VALUE,
                Duration.ZERO, null), (w, ready) -> {
                    try {
                        Thread.sleep(60_000); // a request that would never end
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        throw e;
                    }
                    return true;
                }, () -> false, ctx);
        Thread.sleep(100);
        long t0 = System.nanoTime();
        ctx.cancelled = true;
        h.join();
        assertThat(interrupted.get()).isEqualTo(3);
        assertThat(System.nanoTime() - t0).as("join after cancel, ns").isLessThan(10_000_000_000L);
    }

    @Test
    void requestsSendsEachRequestOnceAndRecordsOnlyWhenAsked() throws Exception {
        AtomicInteger finished = new AtomicInteger();
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger shownWhileWarming = new AtomicInteger();
        AtomicInteger shownWhileMeasuring = new AtomicInteger();
        Ctx ctx = new Ctx() {
            @Override
            public RequestRecord send(GenerationRequest request, RequestTicket ticket) {
                sent.incrementAndGet();
                (ticket.label().equals("w") ? shownWhileWarming : shownWhileMeasuring)
                        .accumulateAndGet(inFlight.get(), Math::max);
                return sentNow(ticket);
            }

            @Override
            public void finished(RequestRecord record) {
                finished.incrementAndGet();
            }

            @Override
            public void inFlight(int delta) {
                inFlight.addAndGet(delta);
            }
        };
        List<RequestRecord> warm = ClosedLoop.requests(5, 2, "w", 8,
                i -> new GenerationRequest("x", 8, 1, true, Map.of()), false, ctx);
        List<RequestRecord> measured = ClosedLoop.requests(9, 4, "m", 8,
                i -> new GenerationRequest("x", 8, 1, true, Map.of()), true, ctx);
        assertThat(shownWhileWarming.get()).as("unrecorded requests are not shown in flight").isZero();
        assertThat(shownWhileMeasuring.get()).as("a measured request is in flight while it is sent").isBetween(1, 4);
        assertThat(inFlight.get()).isZero();
        assertThat(warm).hasSize(5);
        assertThat(measured).hasSize(9).allMatch(r -> r.label().equals("m"));
        assertThat(sent.get()).isEqualTo(14);
        assertThat(finished.get()).as("only the measured requests are recorded").isEqualTo(9);
        assertThat(ctx.warmedAt).as("one warming per worker of each loop").hasSize(6);
    }

    @Test
    void aMeasuredLoopCallsBeforeClockOnceAfterEveryWorkerWarmedAndBeforeAnySendAndAWarmUpLoopNever()
            throws Exception {
        java.util.concurrent.ConcurrentLinkedQueue<Long> clocks = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.ConcurrentLinkedQueue<Long> sends = new java.util.concurrent.ConcurrentLinkedQueue<>();
        Ctx ctx = new Ctx() {
            @Override
            public RequestRecord send(GenerationRequest request, RequestTicket ticket) {
                sends.add(System.nanoTime());
                return sentNow(ticket);
            }

            @Override
            public void beforeClock() {
                clocks.add(System.nanoTime());
                try {
                    Thread.sleep(50); // a collection's duration: nobody may send meanwhile
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                clocks.add(System.nanoTime());
            }
        };
        ClosedLoop.requests(6, 3, "w", 8, i -> new GenerationRequest("x", 8, 1, true, Map.of()), false, ctx);
        assertThat(clocks).as("a warm-up loop starts no clock").isEmpty();
        sends.clear();
        ctx.warmedAt.clear();
        ClosedLoop.requests(8, 4, "m", 8, i -> new GenerationRequest("x", 8, 1, true, Map.of()), true, ctx);
        assertThat(clocks).as("called once (its start and end)").hasSize(2);
        long begin = clocks.peek();
        long end = clocks.stream().mapToLong(Long::longValue).max().orElseThrow();
        long lastWarm = ctx.warmedAt.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(ctx.warmedAt).hasSize(4);
        assertThat(begin).as("after every worker warmed its connection").isGreaterThan(lastWarm);
        assertThat(sends).hasSize(8).allMatch(t -> t > end);
    }

    @Test
    void workersWaitingAtTheClockEndWithoutATurnWhenTheLoopIsHaltedDuringBeforeClock() throws Exception {
        AtomicInteger turns = new AtomicInteger();
        java.util.concurrent.CountDownLatch inBeforeClock = new java.util.concurrent.CountDownLatch(1);
        Ctx ctx = new Ctx() {
            @Override
            public void beforeClock() {
                inBeforeClock.countDown();
                try {
                    Thread.sleep(60_000); // a collection that never ends: only the halt frees the others
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        ClosedLoop.Handle h = ClosedLoop.start(new ClosedLoop.Options(8, "g", false, true, Long.MIN_VALUE,
                Duration.ZERO, null), (w, ready) -> {
                    turns.incrementAndGet();
                    return false;
                }, () -> false, ctx, true);
        assertThat(inBeforeClock.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Thread.sleep(100); // the other 7 workers are parked at the clock by now
        long t0 = System.nanoTime();
        h.halt();
        assertThat(h.awaitEnd(Duration.ofSeconds(10))).as("every worker ended after the halt").isTrue();
        assertThat(System.nanoTime() - t0).as("halt to end, ns").isLessThan(10_000_000_000L);
        assertThat(turns.get()).as("no worker took a turn: the clock never opened").isZero();
    }

    @Test
    void theClockWakesEveryWaitingWorkerAndEachTakesItsTurnAfterBeforeClockEnded() throws Exception {
        int workers = 64;
        java.util.concurrent.ConcurrentLinkedQueue<Long> starts = new java.util.concurrent.ConcurrentLinkedQueue<>();
        long[] clockEnd = new long[1];
        Ctx ctx = new Ctx() {
            @Override
            public void beforeClock() {
                try {
                    Thread.sleep(100); // every other worker parks at the clock meanwhile
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                clockEnd[0] = System.nanoTime();
            }
        };
        ClosedLoop.start(new ClosedLoop.Options(workers, "g", false, true, Long.MIN_VALUE, Duration.ZERO, null),
                (w, ready) -> {
                    starts.add(ready);
                    return false;
                }, () -> false, ctx, true).join();
        assertThat(starts).as("one turn per worker").hasSize(workers);
        assertThat(starts).as("no turn before the clock opened").allMatch(t -> t >= clockEnd[0]);
    }
}
