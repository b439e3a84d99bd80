package org.latencylab.engine.step;

import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.RequestThreads;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.concurrent.locks.LockSupport;

/**
 * The closed loop of LatencyLab, used by probes, sweeps and closed-loop load steps: {@code workers} threads, each
 * taking its next turn (usually: send one request and wait for it to end) as soon as its previous turn ended and its
 * think time passed, until a turn says it is done, the loop is stopped or the run is cancelled. In a closed loop the
 * <em>intended start</em> of a request is the moment its worker became ready (after the think time), so latency
 * from the intended start includes any wait at a cap after that moment.
 *
 * <p>Before the clock starts every worker may first open its own connection ({@link StepContext#warmConnection},
 * which does nothing when the run asked for cold connections); then all workers start together, and not before
 * {@link Options#notBeforeNanos()}. Cancellation ({@link StepContext#cancelled()}, the stop condition, or an interrupt
 * of the thread that waits in {@link Handle#join}) ends the loop: workers are interrupted and end after their current
 * turn; what a turn does with an interrupt (e.g. record a {@code cancelled} request) is up to the turn.
 *
 * <p>Not instantiable; {@link #start} and {@link #requests} are thread-safe.
 */
public final class ClosedLoop {
    private static final long POLL_NANOS = 20_000_000L;
    /** Prompts of a step are built in advance up to this many tokens in all (a few seconds of tokenizer work at most). */
    private static final long PREBUILT_PROMPT_TOKENS = 1_000_000L;

    private ClosedLoop() {
    }

    /**
     * One turn of a worker. Called on the worker's thread; implementations are thread-safe (all workers call the
     * same turn concurrently).
     */
    @FunctionalInterface
    public interface Turn {
        /**
         * @param worker     index of the calling worker, 0 to {@code workers - 1}
         * @param readyNanos {@link System#nanoTime()} when the worker became ready for this turn (after its think
         *                   time): the intended start of a closed-loop request
         * @return true to take another turn, false when this worker is done
         * @throws InterruptedException when interrupted; the worker ends
         */
        boolean take(int worker, long readyNanos) throws InterruptedException;
    }

    /**
     * How a closed loop runs. Immutable.
     *
     * @param workers        concurrent workers, >= 1 (the closed loop's concurrency)
     * @param name           thread-name prefix of the workers (workers are named {@code <name>-<index>} when the
     *                       loop starts its own threads)
     * @param warmEachWorker whether each worker first calls {@link StepContext#warmConnection} on its own thread
     *                       before the common start (used when requests reuse the connection of their thread)
     * @param stream         whether the requests stream (passed to {@link StepContext#warmConnection})
     * @param notBeforeNanos {@link System#nanoTime()} before which no turn starts; {@link Long#MIN_VALUE} for none
     * @param thinkTime      pause of a worker between the end of one turn and the next, >= 0
     * @param launcher       runs each worker's task on its own thread (must run them concurrently); null for a new
     *                       platform thread per worker ({@link RequestThreads}: reads are stamped when the kernel
     *                       wakes the thread)
     * @throws IllegalArgumentException when {@code workers < 1} or the think time is negative
     * @throws NullPointerException     when name or thinkTime is null
     */
    public record Options(int workers, String name, boolean warmEachWorker, boolean stream, long notBeforeNanos,
                          Duration thinkTime, Executor launcher) {
        public Options {
            if (workers < 1) {
                throw new IllegalArgumentException("closed loop: workers must be >= 1, was " + workers);
            }
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(thinkTime, "thinkTime");
            if (thinkTime.isNegative()) {
                throw new IllegalArgumentException("closed loop: think time must be >= 0, was " + thinkTime);
            }
        }
    }

    /**
     * Starts the workers and returns at once.
     *
     * @param options how to run
     * @param turn    what a worker does per turn
     * @param stopped checked before every turn and during think time: true ends the loop (e.g. a load step's
     *                duration or request count was reached)
     * @param ctx     run services (cancellation, connection warming)
     * @return a handle to wait for the workers or interrupt them
     * @throws java.util.concurrent.RejectedExecutionException when the launcher refuses a worker (workers already
     *                                                         started are stopped first)
     */
    public static Handle start(Options options, Turn turn, BooleanSupplier stopped, StepContext ctx) {
        return start(options, turn, stopped, ctx, false);
    }

    /**
     * Like {@link #start(Options, Turn, BooleanSupplier, StepContext)}; with {@code beforeClock}, once every worker is
     * ready (its connection warmed) and before any takes a turn, worker 0 calls {@link StepContext#beforeClock()}
     * while the others wait for it.
     */
    static Handle start(Options options, Turn turn, BooleanSupplier stopped, StepContext ctx, boolean beforeClock) {
        Objects.requireNonNull(turn, "turn");
        Objects.requireNonNull(stopped, "stopped");
        Objects.requireNonNull(ctx, "ctx");
        Handle h = new Handle(options.workers(), () -> stopped.getAsBoolean() || ctx.cancelled(), beforeClock);
        CountDownLatch ready = new CountDownLatch(options.workers());
        for (int w = 0; w < options.workers(); w++) {
            int worker = w;
            Runnable task = () -> h.work(worker, options, turn, ctx, ready);
            try {
                if (options.launcher() == null) {
                    h.own[worker] = RequestThreads.startWorker(options.name() + "-" + worker, task);
                } else {
                    options.launcher().execute(task);
                }
            } catch (RuntimeException e) {
                h.halt();
                for (int rest = worker; rest < options.workers(); rest++) {
                    ready.countDown();
                    h.done.countDown();
                }
                throw e;
            }
        }
        return h;
    }

    /**
     * Sends {@code total} requests in a closed loop of {@code concurrency} workers that each open their own
     * connection first (probe and sweep steps). Each request's ticket is stamped just before it is sent, so the
     * intended start equals the send time up to the client's own dispatch cost. Blocks until all requests ended or
     * the run was cancelled; in-flight requests of a cancelled run end as CANCELLED records.
     *
     * @param total         requests to send, >= 0
     * @param concurrency   workers, >= 1
     * @param label         request label
     * @param contextTokens prompt tokens intended, or -1
     * @param requestFor    builds the i-th request (i from 0): all of them before the first is sent when their prompts
     *                      total at most 1 M tokens (each then also {@link StepContext#prepare prepared}: its HTTP
     *                      body is built before the clock), else each on its worker thread before its intended start
     * @param record        whether results go to {@link StepContext#finished} (false for warmup)
     * @param ctx           run services
     * @return the records in the order they finished
     * @throws InterruptedException when the calling thread is interrupted
     */
    public static List<RequestRecord> requests(int total, int concurrency, String label, int contextTokens,
                                               IntFunction<GenerationRequest> requestFor, boolean record,
                                               StepContext ctx) throws InterruptedException {
        GenerationRequest first = total > 0 ? requestFor.apply(0) : null;
        // prompts are built before the measurement when they fit in memory: building one (a unique prefix, exact
        // token counts) costs tokenizer work that would otherwise compete with the requests being timed
        GenerationRequest[] prepared = null;
        if (first != null && (long) total * Math.max(1, first.promptTokens()) <= PREBUILT_PROMPT_TOKENS) {
            prepared = new GenerationRequest[total];
            prepared[0] = first;
            ctx.prepare(first);
            for (int i = 1; i < total && !ctx.cancelled(); i++) {
                prepared[i] = requestFor.apply(i);
                ctx.prepare(prepared[i]); // the HTTP body too: none is built when a turn is due
            }
        }
        GenerationRequest[] ready = prepared;
        // lock-free: at 1,024 workers the streams end together, and a synchronized list queued them on one monitor
        java.util.Queue<RequestRecord> done = new java.util.concurrent.ConcurrentLinkedQueue<>();
        AtomicInteger next = new AtomicInteger();
        Turn turn = (worker, readyNanos) -> {
            int i = next.getAndIncrement();
            if (i >= total) {
                return false;
            }
            GenerationRequest req = ready != null && ready[i] != null ? ready[i] : i == 0 ? first : requestFor.apply(i);
            long id = record ? ctx.nextRequestId() : 0;
            RequestTicket ticket = new RequestTicket(id, label, contextTokens, System.nanoTime());
            RequestRecord r;
            int counted = record ? 1 : 0; // an unrecorded warm-up request is not shown in flight: it never ends as done
            ctx.inFlight(+counted);
            try {
                r = ctx.send(req, ticket);
            } finally {
                ctx.inFlight(-counted);
            }
            if (record) {
                ctx.finished(r);
            }
            done.add(r);
            return true;
        };
        int n = Math.min(concurrency, Math.max(total, 1));
        Options options = new Options(n, "latencylab-" + label, first != null, first != null && first.stream(),
                Long.MIN_VALUE, Duration.ZERO, null);
        // a measured loop starts its clock on a collected heap (a warm-up loop's records are discarded: no need)
        start(options, turn, () -> false, ctx, record).join();
        return new ArrayList<>(done);
    }

    /** The workers of one started loop. Thread-safe. */
    public static final class Handle {
        private final AtomicReferenceArray<Thread> threads;
        /** The threads the loop started for its workers (none when a launcher runs them); joined by {@link #join()}. */
        private final Thread[] own;
        private final CountDownLatch done;
        private final BooleanSupplier stop;
        private volatile boolean halted;
        /**
         * Opened by worker 0 after {@link StepContext#beforeClock()} ({@link ClockGate#open}); null when the loop does
         * not call it. Not a {@link CountDownLatch}: a latch wakes its waiters one after another (each woken waiter
         * wakes the next), so with a thousand workers parsing at nice 10 the first wave's sends spread out while the
         * server is already streaming to the first ones; {@link ClockGate#open} wakes every worker itself.
         */
        private final ClockGate clock;

        private Handle(int workers, BooleanSupplier stop, boolean beforeClock) {
            this.threads = new AtomicReferenceArray<>(workers);
            this.own = new Thread[workers];
            this.done = new CountDownLatch(workers);
            this.stop = stop;
            this.clock = beforeClock ? new ClockGate() : null;
        }

        /** A one-time gate that wakes all its waiters at once (see {@link #clock}). */
        private static final class ClockGate {
            private volatile boolean open;

            /** Waits until {@link #open} was called; every waiter must be in the loop's {@code threads}. */
            void await() throws InterruptedException {
                while (!open) {
                    LockSupport.park(this);
                    if (Thread.interrupted()) {
                        throw new InterruptedException();
                    }
                }
            }

            /** Opens the gate and unparks each of the given threads from the calling thread. */
            void open(AtomicReferenceArray<Thread> waiters) {
                open = true;
                Thread self = Thread.currentThread();
                for (int i = 0; i < waiters.length(); i++) {
                    Thread t = waiters.get(i);
                    if (t != null && t != self) {
                        LockSupport.unpark(t);
                    }
                }
            }
        }

        private boolean stopping() {
            return halted || stop.getAsBoolean();
        }

        private void work(int worker, Options o, Turn turn, StepContext ctx, CountDownLatch ready) {
            threads.set(worker, Thread.currentThread());
            boolean counted = false;
            try {
                if (halted) { // the loop was interrupted before this worker started
                    return;
                }
                if (o.warmEachWorker() && !stopping()) {
                    ctx.warmConnection(o.stream(), o.workers());
                }
                ready.countDown();
                counted = true;
                ready.await();
                if (clock != null) {
                    if (worker == 0) {
                        ctx.beforeClock();
                        clock.open(threads);
                    } else {
                        clock.await();
                    }
                }
                while (o.notBeforeNanos() != Long.MIN_VALUE && System.nanoTime() - o.notBeforeNanos() < 0
                        && !stopping()) {
                    LockSupport.parkNanos(Math.min(o.notBeforeNanos() - System.nanoTime(), POLL_NANOS));
                }
                long think = o.thinkTime().toNanos();
                boolean first = true;
                while (!stopping() && !Thread.currentThread().isInterrupted()) {
                    if (first && ctx.pacesFirstSends()) {
                        RequestThreads.awaitFirstSend(); // see there: the first wave must not crowd out the server
                    }
                    boolean more;
                    try {
                        more = turn.take(worker, System.nanoTime());
                    } finally {
                        if (first) {
                            RequestThreads.endFirstSend();
                            first = false;
                        }
                    }
                    if (!more) {
                        return;
                    }
                    if (think > 0) {
                        long until = System.nanoTime() + think;
                        while (System.nanoTime() - until < 0 && !stopping()) {
                            LockSupport.parkNanos(Math.min(until - System.nanoTime(), POLL_NANOS));
                        }
                    }
                }
            } catch (InterruptedException e) {
                // the loop was cancelled: this worker ends
            } finally {
                if (!counted) {
                    ready.countDown(); // frees the others when this worker ended before the common start
                }
                threads.set(worker, null);
                if (clock != null && worker == 0) {
                    clock.open(threads); // worker 0 ended early (halted, interrupted): the others must not wait for it
                }
                done.countDown();
                awaitSiblings();
            }
        }

        /**
         * Holds an ended worker's thread until every worker of the loop ended. A thread's end takes the process's
         * memory-map lock for writing (its stack is unmapped), and many ends at once contend for it: when the workers
         * of a wide closed loop end one by one while the others still read their last events, perf samples the
         * ending threads spinning on that lock in {@code JavaThread::exit} ({@code osq_lock},
         * {@code rwsem_down_write_slowpath}), and the last events of the other streams are read late. An interrupt ends the wait (the thread stays interrupted).
         */
        private void awaitSiblings() {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Interrupts every worker and makes them end after their current turn. */
        public void halt() {
            halted = true;
            for (int i = 0; i < threads.length(); i++) {
                Thread t = threads.get(i);
                if (t != null) {
                    t.interrupt();
                }
            }
        }

        /**
         * Waits until every worker ended and, when the loop started its own threads, until those threads are gone (so
         * that their exits cost nothing in a measurement that follows); while waiting, interrupts the workers once the
         * run is cancelled or the stop condition holds (checked every 20 ms).
         *
         * @throws InterruptedException when the calling thread is interrupted (the workers are halted first)
         */
        public void join() throws InterruptedException {
            try {
                while (!done.await(POLL_NANOS, TimeUnit.NANOSECONDS)) {
                    if (stop.getAsBoolean()) {
                        halt();
                    }
                }
                for (Thread t : own) {
                    if (t != null) {
                        t.join();
                    }
                }
            } catch (InterruptedException e) {
                halt();
                throw e;
            }
        }

        /**
         * Waits at most {@code timeout} for every worker to end and, when the loop started its own threads, for those
         * threads to be gone (as {@link #join()}), without interrupting them.
         *
         * @param timeout how long to wait at most
         * @return true when all workers ended and their own threads are gone
         * @throws InterruptedException when the calling thread is interrupted
         */
        public boolean awaitEnd(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            if (!done.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
            for (Thread t : own) {
                long left = deadline - System.nanoTime();
                if (t != null && t.isAlive() && (left <= 0 || !t.join(Duration.ofNanos(left)))) {
                    return false;
                }
            }
            return true;
        }
    }
}
