package io.github.aclnn4j.rt;

import static io.github.aclnn4j.acl.AclError.ACL_ERROR_INVALID_PARAM;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.checks.Calls;
import io.github.aclnn4j.checks.DeviceArena;
import io.github.aclnn4j.checks.OpArgs;
import io.github.aclnn4j.checks.Operator;
import io.github.aclnn4j.testing.TestDevice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SPEC §1 streams: in-order queues, the default stream, independent synchronization, destroy.
 * The work is BCE backward with self = 0.5 and target = 0, which makes out = 2 · gradOutput exactly.
 */
class StreamTest {
    private static final Operator BCE = Operator.BCE_BACKWARD;

    @BeforeEach
    void init() {
        TestDevice.init();
    }

    private static AclrtStream newStream() {
        AclrtStream stream = new AclrtStream();
        Calls.ok("aclrtCreateStream", () -> AclRt.createStream(stream));
        return stream;
    }

    private static AclTensor vector(DeviceArena arena, Pointer data, int n) {
        return arena.create(new DeviceArena.TensorSpec(data, ACL_FLOAT, new long[] {n}, null, 0, ACL_FORMAT_ND));
    }

    /** Phase 1 of out = 2 · gradOutput over [n] vectors, sharing one self and one target per length. */
    private record Doubling(DeviceArena arena, AclTensor self, AclTensor target) {
        static Doubling of(DeviceArena arena, int n) {
            double[] half = new double[n];
            Arrays.fill(half, 0.5);
            return new Doubling(arena, arena.values(ACL_FLOAT, half, n), arena.values(ACL_FLOAT, new double[n], n));
        }

        AclOpExecutor plan(AclTensor gradOutput, AclTensor out) {
            OpArgs args = BCE.baseline(arena, ACL_FLOAT).set("gradOutput", gradOutput).set("self", self)
                    .set("target", target).set("weightOptional", null).set("out", out);
            long[] size = new long[1];
            AclOpExecutor executor = args.planned(size);
            assertTrue(size[0] == 0, "these tests assume BCE backward needs no workspace");
            return executor;
        }
    }

    private static void launch(AclOpExecutor executor, AclrtStream stream) {
        Calls.ok(BCE.cName, () -> BCE.launchGuarded(new Pointer(), 0, executor, stream));
    }

    private static float[] filled(int n, float value) {
        float[] a = new float[n];
        Arrays.fill(a, value);
        return a;
    }

    /** Twenty ops, each reading what the one before wrote: only in-order execution gives 2^20. */
    private static List<AclOpExecutor> pingPong(DeviceArena arena, Pointer a, Pointer b, int n) {
        AclTensor ta = vector(arena, a, n);
        AclTensor tb = vector(arena, b, n);
        Doubling doubling = Doubling.of(arena, n);
        List<AclOpExecutor> chain = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            chain.add(k % 2 == 0 ? doubling.plan(ta, tb) : doubling.plan(tb, ta));
        }
        return chain;
    }

    @Test
    void streamRunsItsWorkInOrder() {
        int n = 1 << 16;
        try (DeviceArena arena = new DeviceArena()) {
            double[] ones = new double[n];
            Arrays.fill(ones, 1);
            Pointer a = arena.upload(ACL_FLOAT, ones);
            Pointer b = arena.buffer(n * 4L);
            List<AclOpExecutor> chain = pingPong(arena, a, b, n);
            AclrtStream stream = newStream();
            chain.forEach(e -> launch(e, stream));
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(stream));
            assertArrayEquals(filled(n, 1 << 20), DeviceArena.readFloats(a, n));
            Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(stream));
        }
    }

    @Test
    void lastWriteWins() {
        int n = 4096;
        try (DeviceArena arena = new DeviceArena()) {
            Pointer out = arena.buffer(n * 4L);
            AclTensor outTensor = vector(arena, out, n);
            Doubling doubling = Doubling.of(arena, n);
            List<AclOpExecutor> writes = new ArrayList<>();
            for (int k = 1; k <= 30; k++) {
                double[] g = new double[n];
                Arrays.fill(g, k);
                writes.add(doubling.plan(vector(arena, arena.upload(ACL_FLOAT, g), n), outTensor));
            }
            for (AclrtStream stream : new AclrtStream[] {null, new AclrtStream()}) {
                writes.forEach(e -> launch(e, stream));
                Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(stream));
                assertArrayEquals(filled(n, 60), DeviceArena.readFloats(out, n));
                for (int i = 0; i < writes.size(); i++) {
                    double[] g = new double[n];
                    Arrays.fill(g, i + 1);
                    writes.set(i, doubling.plan(vector(arena, arena.upload(ACL_FLOAT, g), n), outTensor));
                }
            }
        }
    }

    @Test
    void nullAndEmptyStreamsAreTheDefaultStream() {
        try (DeviceArena arena = new DeviceArena()) {
            BCE.baseline(arena, ACL_FLOAT).run(null);
            BCE.baseline(arena, ACL_FLOAT).run(new AclrtStream());
            Calls.ok("aclrtSynchronizeStream(null)", () -> AclRt.synchronizeStream(null));
        }
    }

    @Test
    void destroyStreamFinishesItsWork() {
        int n = 1024;
        try (DeviceArena arena = new DeviceArena()) {
            double[] ones = new double[n];
            Arrays.fill(ones, 1);
            Pointer a = arena.upload(ACL_FLOAT, ones);
            Pointer b = arena.buffer(n * 4L);
            List<AclOpExecutor> chain = pingPong(arena, a, b, n);
            AclrtStream stream = newStream();
            chain.forEach(e -> launch(e, stream));
            Calls.ok("aclrtDestroyStream with queued work", () -> AclRt.destroyStream(stream));
            assertArrayEquals(filled(n, 1 << 20), DeviceArena.readFloats(a, n));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream",
                    "aclrtSynchronizeStream of a destroyed stream", () -> AclRt.synchronizeStream(stream));
            Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream", "second aclrtDestroyStream",
                    () -> AclRt.destroyStream(stream));
        }
    }

    @Test
    void streamMisuse() {
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream", "aclrtCreateStream(null)",
                () -> AclRt.createStream(null));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream", "aclrtDestroyStream(null)",
                () -> AclRt.destroyStream(null));
        Calls.fails(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream", "aclrtDestroyStream(empty holder)",
                () -> AclRt.destroyStream(new AclrtStream()));
        Calls.ok("aclrtSynchronizeStream(default)", () -> AclRt.synchronizeStream(null));
    }

    /**
     * Synchronizing a stream waits for that stream only: a small op on one stream completes while
     * a long queue on another is still running.
     */
    @Test
    void synchronizeWaitsOnlyForItsOwnStream() {
        int n = 1 << 21;
        try (DeviceArena arena = new DeviceArena()) {
            AclTensor g = vector(arena, arena.buffer(n * 4L), n);
            AclTensor out = vector(arena, arena.buffer(n * 4L), n);
            AclrtStream busy = newStream();
            AclrtStream quick = newStream();
            Doubling doubling = Doubling.of(arena, n);
            // the fastest of five runs calibrates: in CI a run still cold took over 250 ms, so only 4
            // were queued (9 ms in all), and a quick stream slowed by the busy one's two threads lost
            long oneRun = Long.MAX_VALUE;
            for (int warm = 0; warm < 5; warm++) {
                long begin = System.nanoTime();
                launch(doubling.plan(g, out), busy);
                Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(busy));
                oneRun = Math.min(oneRun, Math.max(1, System.nanoTime() - begin));
            }
            int runs = Math.clamp(300_000_000L / oneRun, 16, 2000); // 0.3 s of work queued, and at least 16 runs
            List<AclOpExecutor> queue = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                queue.add(doubling.plan(g, out));
            }
            AclOpExecutor small = Doubling.of(arena, 16).plan(vector(arena, arena.buffer(64), 16),
                    vector(arena, arena.buffer(64), 16));
            long start = System.nanoTime();
            queue.forEach(e -> launch(e, busy));
            launch(small, quick);
            Calls.ok("aclrtSynchronizeStream(quick)", () -> AclRt.synchronizeStream(quick));
            long quickDone = System.nanoTime() - start;
            Calls.ok("aclrtSynchronizeStream(busy)", () -> AclRt.synchronizeStream(busy));
            long busyDone = System.nanoTime() - start;
            assertTrue(quickDone < busyDone / 2, "the quick stream took " + quickDone / 1_000_000 + " ms, the busy one "
                    + busyDone / 1_000_000 + " ms (" + runs + " runs)");
            Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(busy));
            Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(quick));
        }
    }

    /** Several threads, each with its own stream, run all five operators at once. */
    @Test
    void threadsWithTheirOwnStreams() throws InterruptedException {
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try (DeviceArena arena = new DeviceArena()) {
                    AclrtStream stream = newStream();
                    for (int round = 0; round < 5; round++) {
                        for (Operator op : Operator.values()) {
                            op.baseline(arena, ACL_FLOAT).run(stream);
                        }
                    }
                    Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(stream));
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " thread(s) failed", failures.get(0));
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }
}
