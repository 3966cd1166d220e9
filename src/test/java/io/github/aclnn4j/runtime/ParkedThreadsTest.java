package io.github.aclnn4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ParkedThreads}: tasks run, idle threads are reused, a failing task does not end its thread,
 * and an interrupt does not outlive the task that received it.
 */
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

    /**
     * A task that interrupts its own thread: the thread must park when idle (a set interrupt makes
     * parking return at once, so it would spin), and the next task on it must start uninterrupted,
     * as a stream's next operator does on the same driver thread.
     */
    @Test
    void anInterruptDoesNotOutliveItsTask() throws Exception {
        ParkedThreads pool = new ParkedThreads("parked-test-d");
        for (int round = 0; round < 20; round++) {
            AtomicReference<Thread> interrupter = new AtomicReference<>();
            assertTrue(pool.execute(() -> {
                interrupter.set(Thread.currentThread());
                Thread.currentThread().interrupt();
            }));
            Thread idle = awaitParked(interrupter);
            // the pool's only idle thread takes the next task
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            AtomicBoolean interrupted = new AtomicBoolean(true);
            CountDownLatch ran = new CountDownLatch(1);
            assertTrue(pool.execute(() -> {
                ranOn.set(Thread.currentThread());
                interrupted.set(Thread.currentThread().isInterrupted());
                ran.countDown();
            }));
            assertTrue(ran.await(10, TimeUnit.SECONDS), "round " + round + ": the second task never ran");
            assertEquals(idle, ranOn.get(), "round " + round + ": the idle thread was not reused");
            assertFalse(interrupted.get(), "round " + round + ": the task started with the interrupt of the task "
                    + "before it on " + idle.getName());
            awaitParked(ranOn);
        }
    }

    /** The thread {@code ran} names once it has started a task, after it has gone back to wait parked. */
    private static Thread awaitParked(AtomicReference<Thread> ran) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Thread t = ran.get();
            if (t != null && t.getState() == Thread.State.TIMED_WAITING) {
                return t;
            }
            Thread.sleep(1);
        }
        Thread t = ran.get();
        throw new AssertionError(t == null ? "the task never ran"
                : t.getName() + " did not park after its task (state " + t.getState() + "): an idle thread spins");
    }
}
