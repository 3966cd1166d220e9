package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Parallel#forEach} on its own: every task runs exactly once, with the workspace it was
 * given, for any thread count and with callers competing for the workers; failures reach the
 * caller and leave the pool usable; nested calls, interrupts and a pool replaced under load
 * neither hang nor lose tasks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParallelTest {
    private static final int DEFAULT_THREADS = Parallel.threads();
    private static final MemorySegment WORKSPACE = MemorySegment.ofArray(new byte[8]);

    @AfterEach
    void restoreThreads() {
        Parallel.setThreads(DEFAULT_THREADS);
    }

    /** Counts each index's runs, and fails if a task sees another workspace. */
    private static Parallel.Tasks counting(AtomicIntegerArray runs) {
        return (i, workspace) -> {
            if (workspace != WORKSPACE) {
                throw new AssertionError("task " + i + " got workspace " + workspace);
            }
            runs.incrementAndGet((int) i);
        };
    }

    private static void assertEachRanOnce(AtomicIntegerArray runs, String what) {
        for (int i = 0; i < runs.length(); i++) {
            assertEquals(1, runs.get(i), what + ": task " + i + " of " + runs.length());
        }
    }

    static Stream<Arguments> shapes() {
        SplittableRandom random = new SplittableRandom(20261123);
        List<Arguments> cases = new ArrayList<>();
        for (int threads : new int[] {1, 2, 3, 5}) {
            cases.add(Arguments.of(threads, 1, 1 << 20));
            cases.add(Arguments.of(threads, 2, 1 << 20));
            cases.add(Arguments.of(threads, 7, 1)); // below the parallel threshold
            for (int k = 0; k < 4; k++) {
                cases.add(Arguments.of(threads, 1 + random.nextInt(5000), 1 + random.nextInt(1 << 12)));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} threads, {1} tasks of {2} elements")
    @MethodSource("shapes")
    void everyTaskRunsOnce(int threads, int tasks, long elementsPerTask) {
        Parallel.setThreads(threads);
        for (int round = 0; round < 20; round++) {
            AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
            Parallel.forEach(tasks, elementsPerTask, counting(runs), WORKSPACE);
            assertEachRanOnce(runs, "round " + round);
        }
    }

    /**
     * Past the threshold, two tasks on two threads run at the same time: each waits for the other
     * to start, which only a call that really split its work can satisfy. Below it, the caller
     * runs every task itself.
     */
    @Test
    void workPastTheThresholdIsSplitAcrossThreads() throws Exception {
        Parallel.setThreads(2);
        for (int r = 0; r < 20; r++) {
            int round = r;
            CyclicBarrier bothStarted = new CyclicBarrier(2);
            long workerRuns = Parallel.workerRuns();
            Parallel.forEach(2, Parallel.MIN_PARALLEL_ELEMENTS / 2, (i, ws) -> {
                try {
                    bothStarted.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new AssertionError("round " + round + ": task " + i + " ran alone: the work was not split", e);
                }
            }, WORKSPACE);
            assertEquals(workerRuns + 1, Parallel.workerRuns(), "round " + round + ": runs taken by the worker");
        }
        Thread caller = Thread.currentThread();
        long workerRuns = Parallel.workerRuns();
        Parallel.forEach(16, Parallel.MIN_PARALLEL_ELEMENTS / 16 - 1, (i, ws) -> assertSame(caller,
                Thread.currentThread(), "task " + i + " of a call below the threshold"), WORKSPACE);
        assertEquals(workerRuns, Parallel.workerRuns(), "runs taken by workers below the threshold");
    }

    /**
     * Each thread starts on its own consecutive share of the tasks, the same one call after call,
     * so that data a call leaves in a core's cache is there for that core's part of the next. The
     * caller's first task holds it until a worker has finished the last task; meanwhile the
     * worker must have started at the first task of the second half, not next to the caller's.
     */
    @Test
    void eachThreadStartsOnItsOwnShare() throws Exception {
        Parallel.setThreads(2);
        int tasks = 64;
        long perTask = Parallel.MIN_PARALLEL_ELEMENTS;
        Thread caller = Thread.currentThread();
        for (int round = 0; round < 5; round++) {
            CountDownLatch lastDone = new CountDownLatch(1);
            long[] workerFirst = {-1};
            Parallel.forEach(tasks, perTask, (i, ws) -> {
                if (Thread.currentThread() == caller) {
                    if (i == 0) {
                        try {
                            assertTrue(lastDone.await(10, TimeUnit.SECONDS), "no worker reached the last task");
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                    }
                    return;
                }
                synchronized (workerFirst) {
                    if (workerFirst[0] < 0) {
                        workerFirst[0] = i;
                    }
                }
                if (i == tasks - 1) {
                    lastDone.countDown();
                }
            }, WORKSPACE);
            assertEquals(tasks / 2, workerFirst[0], "round " + round + ": the worker's first task");
        }
    }

    /**
     * A call that wakes a parked worker does not wait for it: the caller runs every task itself
     * and takes its offer back, so the call can return before the worker has run at all (its CPU
     * time unchanged), which it does in most rounds: a wake-up takes tens of microseconds, the
     * call's two empty tasks far less. A caller that waited for the worker to take the job and
     * leave it would always find that the worker had run.
     */
    @Test
    void aCallDoesNotWaitForAParkedWorkerToWake() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Parallel.setThreads(2);
        Thread worker = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("aclnn4j-worker-") && !before.contains(t))
                .findFirst().orElseThrow();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        int rounds = 200;
        int notRun = 0;
        for (int round = 0; round < rounds; round++) {
            while (worker.getState() != Thread.State.WAITING) {
                Thread.sleep(1);
            }
            AtomicIntegerArray runs = new AtomicIntegerArray(2);
            long workerTime = cpu.getThreadCpuTime(worker.threadId());
            Parallel.forEach(2, Parallel.MIN_PARALLEL_ELEMENTS / 2, counting(runs), WORKSPACE);
            if (cpu.getThreadCpuTime(worker.threadId()) == workerTime) {
                notRun++;
            }
            assertEachRanOnce(runs, "round " + round);
        }
        assertTrue(notRun >= rounds / 10, "the parked worker had not run when the call returned in only "
                + notRun + " of " + rounds + " rounds: the caller waited for it");
    }

    @Test
    void competingCallersEachRunTheirOwnTasks() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                int tasks = 300 + 97 * c;
                done.add(callers.submit(() -> {
                    for (int round = 0; round < 300; round++) {
                        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
                        Parallel.forEach(tasks, 1 << 10, counting(runs), WORKSPACE);
                        assertEachRanOnce(runs, "round " + round);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aFailureReachesTheCallerAndThePoolStaysUsable() {
        Parallel.setThreads(2);
        IllegalStateException thrown = new IllegalStateException("task 77");
        for (int round = 0; round < 50; round++) {
            IllegalStateException seen = assertThrows(IllegalStateException.class,
                    () -> Parallel.forEach(1000, 1 << 10, (i, ws) -> {
                        if (i == 77) {
                            throw thrown;
                        }
                    }, WORKSPACE));
            assertSame(thrown, seen);
            AtomicIntegerArray runs = new AtomicIntegerArray(1000);
            Parallel.forEach(1000, 1 << 10, counting(runs), WORKSPACE);
            assertEachRanOnce(runs, "after failure " + round);
        }
    }

    @Test
    void aTaskMayCallForEachAgain() {
        Parallel.setThreads(2);
        AtomicIntegerArray runs = new AtomicIntegerArray(64 * 64);
        Parallel.forEach(64, 1 << 12, (outer, ws) -> Parallel.forEach(64, 1 << 12,
                (inner, w) -> runs.incrementAndGet((int) (outer * 64 + inner)), ws), WORKSPACE);
        assertEachRanOnce(runs, "nested");
    }

    @Test
    void anInterruptedCallerFinishesAndKeepsItsInterrupt() {
        Parallel.setThreads(2);
        Thread.currentThread().interrupt();
        try {
            AtomicIntegerArray runs = new AtomicIntegerArray(2000);
            Parallel.forEach(2000, 1 << 10, counting(runs), WORKSPACE);
            assertEachRanOnce(runs, "interrupted");
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void replacingThePoolUnderLoadLosesNoTask() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                done.add(callers.submit(() -> {
                    for (int round = 0; round < 400; round++) {
                        AtomicIntegerArray runs = new AtomicIntegerArray(500);
                        Parallel.forEach(500, 1 << 10, counting(runs), WORKSPACE);
                        assertEachRanOnce(runs, "round " + round);
                    }
                    return null;
                }));
            }
            for (int k = 0; k < 40; k++) {
                Parallel.setThreads(1 + k % 4);
                Thread.sleep(2);
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            callers.shutdownNow();
        }
    }
}
