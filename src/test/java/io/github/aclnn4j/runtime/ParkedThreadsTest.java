package io.github.aclnn4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link ParkedThreads}: tasks run, idle threads are reused, a failing task does not end its thread. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParkedThreadsTest {
    @Test
    void tasksOneAfterAnotherReuseAnIdleThread() throws Exception {
        ParkedThreads pool = new ParkedThreads("parked-test-a");
        Set<Thread> used = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 2000; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            assertTrue(pool.execute(() -> {
                used.add(Thread.currentThread());
                ran.countDown();
            }));
            assertTrue(ran.await(10, TimeUnit.SECONDS), "task " + i);
        }
        // A thread is idle again just after its task ends: a few may start for tasks handed over
        // in that moment, not one per task.
        assertTrue(used.size() <= 8, used.size() + " threads for 2000 tasks");
        for (Thread t : used) {
            assertTrue(t.isDaemon(), t.getName());
            assertTrue(t.getName().startsWith("parked-test-a-"), t.getName());
        }
    }

    @Test
    void tasksAtOnceEachGetAThread() throws Exception {
        ParkedThreads pool = new ParkedThreads("parked-test-b");
        int tasks = 16;
        CountDownLatch allStarted = new CountDownLatch(tasks);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < tasks; i++) {
            assertTrue(pool.execute(() -> {
                allStarted.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        assertTrue(allStarted.await(10, TimeUnit.SECONDS), "every blocked task has a thread of its own");
        release.countDown();
    }

    @Test
    void aFailingTaskLeavesItsThreadUsable() throws Exception {
        ParkedThreads pool = new ParkedThreads("parked-test-c");
        AtomicInteger after = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            int n = i;
            assertTrue(pool.execute(() -> {
                ran.countDown();
                if (n % 2 == 0) {
                    throw new IllegalStateException("task " + n);
                }
                after.incrementAndGet();
            }));
            assertTrue(ran.await(10, TimeUnit.SECONDS));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (after.get() < 50 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(50, after.get());
    }
}
