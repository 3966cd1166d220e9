package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_RUNTIME_ERROR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtMemcpyKind;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §2 "Memory safety": every tensor of every operator is checked against the allocation its
 * data pointer lies in; freed memory and destroyed tensors are errors, never crashes; outputs are
 * written only inside their view.
 */
class MemorySafetyTest {
    /** Ways to make a tensor that phase 1 must refuse, each a function of the valid tensor's creation arguments. */
    enum BadData {
        ONE_ELEMENT_PAST_THE_END, DATA_AT_THE_END, DATA_BEFORE_THE_START, NEGATIVE_OFFSET, FREED_MEMORY, NULL_DATA,
        DESTROYED_TENSOR
    }

    static Stream<Arguments> everySlotAndDefect() {
        return Stream.of(Operator.values()).flatMap(op -> op.tensorSlots.stream()
                .flatMap(slot -> Stream.of(BadData.values()).map(d -> Arguments.of(op, slot, d))));
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @MethodSource("everySlotAndDefect")
    void phaseOneRefusesTheTensor(Operator op, String slot, BadData defect) {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = op.baseline(arena, ACL_FLOAT);
            DeviceArena.TensorSpec spec = arena.spec(args.tensor(slot));
            long bytes = DeviceArena.numel(spec.shape()) * DeviceArena.elementSize(spec.dtype());
            int elementSize = DeviceArena.elementSize(spec.dtype());
            args.set(slot, switch (defect) {
                case ONE_ELEMENT_PAST_THE_END -> arena.create(spec.withData(arena.buffer(bytes)).withOffset(1));
                case DATA_AT_THE_END -> arena.create(spec.withData(arena.buffer(bytes).withByteOffset(bytes)));
                case DATA_BEFORE_THE_START ->
                        arena.create(spec.withData(arena.buffer(bytes).withByteOffset(-elementSize)));
                // the view itself would lie inside the allocation, but a negative offset is refused as such
                case NEGATIVE_OFFSET -> arena.create(spec.withData(arena.buffer(2 * bytes).withByteOffset(bytes))
                        .withOffset(-1));
                case FREED_MEMORY -> {
                    Pointer p = arena.buffer(bytes);
                    arena.free(p);
                    yield arena.create(spec.withData(p));
                }
                case NULL_DATA -> arena.create(spec.withData(new Pointer()));
                case DESTROYED_TENSOR -> {
                    AclTensor t = arena.create(spec);
                    Calls.ok("aclDestroyTensor", () -> Acl.destroyTensor(t));
                    yield t;
                }
            });
            String what = op.cName + " with " + slot + " " + defect;
            String saying = switch (defect) {
                case ONE_ELEMENT_PAST_THE_END, DATA_AT_THE_END, DATA_BEFORE_THE_START -> "outside";
                case NEGATIVE_OFFSET -> "offset";
                case FREED_MEMORY -> "freed memory";
                case NULL_DATA -> "no data (null pointer)";
                case DESTROYED_TENSOR -> "was destroyed";
            };
            String message = Calls.fails(INVALID, op.cName, saying, what,
                    () -> args.plan(new long[1], new AclOpExecutor()));
            Calls.assertNamesParameter(message, slot);
        }
    }

    @Test
    void stridesAreCheckedAgainstTheAllocation() {
        try (DeviceArena arena = new DeviceArena()) {
            Pointer sixteen = arena.buffer(64);
            Pointer four = arena.buffer(16);
            Object[][] cases = {
                // strides, offset, data, accepted
                {new long[] {4, 1}, 0L, sixteen, true},
                {new long[] {1, 4}, 0L, sixteen, true},
                {new long[] {3, 1}, 3L, sixteen, true},     // last element at 3 + 9 + 3 = 15
                {new long[] {3, 1}, 4L, sixteen, false},    // ... at 16
                {new long[] {5, 1}, 0L, sixteen, false},    // last element at 18
                {new long[] {0, 1}, 0L, four, true},        // an expanded row
                {new long[] {0, 0}, 3L, four, true},        // one element broadcast
                {new long[] {0, 0}, 4L, four, false},
                {new long[] {-4, 1}, 12L, sixteen, false},  // would stay inside, but strides must be >= 0
                {new long[] {4, -1}, 3L, sixteen, false},
                {new long[] {Long.MAX_VALUE / 2, 1}, 0L, sixteen, false},
                {new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, 0L, sixteen, false},
                {new long[] {4, 1}, Long.MAX_VALUE, sixteen, false},
                {new long[] {4, 1}, Long.MIN_VALUE, sixteen, false},
                {new long[] {4, 1}, 0L, sixteen.withByteOffset(4), false},
                {new long[] {4, 1}, 0L, sixteen.withByteOffset(Long.MAX_VALUE), false},
                {new long[] {4, 1}, 0L, sixteen.withByteOffset(Long.MIN_VALUE), false},
            };
            for (Object[] c : cases) {
                long[] strides = (long[]) c[0];
                long offset = (long) c[1];
                OpArgs args = Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT);
                for (String slot : Operator.BCE_BACKWARD.tensorSlots) {
                    args.reshape(slot, 4, 4);
                }
                args.set("self", arena.create(new DeviceArena.TensorSpec((Pointer) c[2], ACL_FLOAT, new long[] {4, 4},
                        strides, offset, 2)));
                String what = "self [4,4] strides " + Arrays.toString(strides) + " offset " + offset + " over "
                        + c[2];
                try {
                    if ((boolean) c[3]) {
                        args.run(null);
                    } else {
                        Calls.assertNamesParameter(args.rejected(INVALID), "self");
                    }
                } catch (AssertionError e) {
                    throw new AssertionError(what + ": " + e.getMessage(), e);
                }
            }
        }
    }

    @Test
    void absurdShapesAreRefusedWithoutOverflow() {
        long[][] shapes = {{1L << 40, 1L << 40}, {Long.MAX_VALUE, 2}, {-1, 4}, {4, -4}, {3037000500L, 3037000500L}};
        for (long[] shape : shapes) {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT);
                for (String slot : Operator.BCE_BACKWARD.tensorSlots) {
                    args.remake(slot, s -> s.withShape(shape));
                }
                try {
                    args.rejected(INVALID);
                } catch (AssertionError e) {
                    throw new AssertionError("shape " + Arrays.toString(shape) + ": " + e.getMessage(), e);
                }
            }
        }
    }

    @Test
    void dataPointerInsideAnAllocationIsFine() {
        try (DeviceArena arena = new DeviceArena()) {
            Pointer block = arena.buffer(256);
            OpArgs args = Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT);
            args.set("self", arena.create(new DeviceArena.TensorSpec(block.withByteOffset(232), ACL_FLOAT,
                    new long[] {2, 3}, null, 0, 2)));
            args.accepted();
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void memoryFreedBetweenThePhases(Operator op) {
        for (String slot : List.of(op.tensorSlots.get(0), op.outputSlots.get(0))) {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = op.baseline(arena, ACL_FLOAT);
                long[] size = new long[1];
                AclOpExecutor executor = args.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                arena.free(arena.spec(args.tensor(slot)).data());
                String message = Calls.fails(INVALID, op.cName, "was freed after phase 1",
                        op.cName + " after freeing " + slot, () -> op.launch(workspace, size[0], executor, null));
                Calls.assertNamesParameter(message, slot);
                Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            }
        }
    }

    /** Freeing memory that queued work still uses is a caller bug; it must not crash or throw. */
    @Test
    void memoryFreedUnderQueuedWork() {
        try (DeviceArena arena = new DeviceArena()) {
            long[] big = {1024, 1024};
            OpArgs args = Operator.BCE_BACKWARD.baseline(arena, ACL_FLOAT);
            for (String slot : Operator.BCE_BACKWARD.tensorSlots) {
                args.reshape(slot, big);
            }
            for (int i = 0; i < 8; i++) {
                long[] size = new long[1];
                AclOpExecutor executor = args.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                Calls.ok("launch", () -> Operator.BCE_BACKWARD.launch(workspace, size[0], executor, null));
            }
            Calls.status("aclrtFree", () -> AclRt.free(arena.spec(args.tensor("self")).data()));
            Calls.status("aclrtFree", () -> AclRt.free(arena.spec(args.tensor("out")).data()));
            // whether a task was still running when its memory went is a matter of timing: either it
            // finished, or it failed with the runtime error that says why
            int status = Calls.status("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            String message = Acl.getRecentErrMsg();
            if (status != 0) {
                assertEquals(ACLNN_ERR_RUNTIME_ERROR, status, "synchronize after freeing under queued work: " + message);
                assertTrue(message != null && message.contains("device memory was freed while a task was using it"),
                        "synchronize after freeing under queued work: " + message);
            }
            Calls.ok("aclrtSynchronizeStream again", () -> AclRt.synchronizeStream(null));
        }
    }

    /**
     * A small block (a slot of a slab, whose memory stays mapped when it is freed) freed under
     * queued work: the calls still writing it must not write into the blocks allocated after the
     * free, which the allocator would otherwise hand the same slot; the synchronize reports the
     * misuse or nothing.
     */
    @Test
    void smallMemoryFreedUnderQueuedWorkIsNotReusedMeanwhile() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = Operator.BCE_WITH_LOGITS.baseline(arena, ACL_FLOAT).reshape("self", 1024, 1024)
                    .reshape("target", 1024, 1024).set("weightOptional", null).set("posWeightOptional", null)
                    .set("reduction", 1).set("out", arena.tensor(ACL_FLOAT));
            for (int i = 0; i < 8; i++) {
                long[] size = new long[1];
                AclOpExecutor executor = args.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                Calls.ok("launch", () -> Operator.BCE_WITH_LOGITS.launch(workspace, size[0], executor, null));
            }
            arena.free(arena.spec(args.tensor("out")).data());
            float[] pattern = {-7.25f};
            List<Pointer> after = new java.util.ArrayList<>();
            for (int i = 0; i < 32; i++) {
                Pointer p = arena.buffer(4);
                Calls.ok("aclrtMemcpy", () -> AclRt.memcpy(p, 4, Pointer.to(pattern), 4,
                        AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE));
                after.add(p);
            }
            int status = Calls.status("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            String message = Acl.getRecentErrMsg();
            if (status != 0) {
                assertEquals(ACLNN_ERR_RUNTIME_ERROR, status, message);
                assertTrue(message != null && message.contains("device memory was freed while a task was using it"),
                        message);
            }
            for (Pointer p : after) {
                assertArrayEquals(pattern, TestDevice.downloadFloats(p, 1), "a block allocated after the free was written");
            }
        }
    }

    /**
     * Freeing an output while queued NLL backward calls zero it: the zeroing is a native memset that
     * holds the block, so aclrtFree must wait for it, return success and leave no crash; the calls
     * finish or fail with the runtime error. Three rounds, as the free must meet a memset at least
     * once to test anything (16 MB outputs are zeroed for most of a call).
     */
    @Test
    void memoryFreedUnderQueuedZeroing() {
        for (int round = 0; round < 3; round++) {
            try (DeviceArena arena = new DeviceArena()) {
                int rows = 1024;
                int classes = 4096;
                OpArgs args = Operator.NLL_LOSS_BACKWARD.baseline(arena, ACL_FLOAT).reshape("self", rows, classes)
                        .reshape("out", rows, classes).reshape("weight", classes)
                        .set("target", arena.values(ACL_INT64, new double[rows], rows));
                for (int i = 0; i < 8; i++) {
                    long[] size = new long[1];
                    AclOpExecutor executor = args.planned(size);
                    Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                    Calls.ok("launch", () -> Operator.NLL_LOSS_BACKWARD.launch(workspace, size[0], executor, null));
                }
                Calls.ok("aclrtFree of out under queued work",
                        () -> AclRt.free(arena.spec(args.tensor("out")).data()));
                int status = Calls.status("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
                String message = Acl.getRecentErrMsg();
                if (status != 0) {
                    assertEquals(ACLNN_ERR_RUNTIME_ERROR, status, "synchronize after freeing under zeroing: " + message);
                    assertTrue(message != null && message.contains("freed"), "synchronize after freeing: " + message);
                }
                Calls.ok("aclrtSynchronizeStream again", () -> AclRt.synchronizeStream(null));
            }
        }
    }

    static Stream<Arguments> everyOutput() {
        return Stream.of(Operator.values()).flatMap(op -> op.outputSlots.stream().map(s -> Arguments.of(op, s)));
    }

    /** Each output as a view of every other element of a pattern-filled buffer: the gaps must survive a run. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyOutput")
    void outputsAreWrittenOnlyInsideTheirView(Operator op, String slot) {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = op.baseline(arena, ACL_FLOAT);
            long[] shape = arena.spec(args.tensor(slot)).shape();
            int n = Math.toIntExact(DeviceArena.numel(shape));
            long[] strides = new long[shape.length];
            long stride = 2;
            for (int i = shape.length - 1; i >= 0; i--) {
                strides[i] = stride;
                stride *= shape[i];
            }
            float[] pattern = new float[2 * n + 2];
            Arrays.fill(pattern, -123.25f);
            Pointer block = arena.buffer(pattern.length * 4L);
            Calls.ok("aclrtMemcpy", () -> AclRt.memcpy(block, pattern.length * 4L, Pointer.to(pattern),
                    pattern.length * 4L, AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE));
            args.set(slot, arena.create(new DeviceArena.TensorSpec(block, ACL_FLOAT, shape, strides, 1, 2)));
            args.run(null);
            float[] after = DeviceArena.readFloats(block, pattern.length);
            for (int i = 0; i < after.length; i += (i == 2 * n ? 1 : 2)) {
                assertEquals(-123.25f, after[i], "element " + i + " outside the view of " + slot + " was written");
            }
            float[] inside = new float[n];
            for (int k = 0; k < n; k++) {
                inside[k] = after[1 + 2 * k];
            }
            float[] untouched = new float[n];
            Arrays.fill(untouched, -123.25f);
            assertTrue(!Arrays.equals(untouched, inside) || n == 0, slot + " was not written at all");
        }
    }

    @Test
    void inputsAreNotWritten() {
        for (Operator op : Operator.values()) {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = op.baseline(arena, ACL_FLOAT);
                List<String> inputs = op.tensorSlots.stream().filter(s -> !op.outputSlots.contains(s)).toList();
                byte[][] before = new byte[inputs.size()][];
                for (int i = 0; i < inputs.size(); i++) {
                    before[i] = bytesOf(arena, args.tensor(inputs.get(i)));
                }
                args.run(null);
                for (int i = 0; i < inputs.size(); i++) {
                    assertArrayEquals(before[i], bytesOf(arena, args.tensor(inputs.get(i))),
                            op + " wrote its input " + inputs.get(i));
                }
            }
        }
    }

    private static byte[] bytesOf(DeviceArena arena, AclTensor t) {
        DeviceArena.TensorSpec s = arena.spec(t);
        return arena.dataBytes(t, Math.toIntExact(DeviceArena.numel(s.shape()) * DeviceArena.elementSize(s.dtype())));
    }
}
