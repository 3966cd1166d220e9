package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many Java threads at once, each with its own stream and some sharing one, running all five
 * operators on sizes from inline-small to parallel-large: every result is bitwise the result of the
 * same call run alone; each stream runs its work in order; synchronizing one stream does not wait
 * for another.
 */
class ConcurrencyTest {
    private static final int THREADS = 8;
    /** Threads [OWN_STREAMS, THREADS) share one stream; the others have one each. */
    private static final int OWN_STREAMS = 5;
    private static final int ROUNDS = 4;
    /**
     * Inline on an idle stream (up to Executor.INLINE_ELEMENTS, 2^16), inline and split across
     * compute threads (past 2^15), and on the stream's driver, split.
     */
    private static final int[] SIZES = {500, 20_000, 50_000, 120_000};
    private static final int CHAIN_ELEMENTS = 40_000;
    private static final int CHAIN_STEPS = 12;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    /** What one call is: operator, dtype, size, seed, layout. */
    private record Spec(Workload.Op op, int dtype, int elements, long seed, boolean strided) {
        Workload make() {
            return new Workload(op, dtype, elements, seed, strided);
        }
    }

    private static List<Spec> specs() {
        List<Spec> specs = new ArrayList<>();
        int k = 0;
        for (Workload.Op op : Workload.Op.values()) {
            for (int elements : SIZES) {
                specs.add(new Spec(op, Workload.FLOAT_TYPES[k % 3], elements, 0xC0C0 + k, k % 2 == 1));
                k++;
            }
        }
        return specs;
    }

    @Test
    void everyResultIsTheResultOfTheCallRunAlone() throws Exception {
        List<Spec> specs = specs();
        Map<Spec, byte[][]> alone = new HashMap<>();
        for (Spec spec : specs) {
            try (Workload w = spec.make()) {
                assertEquals(0, w.launch(null), () -> w + ": " + Acl.getRecentErrMsg());
                assertEquals(0, AclRt.synchronizeStream(null), () -> w + ": " + Acl.getRecentErrMsg());
                alone.put(spec, w.writtenOutputs());
            }
        }
        AclrtStream shared = newStream();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int t = 0; t < THREADS; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    worker(index, index < OWN_STREAMS ? null : shared, specs, alone);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "concurrency-test-" + t);
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(5));
            assertFalse(thread.isAlive(), thread.getName() + " did not finish in 5 minutes");
        }
        assertEquals(0, AclRt.destroyStream(shared), Acl::getRecentErrMsg);
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " of " + THREADS + " threads failed",
                    failures.get(0));
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }

    /**
     * One thread's work: each round, a shuffled half of the specs plus a chain of dependent
     * doublings, all on its stream ({@code shared}, or its own when null), then one synchronize
     * and the checks.
     */
    private static void worker(int index, AclrtStream shared, List<Spec> specs, Map<Spec, byte[][]> alone) {
        TestDevice.init();
        AclrtStream stream = shared != null ? shared : newStream();
        SplittableRandom random = new SplittableRandom(index);
        List<Spec> mine = new ArrayList<>(specs);
        Collections.shuffle(mine, new Random(index));
        mine = mine.subList(0, specs.size() / 2);
        List<Workload> workloads = mine.stream().map(Spec::make).toList();
        try (Chain chain = new Chain(CHAIN_ELEMENTS)) {
            for (int round = 0; round < ROUNDS; round++) {
                List<Workload> order = new ArrayList<>(workloads);
                Collections.shuffle(order, new Random(random.nextLong()));
                int chainAt = random.nextInt(order.size() + 1);
                for (int i = 0; i <= order.size(); i++) {
                    if (i == chainAt) {
                        chain.launch(CHAIN_STEPS, stream);
                    }
                    if (i < order.size()) {
                        Workload w = order.get(i);
                        assertEquals(0, w.launch(stream), () -> w + ": " + Acl.getRecentErrMsg());
                    }
                }
                assertEquals(0, AclRt.synchronizeStream(stream), () -> "thread " + index + ": "
                        + Acl.getRecentErrMsg());
                chain.check(CHAIN_STEPS, "thread " + index + " round " + round);
                for (int i = 0; i < workloads.size(); i++) {
                    Workload w = workloads.get(i);
                    w.retire();
                    byte[][] expected = alone.get(mine.get(i));
                    byte[][] got = w.outputs();
                    for (int k = 0; k < got.length; k++) {
                        assertArrayEquals(expected[k], got[k], "thread " + index + " round " + round + ": output "
                                + k + " of " + w + " differs from the call run alone");
                    }
                    w.resetOutputs();
                }
            }
        } finally {
            workloads.forEach(Workload::close);
            if (shared == null) {
                AclRt.destroyStream(stream);
            }
        }
    }

    /**
     * Stream independence, made deterministic: a task that waits on a latch holds one stream busy
     * (layer 1 has no call that blocks a stream for a known time, so the test reaches the runtime's
     * stream behind the handle). Work queued behind it must not run early, while another stream,
     * and the default stream, finish and synchronize meanwhile.
     */
    @Test
    void synchronizeWaitsOnlyForItsOwnStream() throws Exception {
        queuedWorkWaitsBehindABusyTask();
    }

    /**
     * The same after a task that interrupted its own thread: the stream threads are pooled, and the
     * held stream's task, which waits interruptibly, often lands on that thread. An interrupt left
     * set would end its wait at once and let the work queued behind it run early.
     */
    @Test
    void aTaskThatInterruptsItsThreadLeavesTheNextTasksInOrder() throws Exception {
        for (int round = 0; round < 3; round++) {
            AclrtStream interrupting = newStream();
            Internals.of(interrupting).submit(workspace -> Thread.currentThread().interrupt(),
                    java.lang.foreign.MemorySegment.NULL, false);
            assertEquals(0, AclRt.destroyStream(interrupting), Acl::getRecentErrMsg);
            queuedWorkWaitsBehindABusyTask();
        }
    }

    private static void queuedWorkWaitsBehindABusyTask() throws Exception {
        AclrtStream held = newStream();
        AclrtStream other = newStream();
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        try (Workload behind = new Workload(Workload.Op.GROUP_NORM_BACKWARD, ACL_FLOAT, 50_000, 1, false);
                Workload beside = new Workload(Workload.Op.BCE_WITH_LOGITS, ACL_FLOAT, 50_000, 2, true);
                Workload onDefault = new Workload(Workload.Op.PRELU_BACKWARD, ACL_FLOAT, 50_000, 3, false)) {
            byte[][] untouched = behind.outputs();
            Internals.of(held).submit(workspace -> awaitQuietly(release), java.lang.foreign.MemorySegment.NULL, false);
            assertEquals(0, behind.launch(held), Acl::getRecentErrMsg);
            assertEquals(0, beside.launch(other), Acl::getRecentErrMsg);
            assertEquals(0, onDefault.launch(null), Acl::getRecentErrMsg);
            for (AclrtStream s : new AclrtStream[] {other, null}) {
                Future<Integer> sync = waiter.submit(() -> AclRt.synchronizeStream(s));
                try {
                    assertEquals(0, sync.get(60, TimeUnit.SECONDS), Acl::getRecentErrMsg);
                } catch (TimeoutException e) {
                    throw new AssertionError("synchronizing " + (s == null ? "the default stream" : "a stream")
                            + " waited for another stream's work", e);
                }
            }
            byte[][] stillWaiting = behind.outputs();
            for (int k = 0; k < untouched.length; k++) {
                assertArrayEquals(untouched[k], stillWaiting[k], "work queued behind a busy task ran before it");
            }
            release.countDown();
            assertEquals(0, AclRt.synchronizeStream(held), Acl::getRecentErrMsg);
            byte[][] done = behind.outputs();
            assertFalse(Arrays.deepEquals(untouched, done), "the queued work never ran");
        } finally {
            release.countDown();
            waiter.shutdownNow();
            AclRt.destroyStream(held);
            AclRt.destroyStream(other);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static AclrtStream newStream() {
        AclrtStream stream = new AclrtStream();
        assertEquals(0, AclRt.createStream(stream), Acl::getRecentErrMsg);
        return stream;
    }

    /**
     * Two FLOAT vectors and BCE backward with self = 0.5, target = 0 and no weight, which makes
     * out = 2 · gradOutput exactly: a chain of steps, each reading what the one before wrote,
     * ends at 2^steps only if the stream ran them in order.
     */
    private static final class Chain implements AutoCloseable {
        private final int n;
        private final Pointer a;
        private final Pointer b;
        private final Pointer half;
        private final Pointer zero;
        private final List<AclTensor> tensors = new ArrayList<>();

        Chain(int n) {
            this.n = n;
            this.a = TestDevice.malloc(n * 4L);
            this.b = TestDevice.malloc(n * 4L);
            this.half = TestDevice.upload(filled(n, 0.5f));
            this.zero = TestDevice.malloc(n * 4L);
        }

        void launch(int steps, AclrtStream stream) {
            fill(a, 1f);
            for (int k = 0; k < steps; k++) {
                Pointer from = k % 2 == 0 ? a : b;
                Pointer to = k % 2 == 0 ? b : a;
                long[] size = new long[1];
                AclOpExecutor executor = new AclOpExecutor();
                assertEquals(0, Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(vector(from), vector(half),
                        vector(zero), null, 0, vector(to), size, executor), Acl::getRecentErrMsg);
                assertEquals(0, size[0]);
                assertEquals(0, Aclnn.binaryCrossEntropyBackward(new Pointer(), 0, executor, stream),
                        Acl::getRecentErrMsg);
            }
        }

        /** After a synchronize: the last step's output holds 2^steps everywhere. */
        void check(int steps, String what) {
            float[] got = TestDevice.downloadFloats(steps % 2 == 0 ? a : b, n);
            assertArrayEquals(filled(n, (float) Math.pow(2, steps)), got, what + ": the chain ran out of order");
            tensors.forEach(Acl::destroyTensor);
            tensors.clear();
        }

        private void fill(Pointer p, float value) {
            float[] host = filled(n, value);
            assertEquals(0, AclRt.memcpy(p, n * 4L, Pointer.to(host), n * 4L, ACL_MEMCPY_HOST_TO_DEVICE));
        }

        private AclTensor vector(Pointer data) {
            AclTensor t = Acl.createTensor(new long[] {n}, 1, ACL_FLOAT, null, 0, ACL_FORMAT_ND, new long[] {n}, 1,
                    data);
            tensors.add(t);
            return t;
        }

        private static float[] filled(int n, float value) {
            float[] a = new float[n];
            Arrays.fill(a, value);
            return a;
        }

        @Override
        public void close() {
            tensors.forEach(Acl::destroyTensor);
            for (Pointer p : new Pointer[] {a, b, half, zero}) {
                TestDevice.free(p);
            }
        }
    }
}
