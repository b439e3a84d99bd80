package org.latencylab.engine.experiment;

import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.results.RunDirectory;
import org.latencylab.engine.results.RunModel;
import org.latencylab.engine.trust.TrustMonitor;

import java.nio.file.Path;
import java.util.Map;

/**
 * Runs a {@link RunSpec} on its own threads: starts the simulator when the target is the built-in one, sends
 * every step's requests through one {@link LlmClient}, appends each finished request to {@code requests.jsonl}
 * at once and feeds it to the run's {@link RunModel} (the result model: live statistics while a step runs, exact
 * ones computed once when it ends, in primitive arrays, without reading {@code requests.jsonl} back), publishes an
 * {@link IntervalSnapshot} to the listener every {@value #SNAPSHOT_PERIOD_MILLIS} ms (5 Hz) and once more at the
 * end, and finally writes {@code run.json} and {@code summary.csv}. Requests of the warmup and cooldown
 * {@linkplain org.latencylab.engine.api.Phase phases} are logged but left out of the statistics.
 *
 * <p>A run directory holds one run: {@link #start} refuses one that already holds a run unless asked to overwrite
 * it ({@link RunDirectory}). Every run records its clock origin ({@link ClockOrigin}: the {@code System.nanoTime()}
 * that {@code requests.jsonl} times are relative to, and the wall clock then) and judges its own client with a
 * {@link TrustMonitor} (hiccup meter, dispatch lag, process CPU, request threads' run-queue wait → {@link TrustCheck}
 * in {@code run.json}).
 *
 * <p>Step types are looked up in a registry ({@link #register}), filled by the one composition root
 * ({@code org.latencylab.engine.scenario.StepCatalog#engine()}).
 * Thread-safe: one engine can start several runs; each run has its own threads and state.
 */
public final class RunEngine {
    /** Snapshot period in milliseconds (5 Hz). */
    public static final long SNAPSHOT_PERIOD_MILLIS = 200;
    /**
     * Period of the results sink thread, ns: it applies ended requests to the log and the model every 10 ms. A request
     * thread wakes nobody when it ends: waking the sink for each record would cost a thread wake-up per request and a
     * system call on the request's thread.
     */
    static final long SINK_PERIOD_NANOS = 10_000_000L;

    private final Map<Class<?>, StepRunner<?>> runners = new java.util.concurrent.ConcurrentHashMap<>();

    /** An engine that knows no step type yet: {@link #register} them. */
    public RunEngine() {
    }

    /**
     * Registers (or replaces) the runner of a step type.
     *
     * @param type   spec class
     * @param runner its runner
     * @param <S>    spec type
     * @return this engine
     */
    public <S extends ExperimentSpec> RunEngine register(Class<S> type, StepRunner<S> runner) {
        runners.put(type, runner);
        return this;
    }

    /**
     * Starts a run and returns at once.
     *
     * @param spec         what to run
     * @param runDirectory directory to write (created if missing; must not hold a run already)
     * @param listener     progress listener, called on engine threads
     * @return a handle to cancel and await the run
     * @throws IllegalArgumentException when a step type has no runner
     * @throws RunDirectory.RunDirectoryException when the directory already holds a run ({@code run.json} or
     *                                  {@code requests.jsonl}), or cannot be created or written
     */
    public RunHandle start(RunSpec spec, Path runDirectory, RunListener listener) {
        return start(spec, runDirectory, listener, false);
    }

    /**
     * Starts a run and returns at once.
     *
     * @param spec         what to run
     * @param runDirectory directory to write (created if missing)
     * @param listener     progress listener, called on engine threads
     * @param overwrite    whether an earlier run in {@code runDirectory} is deleted first ({@link RunDirectory})
     *                     instead of refusing the directory
     * @return a handle to cancel and await the run
     * @throws IllegalArgumentException when a step type has no runner
     * @throws RunDirectory.RunDirectoryException when the directory holds a run and {@code overwrite} is false, or
     *                                  cannot be created or written (the message says which, in words)
     */
    public RunHandle start(RunSpec spec, Path runDirectory, RunListener listener, boolean overwrite) {
        for (ExperimentSpec e : spec.experiments()) {
            if (!runners.containsKey(e.getClass())) {
                throw new IllegalArgumentException("no runner for experiment type '" + e.type() + "'");
            }
        }
        boolean resuming = !spec.experiments().isEmpty()
                && spec.experiments().stream().allMatch(ExperimentSpec::resumesInPlace);
        if (resuming && !overwrite) {
            RunDirectory.prepareToResume(runDirectory);
        } else {
            RunDirectory.prepare(runDirectory, overwrite);
        }
        RunHandle handle = new RunHandle(runDirectory);
        Thread t = new Thread(() -> {
            try {
                EngineRun run = new EngineRun(spec, runDirectory, listener == null ? RunListener.NONE : listener, handle,
                        runners);
                handle.viewSource(run::view);
                handle.complete(run.execute());
            } catch (Throwable e) {
                handle.fail(e);
            }
        }, "latencylab-run-" + spec.name());
        t.setDaemon(true);
        t.start();
        return handle;
    }
}
