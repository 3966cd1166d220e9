package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_FRACTAL_Z;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NC1HWC0;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NHWC;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.Pointer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC §5.1: the checks of aclnnBinaryCrossEntropyBackwardGetWorkspaceSize, item by item. */
class BinaryCrossEntropyBackwardChecksTest {
    private static final Operator OP = Operator.BCE_BACKWARD;
    private static final long[] RANK8 = {1, 1, 1, 1, 1, 1, 2, 3};
    private static final long[] RANK9 = {1, 1, 1, 1, 1, 1, 1, 2, 3};

    static Stream<Change> changes() {
        return Stream.of(
                // (1) before everything else
                rejects("null self and an INT32 target", NULLPTR, a -> a.set("self", null).retype("target", ACL_INT32))
                        .naming("self"),
                rejects("null out and reduction 3", NULLPTR, a -> a.set("out", null).set("reduction", 3)).naming("out"),
                // CANN's format rule: self, target and weight under one tag; gradOutput and out free
                rejects("target tagged NCHW, self ND", INVALID,
                        a -> a.remake("target", s -> s.withFormat(ACL_FORMAT_NCHW))).naming("target"),
                rejects("weight tagged NHWC, self ND, before a bad target shape", INVALID,
                        a -> a.remake("weightOptional", s -> s.withFormat(ACL_FORMAT_NHWC)).reshape("target", 5, 5))
                        .naming("weightOptional"),
                accepts("self, target and weight all tagged NCHW", a -> {
                    for (String t : new String[] {"self", "target", "weightOptional"}) {
                        a.remake(t, s -> s.withFormat(ACL_FORMAT_NCHW));
                    }
                }),
                accepts("gradOutput and out tagged NCHW, the rest ND", a -> a
                        .remake("gradOutput", s -> s.withFormat(ACL_FORMAT_NCHW))
                        .remake("out", s -> s.withFormat(ACL_FORMAT_NCHW))),
                rejects("null target and rank-9 self", NULLPTR, a -> a.set("target", null).reshape("self", RANK9)),
                // (2) rank
                rejects("every tensor rank 9", INVALID, a -> allShaped(a, RANK9)),
                accepts("every tensor rank 8", a -> allShaped(a, RANK8)),
                rejects("weight rank 9, broadcastable to self", INVALID,
                        a -> a.reshape("weightOptional", 1, 1, 1, 1, 1, 1, 1, 1, 3)).naming("weightOptional"),
                rejects("gradOutput rank 9 of one element", INVALID,
                        a -> a.reshape("gradOutput", 1, 1, 1, 1, 1, 1, 1, 1, 1)).naming("gradOutput"),
                // (3) dtypes
                accepts("FLOAT16 target among FLOAT", a -> a.retype("target", ACL_FLOAT16)),
                accepts("FLOAT16 self, BF16 gradOutput, FLOAT out", a -> a.retype("self", ACL_FLOAT16)
                        .retype("gradOutput", ACL_BF16)),
                accepts("FLOAT inputs, FLOAT16 out", a -> a.retype("out", ACL_FLOAT16)),
                accepts("FLOAT16 inputs, FLOAT out", a -> a.retype("self", ACL_FLOAT16).retype("target", ACL_FLOAT16)
                        .retype("gradOutput", ACL_FLOAT16).retype("weightOptional", ACL_FLOAT16)),
                rejects("BOOL out", INVALID, a -> a.retype("out", ACL_BOOL)).naming("out"),
                rejects("INT64 self", INVALID, a -> a.retype("self", ACL_INT64)).naming("self"),
                rejects("UNDEFINED dtype target", INVALID, a -> a.remake("target", s -> s.withDtype(ACL_DT_UNDEFINED))),
                rejects("COMPLEX64 weight", INVALID,
                        a -> a.retype("weightOptional", ACL_COMPLEX64)).naming("weightOptional"),
                // (4) shapes
                rejects("out [3,2]", INVALID, a -> a.reshape("out", 3, 2)).naming("out"),
                rejects("out [6]", INVALID, a -> a.reshape("out", 6)).naming("out"),
                rejects("out [1,2,3]", INVALID, a -> a.reshape("out", 1, 2, 3)).naming("out"),
                accepts("target [1,3]", a -> a.reshape("target", 1, 3)),
                accepts("target [3]", a -> a.reshape("target", 3)),
                accepts("target [2,1]", a -> a.reshape("target", 2, 1)),
                rejects("target [3,2]", INVALID, a -> a.reshape("target", 3, 2)).naming("target"),
                rejects("target [2,2,3] (self would have to broadcast)", INVALID,
                        a -> a.reshape("target", 2, 2, 3)).naming("target"),
                rejects("weight [4]", INVALID, a -> a.reshape("weightOptional", 4)).naming("weightOptional"),
                accepts("weight 0-d", a -> a.reshape("weightOptional")),
                accepts("gradOutput 0-d", a -> a.reshape("gradOutput")),
                accepts("gradOutput [1]", a -> a.reshape("gradOutput", 1)),
                rejects("gradOutput [2]", INVALID, a -> a.reshape("gradOutput", 2)).naming("gradOutput"),
                rejects("self [1,3] with target, weight, gradOutput [2,3], out [1,3]", INVALID,
                        a -> a.reshape("self", 1, 3).reshape("out", 1, 3)),
                accepts("null weight", a -> a.set("weightOptional", null)),
                // (5) reduction
                accepts("reduction 1 (mean)", a -> a.set("reduction", 1)),
                accepts("reduction 2 (sum)", a -> a.set("reduction", 2)),
                rejects("reduction 3", INVALID, a -> a.set("reduction", 3)),
                rejects("reduction -1", INVALID, a -> a.set("reduction", -1)),
                rejects("reduction Long.MIN_VALUE", INVALID, a -> a.set("reduction", Long.MIN_VALUE)),
                // CANN's own unit-test cases (loss/binary_cross_entropy_grad/tests/ut/op_api), in that file's
                // order, as facts: every tensor [1,2,3,4,5] ND unless said; the cases that also compare values
                // are ported for phase 1's status only
                accepts("case_f16_reduce_none: FLOAT16 with weight", a -> ut(a, ACL_FLOAT16, 0)),
                accepts("case_f16_reduce_mean: FLOAT16 with weight", a -> ut(a, ACL_FLOAT16, 1)),
                accepts("case_f16_reduce_sum: FLOAT16 with weight", a -> ut(a, ACL_FLOAT16, 2)),
                accepts("case_f32_reduce_none: FLOAT with weight", a -> ut(a, ACL_FLOAT, 0)),
                accepts("case_f32_reduce_mean: FLOAT with weight", a -> ut(a, ACL_FLOAT, 1)),
                accepts("case_f32_reduce_sum: FLOAT with weight", a -> ut(a, ACL_FLOAT, 2)),
                accepts("case_f16_reduce_none_no_weight", a -> noWeight(ut(a, ACL_FLOAT16, 0))),
                accepts("case_f16_reduce_mean_no_weight", a -> noWeight(ut(a, ACL_FLOAT16, 1))),
                accepts("case_f16_reduce_sum_no_weight", a -> noWeight(ut(a, ACL_FLOAT16, 2))),
                accepts("case_f32_reduce_none_no_weight", a -> noWeight(ut(a, ACL_FLOAT, 0))),
                accepts("case_f32_reduce_mean_no_weight", a -> noWeight(ut(a, ACL_FLOAT, 1))),
                accepts("case_f32_reduce_sum_no_weight", a -> noWeight(ut(a, ACL_FLOAT, 2))),
                accepts("case_empty: every tensor [2,0] FLOAT, weight too, none", a -> allShaped(a, new long[] {2, 0})),
                rejects("case_unsupport_dtype 1: gradOutput, self, target, out INT64, no weight", INVALID,
                        a -> noWeight(ut(a, ACL_INT64, 0))),
                rejects("case_unsupport_dtype 2: self FLOAT, gradOutput, target, out INT64, no weight", INVALID,
                        a -> noWeight(ut(a, ACL_INT64, 0)).retype("self", ACL_FLOAT)),
                rejects("case_unsupport_dtype 3: target and out INT64, no weight", INVALID,
                        a -> noWeight(ut(a, ACL_FLOAT, 0)).retype("target", ACL_INT64).retype("out", ACL_INT64)),
                rejects("case_unsupport_dtype 4: out INT64, no weight", INVALID,
                        a -> noWeight(ut(a, ACL_FLOAT, 0)).retype("out", ACL_INT64)),
                rejects("case_dimension8: every tensor [1,2,...,9] (rank 9), no weight, sum", INVALID,
                        a -> noWeight(allShaped(a, new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9})).set("reduction", 2)),
                accepts("case_dtype_promotion: inputs and weight FLOAT16, out FLOAT",
                        a -> ut(a, ACL_FLOAT16, 0).retype("out", ACL_FLOAT)),
                rejects("case_unsupport_shape: gradOutput [3,1,4,2,5], target [5,4,3,2,1], out 0-d, no weight, sum",
                        INVALID, a -> noWeight(ut(a, ACL_FLOAT, 2)).reshape("gradOutput", 3, 1, 4, 2, 5)
                                .reshape("target", 5, 4, 3, 2, 1).reshape("out")),
                rejects("case_null 1: null gradOutput", NULLPTR,
                        a -> noWeight(ut(a, ACL_FLOAT, 2)).set("gradOutput", null)),
                rejects("case_null 2: null self", NULLPTR, a -> noWeight(ut(a, ACL_FLOAT, 2)).set("self", null)),
                rejects("case_null 3: null target", NULLPTR, a -> noWeight(ut(a, ACL_FLOAT, 2)).set("target", null)),
                rejects("case_null 4: null out", NULLPTR, a -> noWeight(ut(a, ACL_FLOAT, 2)).set("out", null)),
                accepts("case_NC1HWC0: every tensor [1,2,3,4,16] NC1HWC0, mean",
                        a -> allTagged(a, ACL_FORMAT_NC1HWC0, 1, 2, 3, 4, 16).set("reduction", 1)),
                accepts("case_FRACTAL_Z: every tensor [16,16,16,16] FRACTAL_Z, mean",
                        a -> allTagged(a, ACL_FORMAT_FRACTAL_Z, 16, 16, 16, 16).set("reduction", 1)),
                accepts("case_non_contiguous: inputs and weight [5,4], strides [1,5] over 20 elements; out [5,4]; mean",
                        a -> {
                            for (String t : new String[] {"gradOutput", "self", "target", "weightOptional"}) {
                                a.reshape(t, 5, 4).remake(t, s -> s.withStrides(1, 5));
                            }
                            a.reshape("out", 5, 4).set("reduction", 1);
                        }),
                accepts("ascend910B2_case_bf16_reduce_sum: BF16 with weight (Ascend910B)", a -> ut(a, ACL_BF16, 2)));
    }

    /** Every tensor [1,2,3,4,5] of {@code dtype}, weight given, and {@code reduction}. */
    private static OpArgs ut(OpArgs a, int dtype, int reduction) {
        for (String name : OP.tensorSlots) {
            a.set(name, a.arena.tensor(dtype, 1, 2, 3, 4, 5));
        }
        return a.set("reduction", reduction);
    }

    private static OpArgs noWeight(OpArgs a) {
        return a.set("weightOptional", null);
    }

    private static OpArgs allTagged(OpArgs a, int format, long... shape) {
        allShaped(a, shape);
        for (String name : OP.tensorSlots) {
            a.remake(name, s -> s.withFormat(format));
        }
        return a;
    }

    private static OpArgs allShaped(OpArgs a, long[] shape) {
        for (String name : OP.tensorSlots) {
            a.reshape(name, shape);
        }
        return a;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void phase1(Change change) {
        change.checkOnBaseline(OP);
    }

    @Test
    void emptySelfNeedsNoWorkspaceAndWritesNothing() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT);
            for (String name : OP.tensorSlots) {
                args.reshape(name, 0, 3);
            }
            long[] size = {-7};
            AclOpExecutor executor = args.planned(size);
            assertEquals(0, size[0], "workspace of an empty self");
            Calls.ok(OP.cName, () -> OP.launch(new Pointer(), 0, executor, null));
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
        }
    }

    @Test
    void emptyTensorsMayHaveNullData() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT);
            for (String name : OP.tensorSlots) {
                args.remake(name, s -> s.withShape(2, 0).withData(new Pointer()));
            }
            args.run(null);
        }
    }

    @Test
    void failedPhaseOneLeavesOutUntouched() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).set("reduction", 5);
            byte[] before = arena.dataBytes(args.tensor("out"), 24);
            AclOpExecutor executor = new AclOpExecutor();
            assertEquals(INVALID, args.plan(new long[1], executor));
            assertEquals(NULLPTR, args.launch(new Pointer(), 0, executor, null), "phase 2 with the unfilled executor");
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            assertArrayEquals(before, arena.dataBytes(args.tensor("out"), 24));
        }
    }
}
