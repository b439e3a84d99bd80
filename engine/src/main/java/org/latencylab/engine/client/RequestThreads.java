package org.latencylab.engine.client;

/**
 * The threads that send measured requests and read their responses: platform threads, not virtual ones, for closed
 * loops (one long-lived worker per stream) and open loops (a pooled thread per request in flight, {@link #pool()}).
 *
 * <p>Plain-HTTP responses are read and stamped by {@link ReadAhead}'s reader threads, and a request thread is woken only
 * at the response's head and end (fewer wake-ups, see there); the rest of this note is about responses the request
 * thread reads itself (TLS and HTTP/2 through OkHttp).
 *
 * <p>Why: a response's receive time is stamped when the socket read that delivered it returns
 * ({@link StampedBody}). A platform thread blocked in that read is woken by the kernel the moment the bytes arrive, and
 * Linux's scheduler runs a freshly woken thread ahead of busy ones (wake-up preemption), so the stamp follows the
 * arrival within microseconds even while other threads parse. A virtual thread's read instead parks, the JDK's poller
 * thread sees the socket ready and queues the virtual thread on the carrier pool, and the read returns only when a
 * carrier is free: under load (hundreds of streams whose events arrive in bursts, parsing on every carrier) that queue
 * was the largest part of the client's in-stream error against {@code shared/bench}'s truth server. The floor client
 * there uses virtual threads too, but does no parsing, so its carriers are always free.
 *
 * <p>Open loops used a new virtual thread per arrival until the same comparison was made for them: on two cores,
 * against a zero-latency simulator in another process, a pooled platform thread per request had a far lower TTFT P99
 * at high request rates and less client CPU per request (no carrier pool parking, unparking or poller hand-offs). The pooled threads are created before the measurement, while its connections are opened (as many as
 * Little's law expects in flight); during an open loop without caps each of them claims the schedule's next arrival
 * itself when it has ended a request, and the dispatcher hands over only an arrival that nobody claimed in time (to an
 * idle pooled thread, else a virtual thread; {@code LoadRun}); it never creates a platform thread ({@link RequestPool}
 * says why).
 *
 * <p>Costs: one kernel thread per request in flight (a stack reserved, committed only as used),
 * and an interrupt does not unblock a platform thread's socket read; the client's stall watchdog therefore cancels the
 * HTTP call of an interrupted platform thread within {@link StallWatchdog#TICK_MILLIS} ms, and the request ends as
 * {@code cancelled}. An open loop whose requests in flight outgrow the idle pooled threads runs the rest on virtual
 * threads ({@link #pool()}). Every request thread's run-queue wait is tracked for the trust check
 * ({@link org.latencylab.engine.trust.SchedulerWaits}) from its start to its end, except while a worker parses behind
 * the reader threads ({@link #behindReaders}). Thread-safe.
 */
public final class RequestThreads {
    /** Stack reserved per request thread, bytes: the HTTP stack, a JSON parser and the record builder fit easily. */
    static final long STACK_BYTES = 512 * 1024;

    /**
     * Most pooled platform threads at once ({@link #pool()}): as many connections as a load step opens at most
     * ({@link LlmClient#openConnections}: 4,096); further tasks run on virtual threads.
     */
    public static final int MAX_POOLED = 4096;
    /** How long an idle pooled thread waits for a next task before it ends, seconds. */
    static final long POOL_KEEP_ALIVE_SECONDS = 30;

    private RequestThreads() {
    }

    /**
     * The shared pool of request threads ({@link RequestPool}): {@code execute} hands the task to an idle pooled
     * platform thread (one unpark), or, when none is idle, starts a virtual thread for it; it never creates a platform
     * thread, so an open loop's dispatcher never waits for one. Pooled threads (named {@code latencylab-request-N},
     * daemon, {@link #STACK_BYTES} stack) are created by {@link #startPooled} before a measurement, at most
     * {@value #MAX_POOLED}, and end after {@value #POOL_KEEP_ALIVE_SECONDS} s idle. Never rejects a task.
     *
     * @return the process-wide pool; thread-safe; never shut down
     */
    public static java.util.concurrent.Executor pool() {
        return Pool.EXECUTOR;
    }

    /**
     * Runs {@code task} at once on a thread of {@link #pool()}, creating a pooled platform thread for it (on the calling
     * thread) when none is idle; afterwards that thread waits, idle, for the pool's next task. For work before a
     * measurement (opening connections): N tasks run at once leave N idle pooled threads for it.
     *
     * @param task what to run
     * @throws NullPointerException when task is null
     */
    public static void startPooled(Runnable task) {
        Pool.EXECUTOR.executeGrowing(task);
    }

    /** Holder: the pool is created on first use. */
    private static final class Pool {
        static final RequestPool EXECUTOR = new RequestPool(MAX_POOLED, POOL_KEEP_ALIVE_SECONDS * 1_000_000_000L);
    }

    /**
     * Starts a long-lived worker (one slot of a closed loop) on a new request thread.
     *
     * @param name the thread's name (shown in thread dumps and profiles); not null
     * @param task what the worker does; not null
     * @return the started thread
     */
    public static Thread startWorker(String name, Runnable task) {
        return Thread.ofPlatform().daemon().name(name).stackSize(STACK_BYTES).start(tracked(task, true));
    }

    /**
     * A factory of the same request threads, for an executor ({@code Executors.newThreadPerTaskExecutor}).
     *
     * @param namePrefix thread names are this prefix followed by 0, 1, 2, ...; not null
     * @return a thread-safe factory of unstarted platform daemon threads
     */
    public static java.util.concurrent.ThreadFactory workerFactory(String namePrefix) {
        java.util.concurrent.ThreadFactory platform = Thread.ofPlatform().daemon().name(namePrefix, 0)
                .stackSize(STACK_BYTES).factory();
        return task -> platform.newThread(tracked(task, false));
    }

    /** Whether the calling thread holds a work permit from {@link #awaitFirstSend} that no connection took over. */
    private static final ThreadLocal<Boolean> FIRST_SEND = ThreadLocal.withInitial(() -> Boolean.FALSE);

    /**
     * Waits for one of the reader threads' work permits ({@link ReadAhead#WORK_PERMITS}: the cores but one) before a
     * closed-loop worker's first send, at most {@link ReadAhead#PERMIT_WAIT_MILLIS} ms. The connection that sends takes
     * the permit over and gives it back when its thread waits for the response, right after the request was written
     * ({@code DirectHttp1}); {@link #endFirstSend} gives it back if none did.
     *
     * <p>Why: when a closed loop's clock opens, all its workers become runnable at once. Each is at nice 10
     * ({@link #PARSING_PRIORITY}), but 256 of them together outweigh the server being measured on Linux's scheduler
     * (CFS weights), and it picks the first wave's requests up late, which shows as TTFT error in the first wave (seen
     * with the server's arrival stamps joined with the run's clock origin).
     * With permits, at most this many workers send at once; the others wait parked. Later waves need none: each
     * worker is woken by its own response, which takes a permit already. A worker's ready time (its turn's intended
     * start) is taken after the permit, so the wait is no dispatch lag: it is the loop's ramp, and no measured time
     * starts before the send. Acts on the calling thread only (the permit is the thread's until a connection takes it
     * over); calling it again while the thread holds one does nothing.
     *
     * @throws InterruptedException when the thread is interrupted while it waits (it then holds no permit)
     */
    public static void awaitFirstSend() throws InterruptedException {
        if (!FIRST_SEND.get() && ReadAhead.WORK_PERMITS.tryAcquire(ReadAhead.PERMIT_WAIT_MILLIS,
                java.util.concurrent.TimeUnit.MILLISECONDS)) {
            FIRST_SEND.set(Boolean.TRUE);
        }
    }

    /**
     * Gives back the permit of {@link #awaitFirstSend} if the calling thread still holds it (no connection took it
     * over: a failed connect, a path that is not read ahead); idempotent, acts on the calling thread only.
     */
    public static void endFirstSend() {
        if (FIRST_SEND.get()) {
            FIRST_SEND.set(Boolean.FALSE);
            ReadAhead.WORK_PERMITS.release();
        }
    }

    /**
     * @return true when the calling thread held a permit of {@link #awaitFirstSend}: the caller now owns it and must
     *         give it back ({@link ReadAhead#WORK_PERMITS})
     */
    static boolean takeFirstSendPermit() {
        if (FIRST_SEND.get()) {
            FIRST_SEND.set(Boolean.FALSE);
            return true;
        }
        return false;
    }

    /** Marks the workers {@link #startWorker} starts: {@link #behindReaders} changes no other thread's priority. */
    private static final ThreadLocal<Boolean> WORKER = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** The run-queue tracking of the calling request thread, or null while it is not tracked. */
    private static final ThreadLocal<org.latencylab.engine.trust.SchedulerWaits.Tracked> WAITS = new ThreadLocal<>();

    /**
     * The Java priority of a request thread whose responses a reader thread reads and stamps ({@link ReadAhead}):
     * {@link Thread#MIN_PRIORITY}. A measuring JVM maps it to the operating system's nice value 10
     * ({@code -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10}, set by the app's launcher); without
     * that policy a Java priority changes nothing.
     *
     * <p>Why: such a thread stamps nothing, so when it runs moves no measured time; it parses whole responses, builds
     * records and sends the next request. The reader threads, which stamp, keep the normal priority, and so does the
     * server being measured when it runs on the same machine. When a thousand streams of a server on the same machine
     * end together, parsing at the same priority as that server makes it read the next wave's requests late, which
     * shows as TTFT error; at nice 10 the server reads them first. Linux's scheduler still gives a nice-10 thread about a tenth of a contended core, so it is slowed,
     * never starved.
     *
     * <p>Only for workers ({@link #startWorker}: closed loops, {@code compare}, monitors), whose next request waits
     * for their last response, so a slow worker sends less and nothing piles up. Not for an open loop's pooled
     * threads: there the schedule keeps sending whatever the threads manage, and threads at nice 10 behind a busy
     * server only fall further behind (an open loop that falls behind for good stops itself,
     * {@code LoadRun.OVERLOAD_IN_FLIGHT}). Keeping open loops at nice 0 is a precaution.
     */
    public static final int PARSING_PRIORITY = Thread.MIN_PRIORITY;

    /**
     * Sets the calling worker's priority for its next request: {@link #PARSING_PRIORITY} when a reader thread reads
     * and stamps the response ({@code stampedByReader}), {@link Thread#NORM_PRIORITY} when the thread reads and stamps
     * its own socket (TLS and HTTP/2 through OkHttp): there its own wake-up is the stamp. Does
     * nothing on threads {@link #startWorker} did not start (an open loop's pooled threads among them) and on virtual
     * threads, and nothing when the priority is already right (no system call). An unprivileged process cannot raise
     * a thread's nice value again, so a thread lowered once stays at nice 10 in the operating system; measuring JVMs
     * set the priority policy only where that is allowed ({@code MeasuringJvm}).
     *
     * <p>A worker's run-queue waits count for the trust check only while its own wake-ups are stamps (the normal
     * priority): at {@link #PARSING_PRIORITY} it waits longer for a CPU by design, stamps nothing, and would have
     * made every closed loop on a busy machine read as "client saturated". The reader threads' waits count.
     *
     * @param stampedByReader whether the thread's next response is read and stamped by a reader thread
     */
    static void behindReaders(boolean stampedByReader) {
        Thread t = Thread.currentThread();
        if (t.isVirtual() || !WORKER.get()) {
            return;
        }
        int want = stampedByReader ? PARSING_PRIORITY : Thread.NORM_PRIORITY;
        if (t.getPriority() != want) {
            t.setPriority(want);
            var waits = WAITS.get();
            if (stampedByReader && waits != null) {
                waits.close(); // its waits since it was tracked still count; from now on they stamp nothing
                WAITS.remove();
            } else if (!stampedByReader && waits == null) {
                WAITS.set(org.latencylab.engine.trust.SchedulerWaits.track());
            }
        }
    }

    /**
     * Every request thread's run-queue wait counts for the trust check
     * ({@link org.latencylab.engine.trust.SchedulerWaits}), from its start to its end (except while it parses behind the
     * reader threads, {@link #behindReaders}): the tracking is part of the thread, not of what it runs.
     */
    private static Runnable tracked(Runnable task, boolean worker) {
        return () -> {
            WORKER.set(worker);
            WAITS.set(org.latencylab.engine.trust.SchedulerWaits.track());
            try {
                task.run();
            } finally {
                var waits = WAITS.get();
                if (waits != null) {
                    waits.close();
                }
                WAITS.remove();
            }
        };
    }
}
