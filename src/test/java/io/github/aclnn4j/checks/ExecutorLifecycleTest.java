package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.ACL_BF16;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT16;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtMemcpyKind;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** SPEC §3: phase 2's own checks and the life of an executor (single use, repeatable, destroyed, wrong operator). */
class ExecutorLifecycleTest {
    private static final int INNER_NULLPTR = 561103;

    private record Planned(OpArgs args, AclOpExecutor executor, long workspaceSize) {}

    private static Planned plan(OpArgs args) {
        long[] size = new long[1];
        AclOpExecutor executor = args.planned(size);
        return new Planned(args, executor, size[0]);
    }

    private static Pointer workspaceFor(DeviceArena arena, long size) {
        return size > 0 ? arena.buffer(size) : new Pointer();
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void nullExecutor(Operator op) {
        TestDevice.init();
        Calls.fails(NULLPTR, op.cName, op.cName + "(executor null)", () -> op.launch(new Pointer(), 0, null, null));
        Calls.fails(NULLPTR, op.cName, op.cName + "(empty executor holder)",
                () -> op.launch(new Pointer(), 0, new AclOpExecutor(), null));
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void nullWorkspaceWithNonZeroSize(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            Planned p = plan(op.baseline(arena, ACL_FLOAT));
            long claimed = p.workspaceSize() + 64;
            Calls.fails(NULLPTR, op.cName, op.cName + "(null Pointer, size " + claimed + ")",
                    () -> op.launch(new Pointer(), claimed, p.executor(), null));
            Calls.fails(NULLPTR, op.cName, op.cName + "(Java null, size " + claimed + ")",
                    () -> op.launch(null, claimed, p.executor(), null));
            Calls.fails(NULLPTR, op.cName, op.cName + "(null, size 2^64-1)",
                    () -> op.launch(null, -1L, p.executor(), null));
        }
    }

    /** A configuration whose phase 1 asks for workspace, if any operator ever does. */
    private static Optional<Planned> needingWorkspace(DeviceArena arena) {
        Stream<Function<DeviceArena, OpArgs>> candidates = Stream.of(
                a -> Operator.BCE_WITH_LOGITS.baseline(a, ACL_FLOAT).set("reduction", 1).reshape("self", 64, 1024)
                        .reshape("target", 64, 1024).reshape("weightOptional", 1024).reshape("posWeightOptional", 1024)
                        .reshape("out", 1),
                a -> Operator.BCE_WITH_LOGITS.baseline(a, ACL_FLOAT16).set("reduction", 2).reshape("self", 64, 1024)
                        .reshape("target", 64, 1024).reshape("weightOptional", 1024).reshape("posWeightOptional", 1024)
                        .reshape("out", 1),
                a -> Operator.PRELU_BACKWARD.baseline(a, ACL_FLOAT).reshape("self", 64, 3, 4096)
                        .reshape("gradOutput", 64, 3, 4096).reshape("gradInput", 64, 3, 4096),
                a -> Operator.PRELU_BACKWARD.baseline(a, ACL_FLOAT).reshape("self", 64, 3, 4096)
                        .reshape("gradOutput", 64, 3, 4096).reshape("gradInput", 64, 3, 4096).reshape("weight", 1)
                        .reshape("gradWeight", 1),
                a -> Operator.GROUP_NORM_BACKWARD.baseline(a, ACL_FLOAT).set("N", 64).set("C", 64).set("HxW", 256)
                        .set("group", 8).reshape("gradOut", 64, 64, 256).reshape("input", 64, 64, 256)
                        .reshape("gradInput", 64, 64, 256).reshape("mean", 64, 8).reshape("rstd", 64, 8)
                        .reshape("gamma", 64).reshape("gradGammaOut", 64).reshape("gradBetaOut", 64),
                a -> Operator.BCE_BACKWARD.baseline(a, ACL_FLOAT16).set("reduction", 1),
                a -> Operator.NLL_LOSS_BACKWARD.baseline(a, ACL_FLOAT));
        return candidates.map(c -> plan(c.apply(arena))).filter(p -> p.workspaceSize() > 0).findFirst();
    }

    @Test
    void workspaceSmallerThanAskedFor() {
        try (DeviceArena arena = new DeviceArena()) {
            Optional<Planned> found = needingWorkspace(arena);
            Assumptions.assumeTrue(found.isPresent(), "no operator configuration tried asks for a workspace");
            Planned p = found.get();
            Operator op = p.args().operator;
            long needed = p.workspaceSize();
            Pointer workspace = arena.buffer(needed);
            Calls.fails(INVALID, op.cName, op.cName + "(workspaceSize one short)",
                    () -> op.launch(workspace, needed - 1, p.executor(), null));
            if (needed > 1) {
                Calls.fails(INVALID, op.cName, "lies outside", op.cName + "(workspace buffer one byte short)",
                        () -> op.launch(arena.buffer(needed - 1), needed, p.executor(), null));
            }
            Calls.fails(INVALID, op.cName, "lies outside", op.cName + "(workspace pointer near the end of its buffer)",
                    () -> op.launch(workspace.withByteOffset(1), needed, p.executor(), null));
            Pointer freed = arena.buffer(needed);
            arena.free(freed);
            Calls.fails(INVALID, op.cName, "already freed", op.cName + "(freed workspace)",
                    () -> op.launch(freed, needed, p.executor(), null));
            Calls.ok(op.cName, () -> op.launch(workspace, needed, p.executor(), null));
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void executorIsSingleUse(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            Planned p = plan(op.baseline(arena, ACL_FLOAT));
            Pointer workspace = workspaceFor(arena, p.workspaceSize());
            Calls.ok(op.cName, () -> op.launch(workspace, p.workspaceSize(), p.executor(), null));
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            Calls.fails(INVALID, op.cName, op.cName + " second run",
                    () -> op.launch(workspace, p.workspaceSize(), p.executor(), null));
            Calls.fails(INVALID, "aclSetAclOpExecutorRepeatable", "already run",
                    "aclSetAclOpExecutorRepeatable after the run",
                    () -> Acl.setAclOpExecutorRepeatable(p.executor()));
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void repeatableExecutorRunsUntilDestroyed(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            Planned p = plan(op.baseline(arena, ACL_FLOAT));
            Pointer workspace = workspaceFor(arena, p.workspaceSize());
            Calls.ok("aclSetAclOpExecutorRepeatable", () -> Acl.setAclOpExecutorRepeatable(p.executor()));
            for (int run = 0; run < 3; run++) {
                Calls.ok(op.cName + " run " + run, () -> op.launch(workspace, p.workspaceSize(), p.executor(), null));
            }
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            Calls.ok("aclDestroyAclOpExecutor", () -> Acl.destroyAclOpExecutor(p.executor()));
            Calls.fails(INVALID, op.cName, "destroyed by aclDestroyAclOpExecutor",
                    op.cName + " after aclDestroyAclOpExecutor",
                    () -> op.launch(workspace, p.workspaceSize(), p.executor(), null));
            Calls.fails(INVALID, "aclSetAclOpExecutorRepeatable", "destroyed by aclDestroyAclOpExecutor",
                    "aclSetAclOpExecutorRepeatable after aclDestroyAclOpExecutor",
                    () -> Acl.setAclOpExecutorRepeatable(p.executor()));
            Calls.fails(INVALID, "aclDestroyAclOpExecutor", "already destroyed", "aclDestroyAclOpExecutor twice",
                    () -> Acl.destroyAclOpExecutor(p.executor()));
        }
    }

    /**
     * A repeatable executor computes over the workspace each launch hands it. BFLOAT16 inputs that
     * lie transposed are copied into the workspace and the call reads the copies there; the kernel
     * over them is kept from launch to launch while the workspace stays the same, and must not be
     * kept for another: launched over a second workspace after new input data, a call reading the
     * first workspace's copies would give the old data's loss.
     */
    @Test
    void repeatableExecutorComputesOverTheWorkspaceItIsGiven() {
        int side = 64;
        int numel = side * side;
        try (DeviceArena arena = new DeviceArena()) {
            double[] first = new double[numel];
            double[] second = new double[numel];
            for (int i = 0; i < numel; i++) {
                first[i] = (i % 7) * 0.25 - 0.75;
                second[i] = (i % 5) * 0.5 - 1;
            }
            AclTensor self = arena.like(arena.values(ACL_BF16, first, side, side), s -> s.withStrides(1, side));
            AclTensor target = arena.like(arena.values(ACL_BF16, first, side, side), s -> s.withStrides(1, side));
            AclTensor out = arena.tensor(ACL_BF16);
            long[] size = new long[1];
            AclOpExecutor executor = new AclOpExecutor();
            Calls.ok("aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize", () -> Aclnn
                    .binaryCrossEntropyWithLogitsGetWorkspaceSize(self, target, null, null, 1, out, size, executor));
            Calls.ok("aclSetAclOpExecutorRepeatable", () -> Acl.setAclOpExecutorRepeatable(executor));
            Pointer one = arena.buffer(size[0]);
            Pointer other = arena.buffer(size[0]);
            Function<Pointer, String> loss = workspace -> {
                Calls.ok("aclnnBinaryCrossEntropyWithLogits",
                        () -> Aclnn.binaryCrossEntropyWithLogits(workspace, size[0], executor, null));
                Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
                return Arrays.toString(arena.dataBytes(out, 2));
            };
            String before = loss.apply(one);
            assertEquals(before, loss.apply(one), "the same launch again");
            byte[] data = DeviceArena.encode(ACL_BF16, second);
            Calls.ok("memcpy", () -> AclRt.memcpy(arena.spec(self).data(), data.length, Pointer.to(data), data.length,
                    AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE));
            String overOther = loss.apply(other);
            String overOne = loss.apply(one);
            assertNotEquals(before, overOne, "new self, a new loss");
            assertEquals(overOne, overOther, "the same loss over either workspace");
            Calls.ok("aclDestroyAclOpExecutor", () -> Acl.destroyAclOpExecutor(executor));
        }
    }

    /** A repeatable executor reads its inputs at each run, as a replayed device program would. */
    @Test
    void repeatableExecutorSeesNewInputData() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT)
                    .set("gradOutput", arena.values(ACL_FLOAT, new double[] {1, 1, 1, 1, 1, 1}, 2, 3))
                    .set("self", arena.values(ACL_FLOAT, new double[] {0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, 2, 3))
                    .set("target", arena.values(ACL_FLOAT, new double[6], 2, 3)).set("weightOptional", null);
            Planned p = plan(args);
            Pointer workspace = workspaceFor(arena, p.workspaceSize());
            Calls.ok("aclSetAclOpExecutorRepeatable", () -> Acl.setAclOpExecutorRepeatable(p.executor()));
            Pointer out = arena.spec(args.tensor("out")).data();
            Pointer self = arena.spec(args.tensor("self")).data();
            // out = (self - 0) / ((1 - self) * self) = 1 / (1 - self)
            for (float x : new float[] {0.25f, 0.5f, 0.75f}) {
                float[] host = new float[6];
                Arrays.fill(host, x);
                Calls.ok("memcpy", () -> AclRt.memcpy(self, 24, Pointer.to(host), 24,
                        AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE));
                Calls.ok("run", () -> Operator.BCE_BACKWARD.launch(workspace, p.workspaceSize(), p.executor(), null));
                Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
                float[] expected = new float[6];
                Arrays.fill(expected, 1 / (1 - x));
                assertArrayEquals(expected, DeviceArena.readFloats(out, 6), 1e-6f, "self = " + x);
            }
            Calls.ok("aclDestroyAclOpExecutor", () -> Acl.destroyAclOpExecutor(p.executor()));
        }
    }

    /**
     * A repeatable PReLU executor reads its weights at each run too, whichever way its plan takes
     * the layout: contiguous, a channels-last self into a contiguous out (computed and transposed
     * in one pass once warm), a channels-last self and out (a repeated row of weights).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void repeatablePreluSeesNewWeights(boolean outChannelsLast) {
        long[] shape = {2, 16, 8, 8};
        long[] channelsLast = {16 * 8 * 8, 1, 8 * 16, 16};
        try (DeviceArena arena = new DeviceArena()) {
            double[] minusOnes = new double[2 * 16 * 8 * 8];
            Arrays.fill(minusOnes, -1);
            for (boolean selfChannelsLast : new boolean[] {false, true}) {
                AclTensor self = arena.like(arena.values(ACL_FLOAT, minusOnes, shape),
                        t -> selfChannelsLast ? t.withStrides(channelsLast) : t);
                AclTensor weight = arena.tensor(ACL_FLOAT, 16);
                AclTensor out = arena.like(arena.tensor(ACL_FLOAT, shape),
                        t -> outChannelsLast ? t.withStrides(channelsLast) : t);
                OpArgs args = new OpArgs(Operator.PRELU, arena).set("self", self).set("weight", weight).set("out", out);
                Planned p = plan(args);
                Pointer workspace = workspaceFor(arena, p.workspaceSize());
                Calls.ok("aclSetAclOpExecutorRepeatable", () -> Acl.setAclOpExecutorRepeatable(p.executor()));
                for (float w : new float[] {0.25f, 0.5f, 0.75f}) {
                    float[] weights = new float[16];
                    Arrays.fill(weights, w);
                    DeviceArena.writeFloats(arena.spec(weight).data(), weights);
                    Calls.ok("run", () -> Operator.PRELU.launch(workspace, p.workspaceSize(), p.executor(), null));
                    Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
                    float[] expected = new float[minusOnes.length];
                    Arrays.fill(expected, -w);
                    assertArrayEquals(expected, DeviceArena.readFloats(arena.spec(out).data(), expected.length),
                            () -> "weights " + w + ", self channels-last " + selfChannelsLast);
                }
                Calls.ok("aclDestroyAclOpExecutor", () -> Acl.destroyAclOpExecutor(p.executor()));
            }
        }
    }

    @Test
    void destroyingNoExecutor() {
        Calls.fails(INNER_NULLPTR, "aclDestroyAclOpExecutor", "aclDestroyAclOpExecutor(null)",
                () -> Acl.destroyAclOpExecutor(null));
        Calls.fails(INNER_NULLPTR, "aclDestroyAclOpExecutor", "aclDestroyAclOpExecutor(empty holder)",
                () -> Acl.destroyAclOpExecutor(new AclOpExecutor()));
        Calls.fails(INNER_NULLPTR, "aclSetAclOpExecutorRepeatable", "executor is null",
                "aclSetAclOpExecutorRepeatable(null)",
                () -> Acl.setAclOpExecutorRepeatable(null));
    }

    static Stream<Arguments> operatorPairs() {
        return Stream.of(Operator.values()).flatMap(a -> Stream.of(Operator.values()).filter(b -> b != a)
                .map(b -> Arguments.of(a, b)));
    }

    @ParameterizedTest(name = "executor of {0} run by {1}")
    @MethodSource("operatorPairs")
    void executorOfAnotherOperator(Operator planner, Operator runner) {
        try (DeviceArena arena = new DeviceArena()) {
            Planned p = plan(planner.baseline(arena, ACL_FLOAT));
            Pointer workspace = workspaceFor(arena, p.workspaceSize());
            byte[] outBefore = arena.dataBytes(p.args().tensor(planner.outputSlots.get(0)), 4);
            Calls.fails(INVALID, runner.cName, runner.cName + " with an executor of " + planner.cName,
                    () -> runner.launch(workspace, p.workspaceSize(), p.executor(), null));
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            assertArrayEquals(outBefore, arena.dataBytes(p.args().tensor(planner.outputSlots.get(0)), 4),
                    "the refused executor ran anyway");
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void destroyedStream(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            AclrtStream stream = new AclrtStream();
            Calls.ok("aclrtCreateStream", () -> AclRt.createStream(stream));
            Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(stream));
            Planned p = plan(op.baseline(arena, ACL_FLOAT));
            Pointer workspace = workspaceFor(arena, p.workspaceSize());
            Calls.fails(INVALID, op.cName, "stream was destroyed", op.cName + " on a destroyed stream",
                    () -> op.launch(workspace, p.workspaceSize(), p.executor(), stream));
        }
    }

    @Test
    void manyExecutorsMayWaitToRun() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = Operator.PRELU_BACKWARD.baseline(arena, ACL_FLOAT);
            Planned[] planned = new Planned[50];
            for (int i = 0; i < planned.length; i++) {
                planned[i] = plan(args);
            }
            for (Planned p : planned) {
                Pointer workspace = workspaceFor(arena, p.workspaceSize());
                Calls.ok("launch",
                        () -> Operator.PRELU_BACKWARD.launch(workspace, p.workspaceSize(), p.executor(), null));
            }
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            assertEquals(null, Acl.getRecentErrMsg());
        }
    }
}
