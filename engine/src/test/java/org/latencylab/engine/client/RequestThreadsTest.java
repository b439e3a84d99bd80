package org.latencylab.engine.client;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestThreadsTest {

    /** Waits until {@code t} waits for its next task (a timed wait), at most 10 s. */
    private static void awaitIdle(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** A task that notes its thread, counts down {@code started} and waits for {@code release}. */
    private static Runnable blockedUntil(CountDownLatch release, CountDownLatch started, List<Thread> ran) {
        return () -> {
            ran.add(Thread.currentThread());
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    @Test
    void aThreadStartedBeforeTheMeasurementTakesItsNextRequest() throws Exception {
        RequestPool pool = new RequestPool(4, TimeUnit.SECONDS.toNanos(30));
        List<Thread> ran = new CopyOnWriteArrayList<>();
        try {
            CountDownLatch first = new CountDownLatch(1);
            pool.executeGrowing(() -> {
                ran.add(Thread.currentThread());
                first.countDown();
            });
            assertTrue(first.await(10, TimeUnit.SECONDS));
            awaitIdle(ran.get(0));
            CountDownLatch second = new CountDownLatch(1);
            pool.execute(() -> {
                ran.add(Thread.currentThread());
                second.countDown();
            });
            assertTrue(second.await(10, TimeUnit.SECONDS));
            Thread t = ran.get(0);
            assertFalse(t.isVirtual(), "a pooled request thread is a platform thread");
            assertTrue(t.isDaemon(), "request threads never keep the JVM alive");
            assertTrue(t.getName().startsWith("latencylab-request-"), t.getName());
            assertSame(t, ran.get(1), "an idle pooled thread takes the next request");
            assertEquals(1, pool.poolSize());
        } finally {
            if (!ran.isEmpty()) {
                ran.get(0).interrupt(); // ends the idle pooled thread
            }
        }
    }

    @Test
    void withNoIdlePooledThreadARequestStartsAtOnceOnAVirtualThreadAndNoPlatformThreadIsCreated() throws Exception {
        RequestPool pool = new RequestPool(4, TimeUnit.SECONDS.toNanos(30));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(3);
        List<Thread> ran = new CopyOnWriteArrayList<>();
        Runnable blocked = blockedUntil(release, started, ran);
        try {
            pool.executeGrowing(blocked);
            pool.executeGrowing(blocked);
            pool.execute(blocked); // both pooled threads are busy
            assertTrue(started.await(10, TimeUnit.SECONDS), "every task started while the others still ran");
            assertEquals(2, ran.stream().filter(t -> !t.isVirtual()).count());
            assertEquals(1, ran.stream().filter(Thread::isVirtual).count());
            assertEquals(2, pool.poolSize(), "execute never adds a pooled thread");
        } finally {
            release.countDown();
        }
    }

    @Test
    void beyondItsBoundThePoolGrowsNoFurtherAndIdleThreadsEndAfterTheKeepAlive() throws Exception {
        RequestPool pool = new RequestPool(1, TimeUnit.MILLISECONDS.toNanos(100));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        List<Thread> ran = new CopyOnWriteArrayList<>();
        Runnable blocked = blockedUntil(release, started, ran);
        pool.executeGrowing(blocked);
        pool.executeGrowing(blocked);
        assertTrue(started.await(10, TimeUnit.SECONDS));
        assertEquals(1, ran.stream().filter(t -> !t.isVirtual()).count());
        assertEquals(1, pool.poolSize());
        release.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.poolSize() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, pool.poolSize(), "the idle pooled thread ended once its keep-alive passed");
    }
}
