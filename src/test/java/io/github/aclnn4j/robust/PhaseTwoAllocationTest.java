package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclFormat;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Phase 2 allocates nothing. A repeatable executor of each operator, launched and synchronized
 * again and again, leaves the allocated-bytes counters where they were: for a small call on an
 * idle stream (the work runs inline) the calling thread's, for a large one ({@link #largeCalls}:
 * a stream driver thread and both compute threads) every thread's. A lambda, iterator, queue node
 * or slice slipped into the launch path shows up here as tens of bytes per call. Until C2 has
 * compiled the path, the JDK's own wrappers (a heap segment around an array being copied) are
 * still allocated, so rounds run until one allocates nothing, for at most {@link #SETTLE_SECONDS}.
 * The budget is wall time, not a count of rounds: NLL backward's 200-call rounds take about 2 ms
 * each, and on a busy two-core machine C2 had not compiled its path after 25 of them (240 bytes per
 * call in CI, settled after 16 rounds or 0.5 s here).
 *
 * <p>Each case is measured in a fresh JVM ({@link #main}), as the benchmarks are: in the test
 * JVM, once Jazzer's agent has attached and re-instrumented the loaded classes (deoptimizing all
 * compiled code), C2 once recompiled BCE with logits' vector loop so that it boxed vectors
 * (368 bytes per call), a state that depends on what ran before.
 *
 * <p>{@link #MIXED} uses one operator as a long-lived program does: BCE with logits, mean and
 * then none, in every dtype. Its loops once had a store-or-sum branch: the first none call after
 * compiled means sent the loop back to unoptimized code, which boxes vectors (2 s for a call of
 * 2^24 elements, megabytes allocated), until C2 had compiled it again: 3.7 MB per 512x512 call
 * here, against 0 to 1 byte now.
 */
class PhaseTwoAllocationTest {
    private static final int ROUND = 20_000;
    private static final int SETTLE_SECONDS = 20;
    /** Side of {@link #largeCalls}: 2^18 elements, past both the inline and the parallel thresholds. */
    private static final int LARGE_SIDE = 512;
    private static final int LARGE_ROUND = 200;
    static final String MIXED = "BCE with logits 512x512, mean then none, every dtype";
    /** Side of {@link #MIXED}'s square: enough elements for both threads and the direct loops. */
    private static final int SIDE = 512;
    private static final int MIXED_CALLS = 1000;
    /**
     * Bytes a {@link #MIXED} call may allocate, on every thread, in the first calls after each
     * switch of dtype or mode, while the JIT settles (0 to 1 byte measured); boxed vectors would
     * take megabytes.
     */
    private static final long MIXED_BUDGET = 16 * 1024;

    static final String PRELU_WEIGHTS = "PReLU backward 2x2048x64 BFLOAT16, 2048 weights";
    private static final int PRELU_CALLS = 200;

    private final AclrtStream stream = new AclrtStream();

    private void init() {
        TestDevice.init();
        assertEquals(0, AclRt.createStream(stream), Acl::getRecentErrMsg);
    }

    private void destroy() {
        AclRt.destroyStream(stream);
    }

    private interface Phase1 {
        int plan(long[] workspaceSize, AclOpExecutor executor);
    }

    private interface Phase2 {
        int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    private static AclTensor tensor(int dtype, Pointer data, long... shape) {
        long[] strides = new long[shape.length];
        long step = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            strides[d] = step;
            step *= shape[d];
        }
        return Acl.createTensor(shape, shape.length, dtype, strides, 0, AclFormat.ACL_FORMAT_ND, shape, shape.length,
                data);
    }

    private static Pointer ones(int count) {
        float[] host = new float[count];
        Arrays.fill(host, 0.5f);
        return TestDevice.upload(host);
    }

    static Stream<Arguments> calls() {
        return calls(2);
    }

    /** Calls big enough for a driver thread and both compute threads. */
    static Stream<Arguments> largeCalls() {
        return calls(LARGE_SIDE);
    }

    /** A call of each operator, of about {@code side}² elements. */
    private static Stream<Arguments> calls(int side) {
        int n = side * side;
        int inner = n / 4;
        int hxw = n / 8 * 2;
        int classes = side / 2 + 2;
        long[] targets = new long[side];
        for (int i = 0; i < side; i++) {
            targets[i] = (2L * i) % classes;
        }
        return Stream.of(
                Arguments.of("BCE backward " + side + "x" + side + ", mean", (Phase1) (ws, ex) ->
                        Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(tensor(ACL_FLOAT, ones(1)),
                                tensor(ACL_FLOAT, ones(n), side, side), tensor(ACL_FLOAT, ones(n), side, side), null, 1,
                                tensor(ACL_FLOAT, ones(n), side, side), ws, ex),
                        (Phase2) Aclnn::binaryCrossEntropyBackward),
                Arguments.of("BCE with logits " + side + "x" + side + ", mean", (Phase1) (ws, ex) ->
                        Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(tensor(ACL_FLOAT, ones(n), side, side),
                                tensor(ACL_FLOAT, ones(n), side, side), null, null, 1, tensor(ACL_FLOAT, ones(1)), ws,
                                ex),
                        (Phase2) Aclnn::binaryCrossEntropyWithLogits),
                Arguments.of("PReLU backward 2x2x" + inner, (Phase1) (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(
                        tensor(ACL_FLOAT, ones(n), 2, 2, inner), tensor(ACL_FLOAT, ones(n), 2, 2, inner),
                        tensor(ACL_FLOAT, ones(2), 2), tensor(ACL_FLOAT, ones(n), 2, 2, inner),
                        tensor(ACL_FLOAT, ones(2), 2), ws, ex),
                        (Phase2) Aclnn::preluBackward),
                Arguments.of("GroupNorm backward 2x4x" + hxw + ", 2 groups", (Phase1) (ws, ex) ->
                        Aclnn.groupNormBackwardGetWorkspaceSize(tensor(ACL_FLOAT, ones(8 * hxw), 2, 4, hxw),
                                tensor(ACL_FLOAT, ones(8 * hxw), 2, 4, hxw), tensor(ACL_FLOAT, ones(4), 2, 2),
                                tensor(ACL_FLOAT, ones(4), 2, 2), tensor(ACL_FLOAT, ones(4), 4), 2, 4, hxw, 2,
                                Acl.createBoolArray(new boolean[] {true, true, true}, 3),
                                tensor(ACL_FLOAT, ones(8 * hxw), 2, 4, hxw), tensor(ACL_FLOAT, ones(4), 4),
                                tensor(ACL_FLOAT, ones(4), 4), ws, ex), (Phase2) Aclnn::groupNormBackward),
                Arguments.of("NLL backward " + side + "x" + classes + ", mean", (Phase1) (ws, ex) ->
                        Aclnn.nllLossBackwardGetWorkspaceSize(tensor(ACL_FLOAT, ones(1)),
                                tensor(ACL_FLOAT, ones(side * classes), side, classes),
                                tensor(ACL_INT64, TestDevice.upload(targets), side),
                                tensor(ACL_FLOAT, ones(classes), classes), 1, -100, tensor(ACL_FLOAT, ones(1)),
                                tensor(ACL_FLOAT, ones(side * classes), side, classes), ws, ex),
                        (Phase2) Aclnn::nllLossBackward));
    }

    /**
     * 16-bit inputs that lie transposed or channels-last, which phase 2 copies into the workspace
     * and computes over there, and FLOAT inputs that lie transposed with long memory runs, computed
     * in their order into the workspace: the kernel over the workspace is built at the first launch
     * over it, not at every launch ({@code kernel.OverWorkspace}).
     */
    static Stream<Arguments> stagedCalls() {
        int side = 64;
        int n = side * side;
        long[] transposed = {1, side};
        int channels = 64;
        int positions = 64;
        int numel = 2 * channels * positions;
        long[] channelsLast = {(long) channels * positions, 1, 8L * channels, channels};
        return Stream.of(
                Arguments.of("BCE with logits BFLOAT16 64x64 transposed, mean", (Phase1) (ws, ex) ->
                        Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(
                                permuted(ACL_BF16, halves(ACL_BF16, n), transposed, side, side),
                                permuted(ACL_BF16, halves(ACL_BF16, n), transposed, side, side), null, null, 1,
                                tensor(ACL_BF16, halves(ACL_BF16, 1)), ws, ex),
                        (Phase2) Aclnn::binaryCrossEntropyWithLogits),
                Arguments.of("BCE with logits BFLOAT16 64x64 transposed, none", (Phase1) (ws, ex) ->
                        Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(
                                permuted(ACL_BF16, halves(ACL_BF16, n), transposed, side, side),
                                permuted(ACL_BF16, halves(ACL_BF16, n), transposed, side, side), null, null, 0,
                                tensor(ACL_BF16, halves(ACL_BF16, n), side, side), ws, ex),
                        (Phase2) Aclnn::binaryCrossEntropyWithLogits),
                Arguments.of("BCE backward FLOAT 512x8 transposed, none", (Phase1) (ws, ex) ->
                        Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(
                                permuted(ACL_FLOAT, ones(n), new long[] {1, 512}, 512, 8),
                                permuted(ACL_FLOAT, ones(n), new long[] {1, 512}, 512, 8),
                                permuted(ACL_FLOAT, ones(n), new long[] {1, 512}, 512, 8), null, 0,
                                tensor(ACL_FLOAT, ones(n), 512, 8), ws, ex),
                        (Phase2) Aclnn::binaryCrossEntropyBackward),
                Arguments.of("PReLU backward BFLOAT16 2x64x8x8 channels-last", (Phase1) (ws, ex) ->
                        Aclnn.preluBackwardGetWorkspaceSize(
                                permuted(ACL_BF16, halves(ACL_BF16, numel), channelsLast, 2, channels, 8, 8),
                                permuted(ACL_BF16, halves(ACL_BF16, numel), channelsLast, 2, channels, 8, 8),
                                tensor(ACL_BF16, halves(ACL_BF16, channels), channels),
                                tensor(ACL_BF16, halves(ACL_BF16, numel), 2, channels, 8, 8),
                                tensor(ACL_BF16, halves(ACL_BF16, channels), channels), ws, ex),
                        (Phase2) Aclnn::preluBackward));
    }

    /** A view of {@code shape} with {@code strides} over memory of as many elements. */
    private static AclTensor permuted(int dtype, Pointer data, long[] strides, long... shape) {
        long numel = Arrays.stream(shape).reduce(1, (a, b) -> a * b);
        return Acl.createTensor(shape, shape.length, dtype, strides, 0, AclFormat.ACL_FORMAT_ND, new long[] {numel}, 1,
                data);
    }

    /**
     * Bytes allocated per phase 2 + synchronize in the last round (0 as soon as a round allocates
     * nothing): by the calling thread, or by every thread of the JVM ({@code allThreads}).
     */
    private long bytesPerCall(Phase1 phase1, Phase2 phase2, boolean allThreads, int round) {
        long[] workspaceSize = new long[1];
        AclOpExecutor executor = new AclOpExecutor();
        assertEquals(0, phase1.plan(workspaceSize, executor), Acl::getRecentErrMsg);
        assertEquals(0, Acl.setAclOpExecutorRepeatable(executor), Acl::getRecentErrMsg);
        Pointer workspace = workspaceSize[0] > 0 ? TestDevice.malloc(workspaceSize[0]) : new Pointer();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        LongSupplier allocated = allThreads ? threads::getTotalThreadAllocatedBytes
                : threads::getCurrentThreadAllocatedBytes;
        long perCall = -1;
        long deadline = System.nanoTime() + SETTLE_SECONDS * 1_000_000_000L;
        while (perCall != 0 && System.nanoTime() < deadline) {
            long before = allocated.getAsLong();
            for (int i = 0; i < round; i++) {
                launchAndSync(phase2, workspace, workspaceSize[0], executor);
            }
            long after = allocated.getAsLong();
            perCall = (after - before + round - 1) / round; // rounded up: a single byte counts
        }
        if (perCall != 0 && allThreads) {
            System.out.print(allocatingThreads(threads, phase2, workspace, workspaceSize[0], executor, round));
        }
        return perCall;
    }

    /**
     * For a failure's message: one more round, and the bytes per call of each thread that allocated
     * during it (the caller, the stream's thread, the compute threads, or something else running
     * beside them).
     */
    private String allocatingThreads(com.sun.management.ThreadMXBean threads, Phase2 phase2, Pointer workspace,
            long workspaceSize, AclOpExecutor executor, int round) {
        long[] ids = threads.getAllThreadIds();
        long[] before = threads.getThreadAllocatedBytes(ids);
        for (int i = 0; i < round; i++) {
            launchAndSync(phase2, workspace, workspaceSize, executor);
        }
        long[] after = threads.getThreadAllocatedBytes(ids);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < ids.length; i++) {
            if (before[i] >= 0 && after[i] > before[i]) {
                java.lang.management.ThreadInfo info = threads.getThreadInfo(ids[i]);
                out.append("  thread ").append(info == null ? "#" + ids[i] : info.getThreadName()).append(": ")
                        .append((after[i] - before[i] + round - 1) / round).append(" bytes per call\n");
            }
        }
        return out.length() == 0 ? "  (no thread allocated in one more round)\n" : out.toString();
    }

    /** {@code count} values 0.5 stored as {@code dtype}. */
    private static Pointer halves(int dtype, int count) {
        if (dtype == ACL_FLOAT) {
            return ones(count);
        }
        short[] host = new short[count];
        Arrays.fill(host, dtype == ACL_FLOAT16 ? Float.floatToFloat16(0.5f) : (short) 0x3F00);
        return TestDevice.upload(host);
    }

    /**
     * {@link #MIXED}: mean in each dtype until compiled, then none in each dtype; the largest bytes
     * per call (all threads) of the none calls. Going from mean to none must not send the JIT back:
     * deoptimized vector loops run in the interpreter or C1, which box every vector.
     */
    private long mixedBytesPerCall() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long worst = 0;
        for (int reduction : new int[] {1, 0}) {
            for (int dtype : new int[] {ACL_FLOAT, ACL_BF16, ACL_FLOAT16}) {
                long[] workspaceSize = new long[1];
                AclOpExecutor executor = new AclOpExecutor();
                AclTensor out = reduction == 0 ? tensor(dtype, halves(dtype, SIDE * SIDE), SIDE, SIDE)
                        : tensor(dtype, halves(dtype, 1), 1);
                assertEquals(0, Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(
                        tensor(dtype, halves(dtype, SIDE * SIDE), SIDE, SIDE),
                        tensor(dtype, halves(dtype, SIDE * SIDE), SIDE, SIDE), null, null, reduction, out,
                        workspaceSize, executor), Acl::getRecentErrMsg);
                assertEquals(0, Acl.setAclOpExecutorRepeatable(executor), Acl::getRecentErrMsg);
                Pointer workspace = workspaceSize[0] > 0 ? TestDevice.malloc(workspaceSize[0]) : new Pointer();
                long before = threads.getTotalThreadAllocatedBytes();
                for (int i = 0; i < MIXED_CALLS; i++) {
                    launchAndSync(Aclnn::binaryCrossEntropyWithLogits, workspace, workspaceSize[0], executor);
                }
                if (reduction == 0) {
                    worst = Math.max(worst, (threads.getTotalThreadAllocatedBytes() - before) / MIXED_CALLS);
                }
            }
        }
        return worst;
    }

    /**
     * {@link #PRELU_WEIGHTS}: bytes per call (all threads) of the first calls of a fresh JVM. Code
     * that runs once per call, like the gather of the weights, stays interpreted or C1-compiled for
     * seconds; Vector API code there boxes every vector (it took 8 bytes per BFLOAT16 weight).
     */
    private long preluWeightsBytesPerCall() {
        long[] workspaceSize = new long[1];
        AclOpExecutor executor = new AclOpExecutor();
        int channels = 2048;
        int numel = 2 * channels * 64;
        assertEquals(0, Aclnn.preluBackwardGetWorkspaceSize(tensor(ACL_BF16, halves(ACL_BF16, numel), 2, channels, 64),
                tensor(ACL_BF16, halves(ACL_BF16, numel), 2, channels, 64),
                tensor(ACL_BF16, halves(ACL_BF16, channels), channels),
                tensor(ACL_BF16, halves(ACL_BF16, numel), 2, channels, 64),
                tensor(ACL_BF16, halves(ACL_BF16, channels), channels), workspaceSize, executor),
                Acl::getRecentErrMsg);
        assertEquals(0, Acl.setAclOpExecutorRepeatable(executor), Acl::getRecentErrMsg);
        Pointer workspace = workspaceSize[0] > 0 ? TestDevice.malloc(workspaceSize[0]) : new Pointer();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < PRELU_CALLS; i++) { // the hot loops reach C2
            launchAndSync(Aclnn::preluBackward, workspace, workspaceSize[0], executor);
        }
        long before = threads.getTotalThreadAllocatedBytes();
        for (int i = 0; i < PRELU_CALLS; i++) {
            launchAndSync(Aclnn::preluBackward, workspace, workspaceSize[0], executor);
        }
        return (threads.getTotalThreadAllocatedBytes() - before) / PRELU_CALLS;
    }

    /** The probe: measures the named call in this JVM and prints the bytes per call. */
    public static void main(String[] args) {
        PhaseTwoAllocationTest probe = new PhaseTwoAllocationTest();
        probe.init();
        try {
            if (args[0].equals(MIXED) || args[0].equals(PRELU_WEIGHTS)) {
                long perCall = args[0].equals(MIXED) ? probe.mixedBytesPerCall() : probe.preluWeightsBytesPerCall();
                System.out.println("bytes per call: " + (perCall <= MIXED_BUDGET ? 0 : perCall) + "\n"
                        + "(measured " + perCall + ", budget " + MIXED_BUDGET + ")");
                return;
            }
            boolean large = largeCalls().anyMatch(a -> a.get()[0].equals(args[0]));
            Arguments call = Stream.of(calls(), largeCalls(), stagedCalls()).flatMap(c -> c)
                    .filter(a -> a.get()[0].equals(args[0])).findFirst().orElseThrow();
            System.out.println("bytes per call: " + probe.bytesPerCall((Phase1) call.get()[1], (Phase2) call.get()[2],
                    large, large ? LARGE_ROUND : ROUND));
        } finally {
            probe.destroy();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void phaseTwoAllocatesNothing(String name, Phase1 phase1, Phase2 phase2) throws Exception {
        assertProbeAllocatesNothing(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stagedCalls")
    void phaseTwoOfAStagedCallAllocatesNothing(String name, Phase1 phase1, Phase2 phase2) throws Exception {
        assertProbeAllocatesNothing(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("largeCalls")
    void phaseTwoOfALargeCallAllocatesNothingOnAnyThread(String name, Phase1 phase1, Phase2 phase2) throws Exception {
        assertProbeAllocatesNothing(name);
    }

    @org.junit.jupiter.api.Test
    void mixedUseOfOneOperatorAllocatesNothing() throws Exception {
        assertProbeAllocatesNothing(MIXED);
    }

    @org.junit.jupiter.api.Test
    void onceACallCodeAllocatesNothingBeforeItIsHot() throws Exception {
        assertProbeAllocatesNothing(PRELU_WEIGHTS);
    }

    /**
     * Runs {@link #main} in a fresh JVM for the named probe, with the Vector API's loops from the
     * first call: the warm-up thread (kernel.Warmup) allocates while its loops are not yet
     * compiled, and the probes that count every thread's bytes would count it.
     */
    private static void assertProbeAllocatesNothing(String name) throws Exception {
        String output = ChildJvm.runWith(java.util.List.of("-Daclnn4j.warmup=false"), PhaseTwoAllocationTest.class,
                name);
        assertEquals(true, output.contains("bytes per call: 0\n"),
                name + ": phase 2 + synchronize should allocate nothing once compiled, within "
                        + SETTLE_SECONDS + " s of calls; the probe said:\n" + output);
    }

    private void launchAndSync(Phase2 phase2, Pointer workspace, long workspaceSize, AclOpExecutor executor) {
        int status = phase2.launch(workspace, workspaceSize, executor, stream);
        if (status != 0 || AclRt.synchronizeStream(stream) != 0) {
            throw new AssertionError("launch failed: " + status + " " + Acl.getRecentErrMsg());
        }
    }
}
