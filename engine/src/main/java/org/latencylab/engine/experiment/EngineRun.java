package org.latencylab.engine.experiment;

import org.latencylab.engine.step.StepProgressListener;
import org.latencylab.engine.step.StepProgress;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.client.RequestThreads;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.results.RunLayout;
import org.latencylab.engine.results.RunModel;
import org.latencylab.engine.trust.TrustMonitor;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One run of {@link RunEngine}: its state, its steps in order, the results sink, the snapshots and the files it
 * writes. Made and executed on the run's own thread; the {@link StepContext} methods are called by the step runners
 * and their request threads, and are safe for that.
 */
final class EngineRun implements StepContext {
    private static final System.Logger LOG = System.getLogger(RunEngine.class.getName());
    private final Map<Class<?>, StepRunner<?>> runners;
    private final RunSpec spec;
    private final Path dir;
    private final RunListener listener;
    private final RunHandle handle;
    private final ClockOrigin origin = ClockOrigin.now();
    private final long originNanos = origin.nanoTime();
    /** Started when the first step is about to start: start-up and JIT warm-up are not the run's. */
    private volatile TrustMonitor trust;
    private final LongAdder measuredCount = new LongAdder();
    private final LongAdder lagged = new LongAdder();
    /** Measured requests that waited at their load step's caps ({@link RequestRecord#capWaitNanos} > 0). */
    private final LongAdder capWaited = new LongAdder();
    /**
     * The client's own dispatch lag of measured requests ({@link RequestRecord#clientDispatchLagNanos}), ns, since
     * the last interval taken: the trust check's lag where requests waited at a step's caps (there the dispatch
     * lag is mostly the configured queue, not the client). Wait-free for the request threads.
     */
    private final org.HdrHistogram.Recorder clientLag = new org.HdrHistogram.Recorder(3);
    /** Every interval of {@link #clientLag} taken so far; used by the run's thread only. */
    private final org.HdrHistogram.Histogram clientLagRun = new org.HdrHistogram.Histogram(3);
    private final Instant startedAt = Instant.now();
    private final AtomicLong ids = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder sent = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    /** Whether a failed connection-opening request was already reported (once per run is enough). */
    private final java.util.concurrent.atomic.AtomicBoolean warmFailureNoticed =
            new java.util.concurrent.atomic.AtomicBoolean();
    private final LongAdder cancelledCount = new LongAdder();
    private final Map<ErrorKind, LongAdder> errors = new EnumMap<>(ErrorKind.class);
    private final RunModel model;
    /**
     * Ended requests on their way to the log and the model. Request threads only add their record (and wake
     * nobody); the sink thread ({@link #sinkLoop}), every {@link RunEngine#SINK_PERIOD_NANOS} ns, applies the
     * records to the log and the model in queue order (so both see the same order), under a lock that the run's
     * thread also takes to drain what is left when a step ends. With a plain lock around the log and the model, request
     * threads at high rates queue behind it (JFR {@code jdk.JavaMonitorEnter}). When each request thread drains the
     * queue itself, the work still runs on the request threads at the moment they end: in a wide closed loop that is
     * the moment many streams end together and the server must read as many new requests, so the work delays the
     * server's start of the next wave. One sink thread gets one thread's share of the CPU in such a burst and catches
     * up in the quiet that follows.
     */
    private final ConcurrentLinkedQueue<RequestRecord> toSink = new ConcurrentLinkedQueue<>();
    /** Applies {@link #toSink} to the log and the model; started with the run, stopped at its end. */
    private volatile Thread sinkThread;
    private volatile boolean sinkStop;
    private final java.util.concurrent.locks.ReentrantLock sinkLock = new java.util.concurrent.locks.ReentrantLock();
    private final ConcurrentLinkedQueue<RequestRecord> fresh = new ConcurrentLinkedQueue<>();
    private final List<String> notices = Collections.synchronizedList(new ArrayList<>());
    private volatile String step = "";
    private volatile double targetRate;
    /** Time from the run's start to its first step, ns ({@link IntervalSnapshot#setupNanos()}); 0 until then. */
    private volatile long setupNanos;
    private long lastSnapshotNanos = originNanos;
    private long lastSent;
    private Endpoint endpoint;
    private volatile SimulatorTarget sim;
    private LlmClient client;
    /** Which code measures the run endpoint's requests; set once the client is made (view() reads it). */
    private volatile org.latencylab.engine.api.HttpPath httpPath;
    private RequestLog log;
    private Prompts prompts;

    EngineRun(RunSpec spec, Path dir, RunListener listener, RunHandle handle, Map<Class<?>, StepRunner<?>> runners) {
        this.runners = runners;
        this.spec = spec;
        this.dir = dir;
        this.listener = listener;
        this.handle = handle;
        this.model = new RunModel(spec, originNanos, true);
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, new LongAdder());
        }
    }

    /**
     * @param runEndpoint description of the run's endpoint
     * @return the endpoints the run's steps measured: the run's endpoint when a step used it, then the endpoints
     *         steps brought themselves (a ranking's, a server bench's variants), each once
     */
    private String usedEndpoints(String runEndpoint) {
        java.util.LinkedHashSet<String> own = new java.util.LinkedHashSet<>();
        boolean runsOwn = false;
        for (ExperimentSpec e : spec.experiments()) {
            if (e.ownEndpoints().isEmpty()) {
                runsOwn = true;
            } else {
                own.addAll(e.ownEndpoints());
            }
        }
        String others = String.join(", ", own);
        return !runsOwn ? "endpoints " + others : own.isEmpty() ? runEndpoint : runEndpoint + "; endpoints " + others;
    }

    RunResult execute() {
        List<RunResult.StepOutcome> outcomes = new ArrayList<>();
        String failure = null;
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread th = new Thread(r, "latencylab-snapshots");
            th.setDaemon(true);
            return th;
        });
        String endpointDescription = spec.target().describe();
        try {
            log = new RequestLog(dir.resolve(RunLayout.REQUESTS_JSONL), originNanos);
            sinkThread = Thread.ofPlatform().daemon().name("latencylab-results-sink")
                    .priority(Thread.NORM_PRIORITY) // whoever starts the run (see RequestThreads.PARSING_PRIORITY)
                    .start(this::sinkLoop);
            RunFiles.writeRunJson(dir, RunFiles.started(spec, startedAt, origin));
            if (spec.target().isSimulator()) {
                boolean inProcess = spec.experiments().stream().anyMatch(ExperimentSpec::needsInProcessSimulator);
                sim = SimulatorTarget.start(spec.target(), spec.seed(), inProcess);
                if (sim.notice() != null) {
                    notice(sim.notice());
                }
                endpoint = sim.endpoint();
                endpointDescription = sim.describe();
            } else {
                endpoint = spec.target().endpoint();
            }
            prompts = Prompts.create(spec.tokenizer(), spec.corpus(), spec.seed(),
                    Long.toString(originNanos & 0xffffff, 36), endpoint.baseUrl());
            if (Prompts.SERVER.equalsIgnoreCase(spec.tokenizer())) {
                notice("prompt tokens counted by " + prompts.source());
            }
            client = new LlmClient(spec.client());
            httpPath = client.httpPath(endpoint);
            RunFiles.writeRunJson(dir, RunFiles.started(spec, startedAt, origin, httpPath)); // a killed run keeps it
            if (JitWarmUp.enabled()) {
                // before the clock of any step starts
                JitWarmUp.recordingPath(JitWarmUp.forEndpoint(client, endpoint), spec, originNanos);
                java.util.Set<StepRunner<?>> stepRunners = new java.util.LinkedHashSet<>();
                for (ExperimentSpec e : spec.experiments()) {
                    stepRunners.add(runners.get(e.getClass()));
                }
                JitWarmUp.schedulingPaths(client, endpoint.protocol(), stepRunners);
            }
            trust = TrustMonitor.start();
            setupNanos = System.nanoTime() - originNanos;
            ticker.scheduleAtFixedRate(() -> publish(false), RunEngine.SNAPSHOT_PERIOD_MILLIS, RunEngine.SNAPSHOT_PERIOD_MILLIS,
                    TimeUnit.MILLISECONDS);
            List<String> labels = spec.stepLabels();
            for (int i = 0; i < spec.experiments().size(); i++) {
                if (handle.isCancelled()) {
                    break;
                }
                ExperimentSpec e = spec.experiments().get(i);
                String label = labels.get(i);
                step = label;
                model.startStep(label, e);
                safe(() -> listener.onStepStarted(label));
                StepCounts before = counts();
                clientLagRun.add(clientLag.getIntervalHistogram()); // the step's interval starts here
                trust.stepStart();
                int firstNotice = notices.size(); // the notices from here to the step's end are the step's
                StepResult result = null;
                try {
                    result = run(e, label);
                } finally {
                    trust.stepStop(); // the step's last request ended: its statistics are not its load
                    client.takeConnectionNotices().forEach(this::notice);
                    sinkLock.lock();
                    try {
                        drainSinkLocked();
                        RunResult.StepOutcome o = model.finishStep(result);
                        List<String> raised;
                        synchronized (notices) {
                            raised = List.copyOf(notices.subList(firstNotice, notices.size()));
                        }
                        outcomes.add(o.withTrust(judgeStep(o, before)).withNotices(raised));
                    } finally {
                        sinkLock.unlock();
                    }
                }
            }
        } catch (InterruptedException e) {
            failure = "interrupted";
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            stopSink();
            ticker.shutdownNow();
            step = "";
            if (client != null) {
                client.close();
            }
            if (sim != null) {
                sim.close();
            }
            if (log != null) {
                log.close();
            }
        }
        endpointDescription = usedEndpoints(endpointDescription);
        RunResult.Status status = failure != null ? RunResult.Status.FAILED
                : handle.isCancelled() ? RunResult.Status.CANCELLED : RunResult.Status.COMPLETED;
        RunResult result = new RunResult(spec.name(), status, failure, dir, startedAt,
                Duration.ofNanos(System.nanoTime() - originNanos), endpointDescription, spec, outcomes,
                model.overall(), List.copyOf(notices), origin, judgeTrust(model.overall()), httpPath);
        RunFiles.writeRunJson(dir, RunFiles.finished(result));
        RunFiles.writeSummaryCsv(dir, result);
        publish(true);
        return result;
    }

    /** @return the live result model: finished steps exact, the running step from histograms */
    RunResult view() {
        return new RunResult(spec.name(), RunResult.Status.RUNNING, null, dir, startedAt,
                Duration.ofNanos(System.nanoTime() - originNanos), spec.target().describe(), spec, model.steps(),
                null, List.copyOf(notices), origin, null, httpPath);
    }

    /** @return the P99 dispatch lag of these statistics, ms, or NaN when they have none */
    private static double lagP99Millis(org.latencylab.engine.stats.StatsReport stats) {
        return stats == null ? Double.NaN : stats.summary("dispatch_lag").filter(m -> m.count() > 0)
                .map(m -> m.pMillis(99)).orElse(Double.NaN);
    }

    /** The run's request counters at a moment (a step's start), to judge the step on its own requests. */
    private record StepCounts(long lines, long measured, long lagged, long succeeded, long capWaited) {
    }

    /** @return the counters now; call with every ended request applied (the results thread drained) */
    private StepCounts counts() {
        return new StepCounts(log == null ? 0 : log.lines(), measuredCount.sum(), lagged.sum(), succeeded.sum(),
                capWaited.sum());
    }

    /**
     * @return P99 of the client's own dispatch lag in {@code h}, ms ({@link RequestRecord#clientDispatchLagNanos}),
     *         or NaN when it holds none
     */
    private static double p99Millis(org.HdrHistogram.Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1e6;
    }

    /**
     * Judges one finished step on its own ({@link TrustMonitor#stepEnd}): its requests and dispatch lag, and the
     * hiccups and CPU while it ran.
     */
    private TrustCheck judgeStep(RunResult.StepOutcome o, StepCounts before) {
        StepCounts now = counts();
        org.HdrHistogram.Histogram own = clientLag.getIntervalHistogram();
        clientLagRun.add(own);
        // where requests waited at the step's caps, judge the client's own part of the dispatch lag only
        boolean capsLeftOut = now.capWaited() > before.capWaited();
        double lagP99 = capsLeftOut ? p99Millis(own) : lagP99Millis(o.stats());
        long n = now.measured() - before.measured();
        long late = now.lagged() - before.lagged();
        return trust.stepEnd(now.lines() - before.lines(), now.succeeded() - before.succeeded(), lagP99,
                n == 0 ? Double.NaN : (double) late / n, late, capsLeftOut);
    }

    /** Stops the hiccup meter and judges the client with the run's dispatch lag and CPU ({@link TrustCheck}). */
    private TrustCheck judgeTrust(org.latencylab.engine.stats.StatsReport overall) {
        clientLagRun.add(clientLag.getIntervalHistogram());
        boolean capsLeftOut = capWaited.sum() > 0;
        double lagP99 = capsLeftOut ? p99Millis(clientLagRun) : lagP99Millis(overall);
        long n = measuredCount.sum();
        long late = lagged.sum();
        if (trust == null) { // the run failed before its first step
            trust = TrustMonitor.start();
        }
        return trust.finish(log == null ? 0 : log.lines(), succeeded.sum(), lagP99,
                n == 0 ? Double.NaN : (double) late / n, late, capsLeftOut);
    }

    @SuppressWarnings("unchecked")
    private <S extends ExperimentSpec> StepResult run(S e, String label) throws InterruptedException {
        StepRunner<S> r = (StepRunner<S>) runners.get(e.getClass());
        return r.run(e, label, this);
    }

    /** The sink thread: drains {@link #toSink} every {@link RunEngine#SINK_PERIOD_NANOS} ns, until stopped. */
    private void sinkLoop() {
        while (!sinkStop) {
            sinkLock.lock(); // waits while the run's thread ends a step (no spinning on a held lock)
            try {
                drainSinkLocked();
            } finally {
                sinkLock.unlock();
            }
            if (!sinkStop) {
                java.util.concurrent.locks.LockSupport.parkNanos(this, RunEngine.SINK_PERIOD_NANOS); // stopSink() unparks
            }
        }
    }

    /** Stops the sink thread after it drained what it had; what is left is drained by the caller's lock. */
    private void stopSink() {
        Thread t = sinkThread;
        if (t == null) {
            return;
        }
        sinkStop = true;
        java.util.concurrent.locks.LockSupport.unpark(t);
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sinkLock.lock();
        try {
            drainSinkLocked();
        } finally {
            sinkLock.unlock();
        }
    }

    /** Drains ended requests into the log and the model unless another thread is doing so; never waits. */
    private void drainSink() {
        do {
            if (!sinkLock.tryLock()) {
                return; // the thread holding the lock drains; it looks again after unlocking
            }
            try {
                drainSinkLocked();
            } finally {
                sinkLock.unlock();
            }
        } while (!toSink.isEmpty()); // a record added after the last poll but before the unlock
    }

    private void drainSinkLocked() {
        RequestRecord r;
        while ((r = toSink.poll()) != null) {
            log.append(r);
            model.add(r);
        }
    }

    private synchronized void publish(boolean finished) {
        long now = System.nanoTime();
        List<RequestRecord> batch = new ArrayList<>();
        RequestRecord r;
        while ((r = fresh.poll()) != null) {
            batch.add(r);
        }
        // the outcome counters first, then the count of ended requests: finished() counts a request as ended
        // before it counts its outcome, so read in this order no snapshot shows more ok or failed than done
        // (read the other way round, a busy machine showed "2/20 done 9 ok" at 300 streams)
        long ok = succeeded.sum();
        long cancelled = cancelledCount.sum();
        Map<ErrorKind, Long> err = new EnumMap<>(ErrorKind.class);
        errors.forEach((k, v) -> {
            long n = v.sum();
            if (n > 0) {
                err.put(k, n);
            }
        });
        long s = sent.sum();
        double dt = Nanos.toSeconds(now - lastSnapshotNanos);
        double rate = dt > 0 ? (s - lastSent) / dt : 0;
        lastSent = s;
        lastSnapshotNanos = now;
        IntervalSnapshot snap = new IntervalSnapshot(spec.name(), step, now - originNanos, s,
                spec.plannedRequests(), inFlight.get(), ok, err, cancelled, targetRate, rate, batch, finished,
                Math.min(setupNanos, now - originNanos));
        safe(() -> listener.onSnapshot(snap));
    }

    private void safe(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "run listener failed; the run goes on", e);
        }
    }

    @Override
    public Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public ClientOptions clientOptions() {
        return spec.client();
    }

    @Override
    public RequestRecord send(GenerationRequest request, RequestTicket ticket) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("run cancelled");
        }
        return client.execute(endpoint, request, ticket);
    }

    @Override
    public RequestRecord send(GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("run cancelled");
        }
        return client.execute(endpoint, request, ticket, onFirstToken);
    }

    @Override
    public void openConnections(int inFlight, boolean stream) throws InterruptedException {
        if (spec.client().coldConnections() || inFlight < 1) {
            return;
        }
        int failed = client.openConnections(endpoint, inFlight, stream);
        if (failed > 0) {
            notice(failed + " of the requests that open connections before step '" + step + "' failed;"
                    + " measured requests open the connections they need");
        }
    }

    @Override
    public void beforeClock() {
        org.latencylab.engine.trust.QuietHeap.collectBeforeClock();
        TrustMonitor t = trust;
        if (t != null) {
            t.stepClockStarted(); // the step's verdict counts from its clock, not from its preparation
        }
    }

    @Override
    public void prepare(GenerationRequest request) {
        client.prepare(endpoint, request);
    }

    @Override
    public boolean pacesFirstSends() {
        return client.readsAhead(endpoint);
    }

    @Override
    public void warmConnection(boolean stream, int connections) {
        if (spec.client().coldConnections()) {
            return;
        }
        RequestRecord r;
        try {
            r = client.warm(endpoint, stream, connections);
        } catch (RuntimeException e) {
            return; // the measured requests will meet and record the same problem
        }
        if (r.outcome() == org.latencylab.engine.api.Outcome.ERROR
                && warmFailureNoticed.compareAndSet(false, true)) {
            notice("a request that opens a connection before measuring failed"
                    + (step.isEmpty() ? "" : " in step " + step) + " (" + r.errorKind().id()
                    + (r.errorMessage() == null ? "" : ": " + r.errorMessage())
                    + "); it is not recorded, and each measured request records its own outcome");
        }
    }

    @Override
    public String prompt(int tokens, boolean cold) {
        return prompts.prompt(tokens, cold);
    }

    @Override
    public long nextRequestId() {
        return ids.getAndIncrement();
    }

    @Override
    public void finished(RequestRecord record) {
        RequestRecord r0 = record;
        prompts.observe(record);
        if (!record.step().equals(step)) {
            RequestRecord.Builder b = record.toBuilder();
            b.step = step;
            r0 = b.build();
        }
        toSink.add(r0);
        if (sinkThread == null) {
            drainSink(); // no sink thread (a run that failed to start it): drain here
        }
        if (r0.phase() == org.latencylab.engine.api.Phase.MEASURED) {
            measuredCount.increment();
            long ownLag = r0.clientDispatchLagNanos();
            if (ownLag > TrustCheck.DISPATCH_LAG_P99_LIMIT_MS * 1e6) {
                lagged.increment();
            }
            if (ownLag >= 0) {
                clientLag.recordValue(ownLag);
            }
            if (r0.capWaitNanos() > 0) {
                capWaited.increment();
            }
        }
        record = r0;
        sent.increment();
        switch (record.outcome()) {
            case SUCCESS -> succeeded.increment();
            case ERROR -> errors.get(record.errorKind()).increment();
            case CANCELLED -> cancelledCount.increment();
        }
        fresh.add(record);
    }

    @Override
    public void inFlight(int delta) {
        inFlight.addAndGet(delta);
    }

    @Override
    public void targetRate(double rps) {
        this.targetRate = rps;
    }

    @Override
    public boolean cancelled() {
        return handle.isCancelled();
    }

    @Override
    public void notice(String message) {
        notices.add(message);
        safe(() -> listener.onNotice(message));
    }

    @Override
    public org.latencylab.engine.stats.TierTable tierTable() {
        return spec.stats().tierTable();
    }

    @Override
    public void progress(StepProgress progress) {
        if (listener instanceof StepProgressListener l && progress != null) {
            safe(() -> l.onStepProgress(progress));
        }
    }

    @Override
    public Path runDirectory() {
        return dir;
    }

    @Override
    public org.latencylab.engine.sim.SimServer simulator() {
        SimulatorTarget s = sim;
        return s == null ? null : s.server();
    }
}
