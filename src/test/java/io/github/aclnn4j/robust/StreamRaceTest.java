package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Calls that race with the release of what they use, and threads that share a stream. A caller
 * that frees memory or destroys a stream while another thread uses it has a bug of its own, but
 * the library must still answer with the status it gives outside the race; and a launch on a
 * shared stream must not become a wait for other threads' work.
 */
class StreamRaceTest {
    private static final int INVALID = 161002;
    private static final int ROUNDS = 2000;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    /** A launch losing the race with aclrtDestroyStream is refused like any launch on a destroyed stream. */
    @Test
    void launchRacingWithDestroyStream() throws InterruptedException {
        Map<Integer, Integer> refusals = new TreeMap<>();
        int usedUp = 0;
        try (Workload w = new Workload(Workload.Op.BCE_BACKWARD, ACL_FLOAT, 200, 1, false)) {
            for (int round = 0; round < ROUNDS; round++) {
                AclrtStream stream = new AclrtStream();
                assertEquals(0, AclRt.createStream(stream), Acl::getRecentErrMsg);
                AtomicInteger refused = new AtomicInteger();
                AclOpExecutor[] refusedExecutor = new AclOpExecutor[1];
                long[] size = new long[1];
                Thread launcher = new Thread(() -> {
                    while (true) {
                        AclOpExecutor e = new AclOpExecutor();
                        w.plan(size, e);
                        int status = w.run(e, size[0], stream);
                        if (status != 0) {
                            Acl.getRecentErrMsg();
                            refused.set(status);
                            refusedExecutor[0] = e;
                            return;
                        }
                    }
                });
                launcher.start();
                Thread.sleep(0, 20_000);
                assertEquals(0, AclRt.destroyStream(stream), Acl::getRecentErrMsg);
                launcher.join();
                refusals.merge(refused.get(), 1, Integer::sum);
                if (w.run(refusedExecutor[0], size[0], null) != 0) { // a refused launch must not use up its executor
                    Acl.getRecentErrMsg();
                    usedUp++;
                }
                assertEquals(0, AclRt.synchronizeStream(null), Acl::getRecentErrMsg);
                w.retire();
            }
        }
        assertEquals(Map.of(INVALID, ROUNDS), refusals, "statuses of launches refused in the race (status: rounds)");
        assertEquals(0, usedUp, "refused launches whose executor could not run afterwards");
    }

    /**
     * aclrtDestroyStream waits for the work queued on the stream (docs/behaviour.md), so every task the stream
     * accepted while the destroy was under way has run when it returns. Driven on the runtime
     * stream, as phase 2 enqueues an operator's work, with short tasks that count themselves and a
     * submitter that keeps the stream alternately busy and idle.
     */
    @Test
    void destroyWaitsForEveryAcceptedTask() throws InterruptedException {
        int late = 0;
        for (int round = 0; round < ROUNDS; round++) {
            AclrtStream handle = new AclrtStream();
            assertEquals(0, AclRt.createStream(handle), Acl::getRecentErrMsg);
            io.github.aclnn4j.runtime.Stream stream = Internals.of(handle);
            AtomicInteger accepted = new AtomicInteger();
            AtomicInteger completed = new AtomicInteger();
            Thread submitter = new Thread(() -> {
                try {
                    while (true) {
                        stream.submit(workspace -> {
                            spin(5_000);
                            completed.incrementAndGet();
                        }, MemorySegment.NULL, false);
                        accepted.incrementAndGet();
                        spin(20_000);
                    }
                } catch (RuntimeException refused) { // the stream is destroyed
                }
            });
            submitter.start();
            Thread.sleep(0, 50_000);
            assertEquals(0, AclRt.destroyStream(handle), Acl::getRecentErrMsg);
            int done = completed.get();
            submitter.join();
            if (done < accepted.get()) {
                late++;
            }
        }
        assertEquals(0, late, "rounds in which accepted work was still to run when aclrtDestroyStream returned");
    }

    private static void spin(long nanos) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < nanos) {
            Thread.onSpinWait();
        }
    }

    /** Phase 1 losing the race with aclrtFree of a tensor's memory is refused like phase 1 on freed memory. */
    @Test
    void phaseOneRacingWithFree() throws InterruptedException {
        int n = 64;
        Pointer x = TestDevice.malloc(n * 4L);
        Pointer out = TestDevice.malloc(n * 4L);
        AclTensor tx = vector(x, n);
        AclTensor tout = vector(out, n);
        Map<Integer, Integer> refusals = new TreeMap<>();
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Pointer freed = TestDevice.malloc(n * 4L);
                AclTensor self = vector(freed, n);
                AtomicInteger refused = new AtomicInteger();
                Thread planner = new Thread(() -> {
                    int status;
                    while ((status = Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(tx, self, tx, null, 0, tout,
                            new long[1], new AclOpExecutor())) == 0) {
                        Thread.onSpinWait();
                    }
                    String message = Acl.getRecentErrMsg();
                    refused.set(message != null && message.contains("aclnnBinaryCrossEntropyBackward") ? status
                            : -status);
                });
                planner.start();
                Thread.sleep(0, 20_000);
                TestDevice.free(freed);
                planner.join();
                Acl.destroyTensor(self);
                refusals.merge(refused.get(), 1, Integer::sum);
            }
        } finally {
            Acl.destroyTensor(tx);
            Acl.destroyTensor(tout);
            TestDevice.free(x);
            TestDevice.free(out);
        }
        assertEquals(Map.of(INVALID, ROUNDS), refusals,
                "statuses of phase 1 refused in the race (negative: the message did not name the operator)");
    }

    /**
     * Phase 2 of a small call may run it on the caller when the stream is idle; it must not then go
     * on running what other threads queue on the same stream meanwhile, or a caller sharing a busy
     * stream waits for everyone's work (seen: one small launch took 1.6 s with three threads on one
     * stream). Deterministic: the caller's own task waits on a latch while another thread queues a
     * task that blocks; the caller must return once its own task is done. The runtime stream is
     * driven directly, as phase 2 drives it for calls of at most Executor.INLINE_ELEMENTS elements.
     */
    @Test
    void aSmallLaunchDoesNotRunOtherThreadsWork() throws InterruptedException {
        AclrtStream shared = new AclrtStream();
        assertEquals(0, AclRt.createStream(shared), Acl::getRecentErrMsg);
        io.github.aclnn4j.runtime.Stream stream = Internals.of(shared);
        CountDownLatch ownTaskRunning = new CountDownLatch(1);
        CountDownLatch releaseOwnTask = new CountDownLatch(1);
        CountDownLatch releaseOtherTask = new CountDownLatch(1);
        CountDownLatch callerReturned = new CountDownLatch(1);
        Thread caller = new Thread(() -> {
            stream.submit(workspace -> {
                ownTaskRunning.countDown();
                await(releaseOwnTask);
            }, MemorySegment.NULL, true);
            callerReturned.countDown();
        });
        try {
            caller.start();
            assertTrue(ownTaskRunning.await(30, TimeUnit.SECONDS), "the caller's task never ran");
            stream.submit(workspace -> await(releaseOtherTask), MemorySegment.NULL, false); // another thread's work, queued behind it
            releaseOwnTask.countDown();
            assertTrue(callerReturned.await(10, TimeUnit.SECONDS),
                    "the caller's own task is done, but its submit is still running another thread's task");
        } finally {
            releaseOwnTask.countDown();
            releaseOtherTask.countDown();
            caller.join();
            assertEquals(0, AclRt.destroyStream(shared), Acl::getRecentErrMsg);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static AclTensor vector(Pointer data, int n) {
        return Acl.createTensor(new long[] {n}, 1, ACL_FLOAT, null, 0, ACL_FORMAT_ND, new long[] {n}, 1, data);
    }
}
