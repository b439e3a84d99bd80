package org.latencylab.engine.client;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestThreadsTest {

    @Test
    void aPooledRequestRunsOnAPlatformDaemonThreadThatTheNextRequestReuses() throws Exception {
        ThreadPoolExecutor pool = RequestThreads.newPool(4);
        try {
            List<Thread> ran = new CopyOnWriteArrayList<>();
            CountDownLatch first = new CountDownLatch(1);
            pool.execute(() -> {
                ran.add(Thread.currentThread());
                first.countDown();
            });
            assertTrue(first.await(10, TimeUnit.SECONDS));
            // the first task's thread goes back to waiting for work; give it time to get there
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.getActiveCount() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            CountDownLatch second = new CountDownLatch(1);
            pool.execute(() -> {
                ran.add(Thread.currentThread());
                second.countDown();
            });
            assertTrue(second.await(10, TimeUnit.SECONDS));
            Thread t = ran.get(0);
            assertFalse(t.isVirtual(), "a request thread is a platform thread");
            assertTrue(t.isDaemon(), "request threads never keep the JVM alive");
            assertTrue(t.getName().startsWith("latencylab-request-"), t.getName());
            assertSame(t, ran.get(1), "an idle pooled thread takes the next request");
            assertEquals(1, pool.getPoolSize());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void beyondTheBoundFurtherRequestsRunAtOnceOnVirtualThreads() throws Exception {
        ThreadPoolExecutor pool = RequestThreads.newPool(2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(3);
        List<Thread> ran = new CopyOnWriteArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                pool.execute(() -> {
                    ran.add(Thread.currentThread());
                    started.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            // all three run at the same time: none waits for a pooled thread to become free
            assertTrue(started.await(10, TimeUnit.SECONDS), "every task started while the others still ran");
            assertEquals(2, ran.stream().filter(t -> !t.isVirtual()).count());
            assertEquals(1, ran.stream().filter(Thread::isVirtual).count());
        } finally {
            release.countDown();
            pool.shutdown();
        }
    }
}
