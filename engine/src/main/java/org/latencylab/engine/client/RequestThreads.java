package org.latencylab.engine.client;

/**
 * The threads of closed loops, which send measured requests and read their responses: platform threads, not
 * virtual ones.
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
 * <p>Open loops keep a virtual thread per request: there a thread is started for every arrival, on the dispatcher's
 * schedule, and starting a platform thread (or handing over to a pooled one) delayed dispatch more than virtual
 * threads' reads delayed the stamps (dispatch lag P99 at 1,000 requests/s against the zero-latency simulator).
 *
 * <p>Costs: one kernel thread per request in flight (a 512 KiB stack reserved, committed only as used: tens of KiB),
 * and an interrupt does not unblock a platform thread's socket read; the client's stall watchdog therefore cancels the
 * HTTP call of an interrupted platform thread within {@link StallWatchdog#TICK_MILLIS} ms, and the request ends as
 * {@code cancelled}. Thread-safe.
 */
public final class RequestThreads {
    /** Stack reserved per request thread, bytes: the HTTP stack, a JSON parser and the record builder fit easily. */
    static final long STACK_BYTES = 512 * 1024;

    private RequestThreads() {
    }

    /**
     * Starts a long-lived worker (one slot of a closed loop) on a new platform daemon thread.
     *
     * @param name the thread's name (shown in thread dumps and profiles); not null
     * @param task what the worker does; not null
     * @return the started thread
     */
    public static Thread startWorker(String name, Runnable task) {
        return Thread.ofPlatform().daemon().name(name).stackSize(STACK_BYTES).start(task);
    }

    /**
     * A factory of the same request threads, for an executor ({@code Executors.newThreadPerTaskExecutor}).
     *
     * @param namePrefix thread names are this prefix followed by 0, 1, 2, ...; not null
     * @return a thread-safe factory of unstarted platform daemon threads
     */
    public static java.util.concurrent.ThreadFactory workerFactory(String namePrefix) {
        return Thread.ofPlatform().daemon().name(namePrefix, 0).stackSize(STACK_BYTES).factory();
    }
}
