package org.latencylab.engine.client;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool of request threads ({@link RequestThreads}) whose {@link #execute} never creates a thread: it hands the task to
 * an idle pooled platform thread, or, when none is idle, runs it on a new virtual thread at once. Pooled threads are
 * created only by {@link #executeGrowing}, before a measurement (connection opening), where creating a kernel thread
 * delays nothing that is measured.
 *
 * <p>Why: an open loop's dispatcher calls {@code execute} on its schedule. A {@link java.util.concurrent.ThreadPoolExecutor}
 * creates a missing worker on the calling thread, which takes tens of microseconds and far longer while the JVM is at a
 * safepoint or its collector walks thread stacks; when the requests in flight outgrew the idle threads (the first
 * second, a stall of the server), the dispatcher waited and the arrivals behind it were late (dispatch lag in the
 * first seconds of a fast open loop). A virtual thread starts in about a microsecond.
 *
 * <p>Thread-safe. Pooled threads are daemons and end after {@code keepAliveNanos} without work; no shutdown is needed.
 */
final class RequestPool implements Executor {
    private final SynchronousQueue<Runnable> idle = new SynchronousQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int maxPooled;
    private final long keepAliveNanos;
    private final ThreadFactory factory = RequestThreads.workerFactory("latencylab-request-");

    /**
     * @param maxPooled      most pooled platform threads at once, >= 1
     * @param keepAliveNanos how long an idle pooled thread waits for a next task before it ends, ns, > 0
     * @throws IllegalArgumentException when a bound is out of range
     */
    RequestPool(int maxPooled, long keepAliveNanos) {
        if (maxPooled < 1 || keepAliveNanos <= 0) {
            throw new IllegalArgumentException("maxPooled must be >= 1 and keepAliveNanos > 0");
        }
        this.maxPooled = maxPooled;
        this.keepAliveNanos = keepAliveNanos;
    }

    /**
     * Runs {@code task} at once on an idle pooled platform thread, else on a new virtual thread; never blocks and
     * never creates a platform thread.
     *
     * @param task what to run; an exception it throws goes to the thread's uncaught-exception handler
     * @throws NullPointerException when task is null
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (!idle.offer(task)) {
            Thread.ofVirtual().name("latencylab-request-virtual").start(task);
        }
    }

    /**
     * Runs {@code task} at once on an idle pooled platform thread, else on a new pooled platform thread created on the
     * calling thread (below {@code maxPooled}), else on a virtual thread. Afterwards the thread waits, idle, for
     * {@link #execute}'s tasks: calling this N times at once leaves N pooled threads for a measurement.
     *
     * @param task what to run
     * @throws NullPointerException when task is null
     */
    void executeGrowing(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (idle.offer(task)) {
            return;
        }
        if (size.incrementAndGet() <= maxPooled) {
            try {
                factory.newThread(() -> work(task)).start();
                return;
            } catch (RuntimeException | OutOfMemoryError e) {
                size.decrementAndGet(); // no kernel thread to be had: a virtual one does
            }
        } else {
            size.decrementAndGet();
        }
        Thread.ofVirtual().name("latencylab-request-virtual").start(task);
    }

    /** @return pooled platform threads now alive, busy or idle */
    int poolSize() {
        return size.get();
    }

    private void work(Runnable first) {
        try {
            Runnable task = first;
            while (task != null) {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
                Thread.interrupted(); // an interrupt meant for the task that ended must not reach the next one
                task = idle.poll(keepAliveNanos, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            // interrupted while idle: this thread ends
        } finally {
            size.decrementAndGet();
        }
    }
}
