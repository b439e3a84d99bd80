package org.latencylab.engine.client;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which threads parse behind the reader threads ({@link RequestThreads#PARSING_PRIORITY}): a closed-loop worker whose
 * response a reader thread reads and stamps, and no other thread. The Java priority is what is checked; a measuring
 * JVM maps it to a nice value (the app's {@code MeasuringJvm.PRIORITIES}).
 */
class RequestThreadPriorityTest {
    private static final GenerationRequest REQUEST =
            new GenerationRequest("Say something short.", 8, 4, true, Map.of());

    /** Runs one request on a new request thread and returns that thread's priority after it. */
    private static int priorityAfterOneRequest(LlmClient client, SimServer sim, int before) throws Exception {
        AtomicInteger after = new AtomicInteger(-1);
        AtomicReference<RequestRecord> record = new AtomicReference<>();
        Thread t = RequestThreads.startWorker("priority-test", () -> {
            Thread.currentThread().setPriority(before);
            record.set(client.execute(sim.endpoint(Protocol.OPENAI_CHAT), REQUEST,
                    new RequestTicket(1, "it", 8, System.nanoTime())));
            after.set(Thread.currentThread().getPriority());
        });
        t.join(20_000);
        assertThat(record.get()).isNotNull();
        assertThat(record.get().outcome()).as(record.get().errorMessage()).isEqualTo(Outcome.SUCCESS);
        return after.get();
    }

    @Test
    void aRequestThreadWhoseResponseAReaderThreadStampsParsesAtTheLowPriorityAndOneThatReadsItsOwnSocketDoesNot()
            throws Exception {
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient readAhead = new LlmClient(ClientOptions.DEFAULTS, System::getenv, HttpVersion.AUTO, true);
             LlmClient okhttp = new LlmClient(ClientOptions.DEFAULTS, System::getenv, HttpVersion.AUTO, false)) {
            assertThat(priorityAfterOneRequest(readAhead, sim, Thread.NORM_PRIORITY))
                    .isEqualTo(RequestThreads.PARSING_PRIORITY);
            // the reader threads, started by a request thread at the low priority, stamp at the normal one
            assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().equals("latencylab-reader"))
                    .isNotEmpty().allMatch(t -> t.getPriority() == Thread.NORM_PRIORITY);
            // OkHttp's path: the thread's own socket read is the stamp, so it runs at the normal priority again
            assertThat(priorityAfterOneRequest(okhttp, sim, RequestThreads.PARSING_PRIORITY))
                    .isEqualTo(Thread.NORM_PRIORITY);
        }
    }

    @Test
    void aWorkerParsingBehindTheReaderThreadsNoLongerCountsForTheTrustChecksRunQueueWait() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(org.latencylab.engine.trust.SchedulerWaits.available());
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS, System::getenv, HttpVersion.AUTO, true)) {
            client.execute(sim.endpoint(Protocol.OPENAI_CHAT), REQUEST, new RequestTicket(0, "it", 8, System.nanoTime()));
            var before = org.latencylab.engine.trust.SchedulerWaits.snapshot();
            Thread t = RequestThreads.startWorker("priority-test", () -> {
                client.execute(sim.endpoint(Protocol.OPENAI_CHAT), REQUEST,
                        new RequestTicket(1, "it", 8, System.nanoTime()));
                for (int i = 0; i < 300; i++) { // 300 wake-ups of a thread that stamps nothing
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                }
            });
            t.join(20_000);
            long slices = org.latencylab.engine.trust.SchedulerWaits.snapshot().slicesSince(before);
            assertThat(slices).as("time slices counted: the request's, not the 300 after it").isLessThan(150);
        }
    }

    @Test
    void anOpenLoopsPooledThreadKeepsTheNormalPriority() throws Exception {
        // an open loop keeps sending on schedule whatever its threads manage: they must not fall behind the server
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS, System::getenv, HttpVersion.AUTO, true)) {
            AtomicInteger after = new AtomicInteger(-1);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            RequestThreads.startPooled(() -> {
                RequestRecord r = client.execute(sim.endpoint(Protocol.OPENAI_CHAT), REQUEST,
                        new RequestTicket(1, "it", 8, System.nanoTime()));
                assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
                after.set(Thread.currentThread().getPriority());
                done.countDown();
            });
            assertThat(done.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(after.get()).isEqualTo(Thread.NORM_PRIORITY);
        }
    }

    @Test
    void aThreadTheRequestThreadsDidNotStartKeepsItsPriority() throws Exception {
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS, System::getenv, HttpVersion.AUTO, true)) {
            AtomicInteger after = new AtomicInteger(-1);
            Thread t = Thread.ofPlatform().start(() -> {
                Thread.currentThread().setPriority(7);
                RequestRecord r = client.execute(sim.endpoint(Protocol.OPENAI_CHAT), REQUEST,
                        new RequestTicket(1, "it", 8, System.nanoTime()));
                assertThat(r.outcome()).isEqualTo(Outcome.SUCCESS);
                after.set(Thread.currentThread().getPriority());
            });
            t.join(20_000);
            assertThat(after.get()).isEqualTo(7);
        }
    }
}
