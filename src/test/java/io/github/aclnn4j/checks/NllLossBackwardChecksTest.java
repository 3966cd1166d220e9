package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclrtMemcpyKind;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §5.5: the checks of aclnnNLLLossBackwardGetWorkspaceSize (self [3,4], target {0,3,1},
 * reduction mean), and the run-time error of a target outside [0, C). Unlike the other checks tests
 * this one has no block of CANN's own unit-test cases: CANN's library has no gtest for
 * aclnnNLLLossBackward (loss/nll_loss_grad/tests/ut/op_host holds only aclnnNLLLoss2dBackward's op_api
 * test, a different operator, and the tiling and infershape tests of the kernel).
 */
class NllLossBackwardChecksTest {
    private static final Operator OP = Operator.NLL_LOSS_BACKWARD;
    private static final int RUNTIME_ERROR = 361001;

    static Stream<Change> changes() {
        return Stream.of(
                // (1) before everything else
                rejects("null target and INT32 self", NULLPTR, a -> a.set("target", null).retype("self", ACL_INT32))
                        .naming("target"),
                rejects("null totalWeight and reduction 7", NULLPTR,
                        a -> a.set("totalWeight", null).set("reduction", 7))
                        .naming("totalWeight"),
                // (2) dtypes
                rejects("self, weight, gradOutput, totalWeight, out INT32", INVALID, a -> a.retype("self", ACL_INT32)
                        .retype("weight", ACL_INT32).retype("gradOutput", ACL_INT32).retype("totalWeight", ACL_INT32)
                        .retype("out", ACL_INT32)),
                rejects("weight FLOAT16, self FLOAT", INVALID, a -> a.retype("weight", ACL_FLOAT16)).naming("weight"),
                rejects("gradOutput BF16, self FLOAT", INVALID,
                        a -> a.retype("gradOutput", ACL_BF16)).naming("gradOutput"),
                rejects("totalWeight FLOAT16, self FLOAT", INVALID,
                        a -> a.retype("totalWeight", ACL_FLOAT16)).naming("totalWeight"),
                rejects("self FLOAT16, the rest FLOAT", INVALID, a -> a.retype("self", ACL_FLOAT16)).naming("self"),
                accepts("out FLOAT16 (castable from FLOAT)", a -> a.retype("out", ACL_FLOAT16)),
                accepts("out BF16 (castable from FLOAT)", a -> a.retype("out", ACL_BF16)),
                rejects("out BOOL", INVALID, a -> a.retype("out", ACL_BOOL)).naming("out"),
                // SPEC 5.5(2) and CANN's CanCast: any type a float casts to
                accepts("out DOUBLE (castable from FLOAT)", a -> a.retype("out", ACL_DOUBLE)),
                accepts("out COMPLEX64 (castable from FLOAT)", a -> a.retype("out", ACL_COMPLEX64)),
                accepts("out COMPLEX128 (castable from FLOAT)", a -> a.retype("out", ACL_COMPLEX128)),
                rejects("out INT32", INVALID, a -> a.retype("out", ACL_INT32)).naming("out"),
                accepts("target INT32", a -> target(a, ACL_INT32, 0, 3, 1)),
                accepts("target UINT8", a -> target(a, ACL_UINT8, 0, 3, 1)),
                rejects("target INT8", INVALID, a -> target(a, ACL_INT8, 0, 3, 1)),
                rejects("target INT16", INVALID, a -> target(a, ACL_INT16, 0, 3, 1)),
                rejects("target UINT64", INVALID, a -> target(a, ACL_UINT64, 0, 3, 1)),
                rejects("target FLOAT", INVALID, a -> target(a, ACL_FLOAT, 0, 3, 1)),
                rejects("target BOOL", INVALID, a -> target(a, ACL_BOOL, 0, 1, 1)),
                // (3) reduction
                rejects("reduction 3", INVALID, a -> a.set("reduction", 3)),
                rejects("reduction -1", INVALID, a -> a.set("reduction", -1)),
                accepts("reduction none, gradOutput [3]", a -> a.set("reduction", 0).reshape("gradOutput", 3)),
                rejects("reduction none, gradOutput 0-d", INVALID, a -> a.set("reduction", 0)),
                rejects("reduction none, gradOutput [1]", INVALID, a -> a.set("reduction", 0).reshape("gradOutput", 1)),
                accepts("reduction sum, gradOutput [1]", a -> a.set("reduction", 2).reshape("gradOutput", 1)),
                rejects("reduction sum, gradOutput [3]", INVALID, a -> a.set("reduction", 2).reshape("gradOutput", 3)),
                rejects("reduction mean, gradOutput [1,1]", INVALID,
                        a -> a.reshape("gradOutput", 1, 1)).naming("gradOutput"),
                // (4) ranks and shapes
                rejects("self and out [3,4,1]", INVALID, a -> a.reshape("self", 3, 4, 1).reshape("out", 3, 4, 1)),
                rejects("self and out rank 9", INVALID, a -> a.reshape("self", 3, 4, 1, 1, 1, 1, 1, 1, 1)
                        .reshape("out", 3, 4, 1, 1, 1, 1, 1, 1, 1)),
                rejects("self, out and target 0-d", INVALID, a -> a.reshape("self").reshape("out").reshape("target")),
                accepts("1-d self [4] with 0-d target", a -> a.reshape("self", 4).reshape("out", 4)
                        .set("target", a.arena.values(ACL_INT64, new double[] {2}))),
                accepts("1-d self [4], reduction none, 0-d gradOutput", a -> a.reshape("self", 4).reshape("out", 4)
                        .set("target", a.arena.values(ACL_INT64, new double[] {2})).set("reduction", 0)),
                rejects("1-d self [4] with target [1]", INVALID, a -> a.reshape("self", 4).reshape("out", 4)
                        .set("target", a.arena.values(ACL_INT64, new double[] {2}, 1))),
                rejects("target [2]", INVALID, a -> target(a, ACL_INT64, 0, 3)),
                rejects("target [3,1]", INVALID, a -> a.reshape("target", 3, 1)).naming("target"),
                rejects("target 0-d with 2-d self", INVALID, a -> a.reshape("target")).naming("target"),
                rejects("weight [5]", INVALID, a -> a.reshape("weight", 5)).naming("weight"),
                rejects("weight [4,1]", INVALID, a -> a.reshape("weight", 4, 1)).naming("weight"),
                rejects("weight 0-d", INVALID, a -> a.reshape("weight")).naming("weight"),
                rejects("totalWeight [2]", INVALID, a -> a.reshape("totalWeight", 2)).naming("totalWeight"),
                accepts("totalWeight 0-d", a -> a.reshape("totalWeight")),
                rejects("out [4,3]", INVALID, a -> a.reshape("out", 4, 3)).naming("out"),
                rejects("out [12]", INVALID, a -> a.reshape("out", 12)).naming("out"),
                // empty self; targets are only read at run time
                accepts("empty self [0,4], reduction none", a -> a.reshape("self", 0, 4).reshape("out", 0, 4)
                        .reshape("target", 0).set("reduction", 0).reshape("gradOutput", 0)),
                accepts("empty self [0,4], reduction mean", a -> a.reshape("self", 0, 4).reshape("out", 0, 4)
                        .reshape("target", 0)),
                accepts("target value 99 (checked at run time)", a -> target(a, ACL_INT64, 0, 99, 1)));
    }

    private static OpArgs target(OpArgs a, int dtype, double... values) {
        return a.set("target", a.arena.values(dtype, values, values.length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void phase1(Change change) {
        change.checkOnBaseline(OP);
    }

    /**
     * A DOUBLE or complex out holds the FLOAT out's values (a complex one as real parts with zero
     * imaginary parts), the cast CANN applies after its kernel.
     */
    @Test
    void wideAndComplexOutsHoldTheFloatValues() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs plain = OP.baseline(arena, ACL_FLOAT);
            plain.run(null);
            java.nio.ByteBuffer floats = java.nio.ByteBuffer.wrap(arena.dataBytes(plain.tensor("out"), 12 * 4))
                    .order(java.nio.ByteOrder.nativeOrder());
            for (int dtype : new int[] {ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}) {
                OpArgs wide = OP.baseline(arena, ACL_FLOAT).retype("out", dtype);
                wide.run(null);
                int size = dtype == ACL_COMPLEX128 ? 16 : 8;
                java.nio.ByteBuffer got = java.nio.ByteBuffer.wrap(arena.dataBytes(wide.tensor("out"), 12 * size))
                        .order(java.nio.ByteOrder.nativeOrder());
                for (int i = 0; i < 12; i++) {
                    double expected = floats.getFloat(4 * i);
                    double real = dtype == ACL_COMPLEX64 ? got.getFloat(size * i) : got.getDouble(size * i);
                    double imaginary = dtype == ACL_DOUBLE ? 0
                            : dtype == ACL_COMPLEX64 ? got.getFloat(size * i + 4) : got.getDouble(size * i + 8);
                    assertEquals(expected, real, "element " + i + " of out dtype " + dtype);
                    assertEquals(0.0, imaginary, "imaginary part of element " + i + " of out dtype " + dtype);
                }
            }
        }
    }

    @ParameterizedTest(name = "target {1} of dtype {0} at row {2}")
    @CsvSource({"9, 7, 1", "9, -1, 2", "9, 4, 0", "3, -5, 1", "4, 200, 2", "9, -100000, 0"})
    void targetOutOfRangeFailsAtSynchronize(int dtype, long bad, int row) {
        try (DeviceArena arena = new DeviceArena()) {
            double[] targets = {0, 3, 1};
            targets[row] = bad;
            OpArgs args = OP.baseline(arena, ACL_FLOAT);
            target(args, dtype, targets);
            AclrtStream stream = newStream();
            try {
                long[] size = new long[1];
                AclOpExecutor executor = args.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                Calls.ok(OP.cName, () -> OP.launch(workspace, size[0], executor, stream));
                String message = Calls.fails(RUNTIME_ERROR, OP.cName, "aclrtSynchronizeStream",
                        () -> AclRt.synchronizeStream(stream));
                assertTrue(message.matches("(?s).*\\b" + row + "\\b.*") && message.contains(Long.toString(bad)),
                        () -> "the message should name row " + row + " and value " + bad + ": " + message);
                // the failure was reported once; the stream then works normally
                Calls.ok("aclrtSynchronizeStream again", () -> AclRt.synchronizeStream(stream));
                OP.baseline(arena, ACL_FLOAT).run(stream);
            } finally {
                Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(stream));
            }
        }
    }

    @Test
    void targetOutOfRangeOnOneDimensionalSelf() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).reshape("self", 4).reshape("out", 4)
                    .set("target", arena.values(ACL_INT64, new double[] {4}));
            long[] size = new long[1];
            AclOpExecutor executor = args.planned(size);
            Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
            Calls.ok(OP.cName, () -> OP.launch(workspace, size[0], executor, null));
            Calls.fails(RUNTIME_ERROR, OP.cName, "aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            Calls.ok("aclrtSynchronizeStream again", () -> AclRt.synchronizeStream(null));
        }
    }

    @ParameterizedTest(name = "ignoreIndex {0}")
    @CsvSource({"-100", "4", "-1"})
    void ignoredTargetMayLieOutsideTheClasses(long ignoreIndex) {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).set("ignoreIndex", ignoreIndex);
            target(args, ACL_INT64, 0, ignoreIndex, 1).run(null);
        }
    }

    /** A bad target must not make the kernel write outside out's view, nor touch the inputs. */
    @Test
    void badTargetTouchesNothingOutsideOut() {
        try (DeviceArena arena = new DeviceArena()) {
            int guardBytes = 256;
            int outBytes = 3 * 4 * 4;
            byte[] pattern = new byte[guardBytes * 2 + outBytes];
            Arrays.fill(pattern, (byte) 0x5A);
            Pointer block = arena.buffer(pattern.length);
            Calls.ok("aclrtMemcpy", () -> AclRt.memcpy(block, pattern.length, Pointer.to(pattern), pattern.length,
                    AclrtMemcpyKind.ACL_MEMCPY_HOST_TO_DEVICE));
            OpArgs args = OP.baseline(arena, ACL_FLOAT).set("reduction", 0).reshape("gradOutput", 3);
            args.set("out", arena.create(new DeviceArena.TensorSpec(block.withByteOffset(guardBytes), ACL_FLOAT,
                    new long[] {3, 4}, null, 0, ACL_FORMAT_ND)));
            for (double bad : new double[] {-1, 4, 1_000_000, -1_000_000}) {
                target(args, ACL_INT64, bad, bad, bad);
                byte[] selfBefore = arena.dataBytes(args.tensor("self"), 48);
                long[] size = new long[1];
                AclOpExecutor executor = args.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                Calls.ok(OP.cName, () -> OP.launch(workspace, size[0], executor, null));
                assertEquals(RUNTIME_ERROR, Calls.status("sync", () -> AclRt.synchronizeStream(null)));
                Acl.getRecentErrMsg();
                byte[] after = DeviceArena.readBytes(block, pattern.length);
                assertArrayEquals(Arrays.copyOf(pattern, guardBytes), Arrays.copyOf(after, guardBytes),
                        "bytes before out were written, target " + bad);
                assertArrayEquals(Arrays.copyOfRange(pattern, guardBytes + outBytes, pattern.length),
                        Arrays.copyOfRange(after, guardBytes + outBytes, pattern.length),
                        "bytes after out were written, target " + bad);
                assertArrayEquals(selfBefore, arena.dataBytes(args.tensor("self"), 48), "self was written");
            }
        }
    }

    /** Two failing runs before one synchronize: the first failure is the one reported. */
    @Test
    void synchronizeReportsTheFirstFailure() {
        try (DeviceArena arena = new DeviceArena()) {
            for (double[] targets : new double[][] {{0, 7, 1}, {0, 3, 9}}) {
                OpArgs args = target(OP.baseline(arena, ACL_FLOAT), ACL_INT64, targets);
                long[] size = new long[1];
                AclOpExecutor executor = args.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                Calls.ok(OP.cName, () -> OP.launch(workspace, size[0], executor, null));
            }
            String message = Calls.fails(RUNTIME_ERROR, OP.cName, "aclrtSynchronizeStream",
                    () -> AclRt.synchronizeStream(null));
            assertTrue(message.contains("7") && !message.contains("9"), "not the first failure: " + message);
            Calls.ok("aclrtSynchronizeStream again", () -> AclRt.synchronizeStream(null));
        }
    }

    /** A failure is reported by the stream it happened on, not by another. */
    @Test
    void failureStaysOnItsStream() {
        try (DeviceArena arena = new DeviceArena()) {
            AclrtStream failing = newStream();
            AclrtStream healthy = newStream();
            try {
                OpArgs bad = target(OP.baseline(arena, ACL_FLOAT), ACL_INT64, 0, 5, 1);
                long[] size = new long[1];
                AclOpExecutor executor = bad.planned(size);
                Pointer workspace = size[0] > 0 ? arena.buffer(size[0]) : new Pointer();
                Calls.ok(OP.cName, () -> OP.launch(workspace, size[0], executor, failing));
                OP.baseline(arena, ACL_FLOAT).run(healthy);
                Calls.ok("aclrtSynchronizeStream(default)", () -> AclRt.synchronizeStream(null));
                assertEquals(RUNTIME_ERROR, Calls.status("sync", () -> AclRt.synchronizeStream(failing)));
                Acl.getRecentErrMsg();
            } finally {
                Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(failing));
                Calls.ok("aclrtDestroyStream", () -> AclRt.destroyStream(healthy));
            }
            assertNull(Acl.getRecentErrMsg());
        }
    }

    static AclrtStream newStream() {
        AclrtStream stream = new AclrtStream();
        Calls.ok("aclrtCreateStream", () -> AclRt.createStream(stream));
        return stream;
    }
}
