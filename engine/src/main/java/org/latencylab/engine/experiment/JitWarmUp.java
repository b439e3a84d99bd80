package org.latencylab.engine.experiment;

import org.latencylab.engine.tuning.TuningProperties;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.client.RequestThreads;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.results.RequestJson;
import org.latencylab.engine.results.RunModel;
import org.latencylab.engine.run.RunSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Warms the client's own code paths before a run's clock starts: streams small requests through the real client and
 * parsers, over loopback, to an in-process simulator with the {@code zero-latency} profile, until the just-in-time
 * compiler has compiled the request path.
 *
 * <p>Why: the JDK AOT cache shipped with the launcher removes class loading and linking from the first requests, but
 * not interpretation: a method runs interpreted until it was called a few hundred times (the measuring JVM compiles
 * with C1 only; a tiered JVM reaches the optimising compiler only after thousands of calls). A closed loop's one warm-up request per worker is far too few; on two cores
 * the first measured wave of a 1,024-way probe then spent about a millisecond of CPU per send, spreading the sends
 * over most of a second and delaying the server's reads of them. The requests here are not recorded anywhere.
 *
 * <p>Not thread-safe; call from the run's thread before its first step.
 */
final class JitWarmUp {
    /**
     * Requests sent: enough for C1's compile thresholds (a few hundred calls; the measuring JVM runs C1 only) on the
     * per-request paths, and many times that on the per-event ones. Sized for C1: a count sized for a tiered JVM's
     * optimising compiler would cost noticeably more CPU per run.
     */
    static final int REQUESTS = 600;
    /** Wall-clock limit, ms: on a slow or busy machine the warm-up stops here, whatever was reached. */
    static final long LIMIT_MILLIS = 1_500;
    /** Requests in flight at once. */
    static final int CONCURRENCY = 4;

    /**
     * Times each warm-up record goes through the recording path ({@link #recordingPath}). One pass of 600 records was
     * not enough: while the warm-up has filled the compiler's queue, C1 raises its thresholds with the queue's length
     * ({@code -XX:Tier3LoadFeedback}), and {@code RunModel.add} and {@code StatsAccumulator.add} were still compiled
     * during a 1,024-way probe's first wave end (-XX:+PrintCompilation), on the results thread, as the server read the
     * second wave's requests. A pass costs a few milliseconds.
     */
    static final int RECORDING_PASSES = 4;

    /** System property that turns the warm-up off ({@code false}); the test suites do, except the warm-up's own. */
    static final String PROPERTY = TuningProperties.JIT_WARM_UP;

    private JitWarmUp() {
    }

    /** @return whether runs warm up (the {@value #PROPERTY} system property is not {@code false}) */
    static boolean enabled() {
        return TuningProperties.jitWarmUp();
    }

    /**
     * Runs the warm-up through the HTTP path the endpoint's requests will take: the client's own plain-HTTP path, or,
     * for an endpoint served by OkHttp (TLS, HTTP/2, a proxy), a client of the same options that sends everything
     * through OkHttp (compiled code is shared by all instances). Failures are ignored.
     *
     * @param client   the client the run will measure with; not null
     * @param endpoint the endpoint the run will measure; not null
     * @return the records of the requests that succeeded, in no particular order (for {@link #recordingPath})
     */
    static List<RequestRecord> forEndpoint(LlmClient client, Endpoint endpoint) {
        if (client.measuresDirectly(endpoint) || endpoint.protocol() == Protocol.KSERVE_GRPC) {
            return run(client, endpoint.protocol());
        }
        try (LlmClient library = new LlmClient(client.options(), name -> null,
                org.latencylab.engine.client.HttpVersion.AUTO, false)) {
            return run(library, endpoint.protocol());
        }
    }

    /**
     * Runs the warm-up; failures are ignored (a failed warm-up only leaves the first requests slower).
     *
     * @param client   the client the run will measure with; not null
     * @param protocol the protocol the run will speak (gRPC warms with OpenAI chat: the shared parts)
     * @return the records of the requests that succeeded, in no particular order
     */
    static List<RequestRecord> run(LlmClient client, Protocol protocol) {
        Protocol p = simulated(protocol);
        SimServer sim;
        try {
            sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.builder().build());
        } catch (RuntimeException e) {
            return List.of();
        }
        try (sim) {
            Endpoint endpoint = sim.endpoint(p);
            GenerationRequest request = new GenerationRequest("Warm up the client", 4, 8, true, Map.of());
            long deadline = System.nanoTime() + LIMIT_MILLIS * 1_000_000L;
            AtomicInteger next = new AtomicInteger();
            List<RequestRecord> done = Collections.synchronizedList(new ArrayList<>(REQUESTS));
            // close() waits for every worker (and stops them if this thread is interrupted meanwhile)
            try (ExecutorService workers = Executors.newThreadPerTaskExecutor(
                    RequestThreads.workerFactory("latencylab-jit-warm-up-"))) {
                for (int w = 0; w < CONCURRENCY; w++) {
                    workers.execute(() -> {
                        while (next.getAndIncrement() < REQUESTS && System.nanoTime() < deadline
                                && !Thread.currentThread().isInterrupted()) {
                            RequestRecord r = client.execute(endpoint, request,
                                    new RequestTicket(0, "warm-up", 4, System.nanoTime()));
                            if (r.succeeded()) {
                                done.add(r);
                            }
                        }
                    });
                }
            }
            synchronized (done) {
                return new ArrayList<>(done);
            }
        }
    }

    /**
     * Warms what happens to a measured request after it ended: each record goes through a scratch {@link RunModel}
     * (the run's statistics: columns, live histograms, per-second series, SLO tallies) and is written as a
     * {@code requests.jsonl} line to a stream that discards it. Without this, those paths ran interpreted until the
     * first measured wave ended, and were compiled at that moment: on two cores, compiler and interpreter took CPU
     * while the server read the next wave's requests. Nothing is kept; failures are ignored.
     *
     * @param records     warm-up records ({@link #forEndpoint}); not null
     * @param spec        the run (the scratch model judges with its settings); not null
     * @param originNanos the run's time origin
     * @return record passes that went through both without an exception (records × {@value #RECORDING_PASSES} when none failed)
     */
    static int recordingPath(List<RequestRecord> records, RunSpec spec, long originNanos) {
        int done = 0;
        if (records.isEmpty() || spec.experiments().isEmpty()) {
            return done;
        }
        loadSubclassesOfTheRun();
        try (JsonGenerator json = new JsonFactory().createGenerator(OutputStream.nullOutputStream())) {
            RunModel scratch = new RunModel(spec, originNanos, true);
            scratch.startStep("warm-up", spec.experiments().get(0));
            for (int pass = 0; pass < RECORDING_PASSES; pass++) {
                for (RequestRecord r : records) {
                    RequestJson.write(json, r, originNanos);
                    json.writeRaw('\n');
                    scratch.add(r);
                    done++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // a warm-up only: the first measured requests are then recorded by code not compiled yet
        }
        return done;
    }

    /**
     * Loads the subclasses the run loads only after the warm-up and that would invalidate code compiled during it: the
     * hiccup meter's {@code SingleWriterRecorder} makes its own subclass of {@code Histogram}, and when it was loaded
     * (as the trust monitor started, after the warm-up) C1's code for {@code StatsAccumulator.addValues}, compiled on
     * the assumption that {@code Histogram} had no subclass, was thrown away ({@code -Xlog:dependencies}: "Marked for
     * deoptimization, dependee = SingleWriterRecorder$InternalHistogram") and compiled again during the measurement.
     */
    private static void loadSubclassesOfTheRun() {
        new org.HdrHistogram.SingleWriterRecorder(1_000, 2).getIntervalHistogram();
    }

    /**
     * @param protocol the protocol a run speaks
     * @return it when the simulator serves it, else OpenAI chat (gRPC shares the parsing and recording parts)
     */
    private static Protocol simulated(Protocol protocol) {
        return switch (protocol) {
            case OPENAI_CHAT, OPENAI_COMPLETIONS, ANTHROPIC_MESSAGES, OLLAMA_CHAT, OLLAMA_GENERATE, TGI_GENERATE -> protocol;
            default -> Protocol.OPENAI_CHAT;
        };
    }

    /** Wall-clock limit of {@link #schedulingPaths}, ms: the runners' warm-ups are interrupted when it passes. */
    static final long SCHEDULING_LIMIT_MILLIS = 2_000;

    /**
     * Lets each step runner of the run warm its own scheduling code ({@link StepRunner#warmUp}) against an in-process
     * simulator with the {@code zero-latency} profile, through the measuring client, before the run's clock starts.
     * Runs at most {@value #SCHEDULING_LIMIT_MILLIS} ms in all; then closes the connections it opened. Failures are
     * ignored (a runner that was not warmed only runs its first second slower).
     *
     * @param client   the run's client; not null
     * @param protocol the protocol the run will speak (a protocol the simulator does not serve warms with OpenAI chat)
     * @param runners  the run's step runners, each warmed once; not null
     * @return how many requests the warm-ups sent
     */
    static long schedulingPaths(LlmClient client, Protocol protocol, java.util.Collection<StepRunner<?>> runners) {
        if (runners.isEmpty()) {
            return 0;
        }
        Protocol p = simulated(protocol);
        java.nio.file.Path dir = null;
        SimServer sim = null;
        Scratch scratch = null;
        Thread caller = Thread.currentThread();
        java.util.concurrent.ScheduledExecutorService limit = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("latencylab-warm-up-limit").factory());
        try {
            dir = java.nio.file.Files.createTempDirectory("latencylab-warm-up-");
            sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.builder().build());
            scratch = new Scratch(client, sim.endpoint(p), dir);
            limit.schedule(caller::interrupt, SCHEDULING_LIMIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
            for (StepRunner<?> r : runners) {
                r.warmUp(scratch);
            }
        } catch (InterruptedException e) {
            // the limit passed: what was reached is warm
        } catch (IOException | RuntimeException e) {
            // a warm-up only
        } finally {
            limit.shutdownNow();
            Thread.interrupted(); // the limit's interrupt may land after the last runner returned
            if (sim != null) {
                sim.close();
            }
            client.evictConnections(); // the simulator's connections, idle in the pool
            if (dir != null) {
                deleteQuietly(dir);
            }
        }
        return scratch == null ? 0 : scratch.ids.get();
    }

    private static void deleteQuietly(java.nio.file.Path dir) {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> {
                try {
                    java.nio.file.Files.deleteIfExists(f);
                } catch (IOException e) {
                    // left in the temporary directory
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            // left in the temporary directory
        }
    }

    /** The warm-up's step context: sends through the run's client to the simulator; records go nowhere. */
    private static final class Scratch implements StepContext {
        private final LlmClient client;
        private final Endpoint endpoint;
        private final java.nio.file.Path dir;
        final java.util.concurrent.atomic.AtomicLong ids = new java.util.concurrent.atomic.AtomicLong();

        Scratch(LlmClient client, Endpoint endpoint, java.nio.file.Path dir) {
            this.client = client;
            this.endpoint = endpoint;
            this.dir = dir;
        }

        @Override
        public Endpoint endpoint() {
            return endpoint;
        }

        @Override
        public org.latencylab.engine.api.ClientOptions clientOptions() {
            return client.options();
        }

        @Override
        public RequestRecord send(GenerationRequest request, RequestTicket ticket) {
            return client.execute(endpoint, request, ticket);
        }

        @Override
        public RequestRecord send(GenerationRequest request, RequestTicket ticket, Runnable onFirstToken) {
            return client.execute(endpoint, request, ticket, onFirstToken);
        }

        @Override
        public void openConnections(int inFlight, boolean stream) throws InterruptedException {
            client.openConnections(endpoint, inFlight, stream);
        }

        @Override
        public void warmConnection(boolean stream, int connections) {
            client.warmConnection(endpoint, stream, connections);
        }

        @Override
        public String prompt(int tokens, boolean cold) {
            return "Warm up the client";
        }

        @Override
        public long nextRequestId() {
            return ids.getAndIncrement();
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
            return Thread.currentThread().isInterrupted();
        }

        @Override
        public void notice(String message) {
        }

        @Override
        public java.nio.file.Path runDirectory() {
            return dir;
        }
    }
}
