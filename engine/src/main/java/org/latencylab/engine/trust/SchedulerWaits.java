package org.latencylab.engine.trust;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long the client's request threads waited for a CPU after the kernel had made them runnable (woken by the
 * bytes they were blocked on): the Linux scheduler's run-queue wait, from {@code /proc/<pid>/task/<tid>/schedstat}
 * (fields: time on a CPU, time waiting on a run queue, time slices run; ns, ns, count; kernel documentation
 * {@code scheduler/sched-stats.rst}).
 *
 * <p>Why: a response's receive time is stamped when the socket read that delivered it returns. A request thread that
 * is woken but waits for a CPU stamps late by that wait, and nothing inside the process can see it: the hiccup meter is
 * one thread, and a thread that wakes every millisecond is served first by the scheduler. Scored against
 * {@code shared/bench}'s truth server, request threads on a busy machine waited for a CPU long enough to stamp many
 * events late while the hiccup meter still looked quiet; the limit is
 * {@link org.latencylab.engine.api.TrustCheck#RUN_QUEUE_WAIT_LIMIT_MS}.
 *
 * <p>Each request thread is {@link #track() tracked} for its life: its figures at the start are kept, and when it ends
 * its figures since then are added to the totals. {@link #snapshot()} adds the live threads' figures since their start
 * (read from their {@code schedstat} files). Differences of two snapshots give a step's wait.
 *
 * <p>Available on Linux with scheduler statistics ({@code CONFIG_SCHED_INFO}); elsewhere {@link #available()} is false,
 * tracking does nothing and snapshots are empty. Virtual threads are not tracked (they have no kernel thread of their
 * own). Thread-safe.
 */
public final class SchedulerWaits {
    private static final Path SELF = Path.of("/proc/thread-self");
    private static final boolean AVAILABLE = Files.isReadable(SELF.resolve("schedstat"));
    private static final LongAdder ENDED_RUN = new LongAdder();
    private static final LongAdder ENDED_WAIT = new LongAdder();
    private static final LongAdder ENDED_SLICES = new LongAdder();
    private static final Set<Tracked> LIVE = ConcurrentHashMap.newKeySet();
    private static final Tracked NONE = new Tracked(null, null);

    private SchedulerWaits() {
    }

    /** @return whether this system reports per-thread scheduler statistics */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * Starts tracking the calling platform thread; call {@link Tracked#close()} from the same thread when it ends.
     * Costs two small file reads.
     *
     * @return the tracking of this thread (does nothing when unavailable or on a virtual thread); never null
     */
    public static Tracked track() {
        if (!AVAILABLE || Thread.currentThread().isVirtual()) {
            return NONE;
        }
        try {
            // /proc/thread-self is a link to <pid>/task/<tid>: the file stays this thread's when read from another
            Path file = Path.of("/proc").resolve(Files.readSymbolicLink(SELF)).resolve("schedstat");
            long[] start = read(file);
            if (start == null) {
                return NONE;
            }
            Tracked t = new Tracked(file, start);
            LIVE.add(t);
            return t;
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /**
     * The totals of every tracked thread since it was tracked: those that ended, plus the live ones up to now (one
     * file read per live thread).
     *
     * @return the totals; all zero when unavailable
     */
    public static Snapshot snapshot() {
        long run = ENDED_RUN.sum();
        long wait = ENDED_WAIT.sum();
        long slices = ENDED_SLICES.sum();
        for (Tracked t : LIVE) {
            long[] now = read(t.file);
            if (now != null && !t.ended) {
                run += now[0] - t.start[0];
                wait += now[1] - t.start[1];
                slices += now[2] - t.start[2];
            }
        }
        return new Snapshot(run, wait, slices);
    }

    private static long[] read(Path file) {
        try {
            String[] f = Files.readString(file).trim().split(" ");
            if (f.length < 3) {
                return null;
            }
            return new long[]{Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])};
        } catch (IOException | RuntimeException e) {
            return null; // the thread ended between listing and reading, or the format is not the documented one
        }
    }

    /**
     * Scheduler totals of the tracked threads.
     *
     * @param runNanos  time the threads ran on a CPU, ns
     * @param waitNanos time they were runnable but waited for a CPU, ns
     * @param slices    time slices they ran (one per wake-up, and more when preempted)
     */
    public record Snapshot(long runNanos, long waitNanos, long slices) {
        /**
         * @param earlier a snapshot taken before this one
         * @return mean run-queue wait per time slice between the two, ms; NaN when no slice ran in between
         */
        public double waitPerSliceMsSince(Snapshot earlier) {
            long s = slices - earlier.slices;
            return s <= 0 ? Double.NaN : Math.max(0, waitNanos - earlier.waitNanos) / 1e6 / s;
        }

        /**
         * @param earlier a snapshot taken before this one
         * @return time slices run between the two, >= 0
         */
        public long slicesSince(Snapshot earlier) {
            return Math.max(0, slices - earlier.slices);
        }
    }

    /** One tracked thread; {@link #close()} ends the tracking (once, from the thread itself). */
    public static final class Tracked implements AutoCloseable {
        private final Path file;
        private final long[] start;
        private volatile boolean ended;

        private Tracked(Path file, long[] start) {
            this.file = file;
            this.start = start;
        }

        /** Adds this thread's figures since tracking began to the totals and stops tracking it. */
        @Override
        public void close() {
            if (file == null || ended) {
                return;
            }
            long[] end = read(file);
            if (end != null) {
                ENDED_RUN.add(end[0] - start[0]);
                ENDED_WAIT.add(end[1] - start[1]);
                ENDED_SLICES.add(end[2] - start[2]);
            }
            ended = true;
            LIVE.remove(this);
        }
    }
}
