package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §5.3: the checks of aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize (self [2,3]), then CANN's own
 * unit-test cases as facts.
 */
class BinaryCrossEntropyWithLogitsChecksTest {
    private static final Operator OP = Operator.BCE_WITH_LOGITS;
    private static final long[] RANK8 = {1, 1, 1, 1, 1, 1, 2, 3};
    private static final long[] RANK9 = {1, 1, 1, 1, 1, 1, 1, 2, 3};
    private static final long[] S55 = {5, 5};
    private static final long[] S525 = {5, 2, 5};

    static Stream<Change> changes() {
        return Stream.of(
                // (1) before everything else
                rejects("null self and reduction 4", NULLPTR, a -> a.set("self", null).set("reduction", 4))
                        .naming("self"),
                rejects("null out and INT32 target", NULLPTR, a -> a.set("out", null).retype("target", ACL_INT32))
                        .naming("out"),
                // (2) dtypes
                rejects("target and out INT32", INVALID, a -> a.retype("target", ACL_INT32).retype("out", ACL_INT32)),
                rejects("target FLOAT16, out FLOAT", INVALID, a -> a.retype("target", ACL_FLOAT16)).naming("target"),
                rejects("target FLOAT, out FLOAT16", INVALID, a -> a.retype("out", ACL_FLOAT16)).naming("out"),
                rejects("target BF16, out FLOAT16", INVALID,
                        a -> a.retype("target", ACL_BF16).retype("out", ACL_FLOAT16)),
                accepts("self FLOAT16, target and out FLOAT", a -> a.retype("self", ACL_FLOAT16)),
                accepts("self FLOAT, target and out BF16", a -> a.retype("target", ACL_BF16).retype("out", ACL_BF16)),
                accepts("weight FLOAT16 among FLOAT", a -> a.retype("weightOptional", ACL_FLOAT16)),
                accepts("posWeight BF16 among FLOAT", a -> a.retype("posWeightOptional", ACL_BF16)),
                rejects("weight INT64", INVALID, a -> a.retype("weightOptional", ACL_INT64)).naming("weightOptional"),
                rejects("posWeight UINT8", INVALID,
                        a -> a.retype("posWeightOptional", ACL_UINT8)).naming("posWeightOptional"),
                // (3) reduction
                rejects("reduction 3", INVALID, a -> a.set("reduction", 3)),
                rejects("reduction -1", INVALID, a -> a.set("reduction", -1)),
                accepts("reduction mean, out [1]", a -> a.set("reduction", 1).reshape("out", 1)),
                accepts("reduction sum, out [1]", a -> a.set("reduction", 2).reshape("out", 1)),
                accepts("reduction mean, out 0-d", a -> a.set("reduction", 1).reshape("out")),
                // (4) rank and shapes
                rejects("every tensor rank 9", INVALID, a -> allShaped(a, RANK9)),
                accepts("every tensor rank 8", a -> allShaped(a, RANK8)),
                rejects("posWeight rank 9 of 3 elements", INVALID,
                        a -> a.reshape("posWeightOptional", 1, 1, 1, 1, 1, 1, 1, 1, 3)).naming("posWeightOptional"),
                rejects("target [1,3]", INVALID, a -> a.reshape("target", 1, 3)).naming("target"),
                rejects("target [3,2]", INVALID, a -> a.reshape("target", 3, 2)).naming("target"),
                rejects("self [1,3] (target may not broadcast either way)", INVALID,
                        a -> a.reshape("self", 1, 3)).naming("self"),
                rejects("self [6], target [2,3]", INVALID, a -> a.reshape("self", 6)).naming("self"),
                accepts("weight [3]", a -> a.reshape("weightOptional", 3)),
                accepts("weight [2,1]", a -> a.reshape("weightOptional", 2, 1)),
                accepts("weight 0-d", a -> a.reshape("weightOptional")),
                rejects("weight [4]", INVALID, a -> a.reshape("weightOptional", 4)).naming("weightOptional"),
                rejects("weight [2,2,3]", INVALID, a -> a.reshape("weightOptional", 2, 2, 3)).naming("weightOptional"),
                accepts("posWeight [2,3]", a -> a.reshape("posWeightOptional", 2, 3)),
                rejects("posWeight [2]", INVALID, a -> a.reshape("posWeightOptional", 2)).naming("posWeightOptional"),
                // (5) out
                rejects("reduction none, out [3,2]", INVALID, a -> a.reshape("out", 3, 2)).naming("out"),
                rejects("reduction none, out [1]", INVALID, a -> a.reshape("out", 1)).naming("out"),
                rejects("reduction mean, out [2,3]", INVALID, a -> a.set("reduction", 1)),
                rejects("reduction sum, out [2]", INVALID, a -> a.set("reduction", 2).reshape("out", 2)),
                // empty input: weight and posWeight need not broadcast to an empty target
                accepts("empty input, reduction none", a -> a.reshape("self", 0, 3).reshape("target", 0, 3)
                        .reshape("out", 0, 3)),
                accepts("empty input, weight [5]", a -> a.reshape("self", 0, 3).reshape("target", 0, 3)
                        .reshape("out", 0, 3).reshape("weightOptional", 5)));
    }

    /**
     * CANN's unit-test cases of aclnnBinaryCrossEntropyWithLogits
     * (loss/sigmoid_cross_entropy_with_logits_v2/tests/ut/op_api), in that file's order, as facts: self,
     * target, weight and posWeight of one shape and dtype, ND; the cases that also compare values are
     * ported for phase 1's status only.
     */
    static Stream<Change> cannUnitTests() {
        return Stream.of(
                rejects("case_bcelosswithlogits_for_invalid_double_type: [5,5] DOUBLE, out too, none", INVALID,
                        a -> ut(a, ACL_DOUBLE, 0, S55, 5, 5)),
                accepts("case_bcelosswithlogits_for_default_reduction: [5,5], mean, out [1]",
                        a -> ut(a, ACL_FLOAT, 1, S55, 1)),
                accepts("case_bcelosswithlogits_for_sum_reduction: [5,5], sum, out [1]",
                        a -> ut(a, ACL_FLOAT, 2, S55, 1)),
                rejects("case_bcelosswithlogits_for_diff_dtype_of_target_and_out: out [5,5] FLOAT16, none", INVALID,
                        a -> ut(a, ACL_FLOAT, 0, S55, 5, 5).retype("out", ACL_FLOAT16)),
                rejects("case_bcelosswithlogits_for_diff_shape_between_target_and_self: target [5,1,5], "
                        + "out [5,5] FLOAT16, none", INVALID, a -> ut(a, ACL_FLOAT, 0, S55, 5, 5)
                                .reshape("target", 5, 1, 5).retype("out", ACL_FLOAT16)),
                rejects("case_bcelosswithlogits_for_unable_broadcast_between_posweight_and_target: [5,2,5], "
                        + "posWeight [5,3,5], none", INVALID, a -> ut(a, ACL_FLOAT, 0, S525, 5, 2, 5)
                                .reshape("posWeightOptional", 5, 3, 5)),
                accepts("case_bcelosswithlogits_for_empty_tensor_under_none_reduction: [5,0,3], out too",
                        a -> ut(a, ACL_FLOAT, 0, new long[] {5, 0, 3}, 5, 0, 3)),
                accepts("case_bcelosswithlogits_for_empty_tensor_under_default_reduction: [5,0,3], sum (as the case "
                        + "sets it), out [1]", a -> ut(a, ACL_FLOAT, 2, new long[] {5, 0, 3}, 1)),
                accepts("case_bcelosswithlogits_for_empty_tensor_under_sum_reduction: [5,0,3], sum, out [1]",
                        a -> ut(a, ACL_FLOAT, 2, new long[] {5, 0, 3}, 1)),
                rejects("case_bcelosswithlogits_for_input_size_overlimit: [5,1,3,2,4,6,3,5,9], sum, out [1]", INVALID,
                        a -> ut(a, ACL_FLOAT, 2, new long[] {5, 1, 3, 2, 4, 6, 3, 5, 9}, 1)),
                rejects("case_bcelosswithlogits_for_null_input: null self, [5,2,5], sum, out [5,2,5]", NULLPTR,
                        a -> ut(a, ACL_FLOAT, 2, S525, 5, 2, 5).set("self", null)),
                rejects("case_bcelosswithlogits_for_null_output: [5,2,5], sum, null out", NULLPTR,
                        a -> ut(a, ACL_FLOAT, 2, S525, 5, 2, 5).set("out", null)),
                rejects("case_bcelosswithlogits_for_illegal_reduction: [5,5], reduction 3, out [5,5]", INVALID,
                        a -> ut(a, ACL_FLOAT, 3, S55, 5, 5)),
                accepts("case_bcelosswithlogits_for_wrong_output_shape: [5,5], mean, out [1]",
                        a -> ut(a, ACL_FLOAT, 1, S55, 1)));
    }

    /** self, target, weight and posWeight of {@code shape} and out of {@code out}, all {@code dtype}. */
    private static OpArgs ut(OpArgs a, int dtype, int reduction, long[] shape, long... out) {
        for (String name : new String[] {"self", "target", "weightOptional", "posWeightOptional"}) {
            a.set(name, a.arena.tensor(dtype, shape));
        }
        return a.set("out", a.arena.tensor(dtype, out)).set("reduction", reduction);
    }

    private static void allShaped(OpArgs a, long[] shape) {
        for (String name : OP.tensorSlots) {
            a.reshape(name, shape);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void phase1(Change change) {
        change.checkOnBaseline(OP);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cannUnitTests")
    void cannUnitTestCase(Change change) {
        change.checkOnBaseline(OP);
    }

    @Test
    void emptyInputReducesToNanForMeanAndZeroForSum() {
        for (int reduction : new int[] {1, 2}) {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = OP.baseline(arena, ACL_FLOAT).reshape("self", 0, 3).reshape("target", 0, 3)
                        .reshape("out", 1).set("reduction", reduction);
                args.run(null);
                float out = DeviceArena.readFloats(arena.spec(args.tensor("out")).data(), 1)[0];
                if (reduction == 1) {
                    assertTrue(Float.isNaN(out), "mean over nothing is NaN, got " + out);
                } else {
                    assertEquals(0f, out, "sum over nothing");
                }
            }
        }
    }
}
