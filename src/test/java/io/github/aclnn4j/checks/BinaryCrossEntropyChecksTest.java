package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks of aclnnBinaryCrossEntropyGetWorkspaceSize (self, target, weight and out [2,3],
 * reduction none), in the order of CANN's code: null self, target, out (ACLNN_ERR_INNER_NULLPTR, as
 * its code returns); dtypes in the list, and all of self's when weight is given; target shaped as
 * self; reduction; out shaped as self (none) or of one element (mean, sum). CANN's own unit-test
 * cases (loss/binary_cross_entropy/tests/ut/op_api) come last, as the facts they state.
 */
class BinaryCrossEntropyChecksTest {
    private static final Operator OP = Operator.BCE;
    private static final int INNER_NULLPTR = 561103;

    static Stream<Change> changes() {
        return Stream.of(
                rejects("null self and INT32 target", INNER_NULLPTR,
                        a -> a.set("self", null).retype("target", ACL_INT32)).naming("self"),
                rejects("null out and reduction 7", INNER_NULLPTR, a -> a.set("out", null).set("reduction", 7))
                        .naming("out"),
                accepts("null weight", a -> a.set("weight", null)),
                // dtypes: each in the list; with a weight, every one self's
                rejects("target INT64", INVALID, a -> a.retype("target", ACL_INT64)).naming("target"),
                rejects("weight DOUBLE", INVALID, a -> a.retype("weight", ACL_DOUBLE)).naming("weight"),
                rejects("out FLOAT16 with a weight", INVALID, a -> a.retype("out", ACL_FLOAT16)).naming("out"),
                rejects("target BF16 with a weight", INVALID, a -> a.retype("target", ACL_BF16)).naming("target"),
                rejects("weight FLOAT16", INVALID, a -> a.retype("weight", ACL_FLOAT16)).naming("weight"),
                accepts("no weight: self FLOAT16, target BF16, out FLOAT", a -> a.set("weight", null)
                        .retype("self", ACL_FLOAT16).retype("target", ACL_BF16)),
                // shapes and reduction
                rejects("target [3,2]", INVALID, a -> a.reshape("target", 3, 2)).naming("target"),
                rejects("target [3] (no broadcasting)", INVALID, a -> a.reshape("target", 3)).naming("target"),
                rejects("reduction 3", INVALID, a -> a.set("reduction", 3)),
                rejects("reduction -1", INVALID, a -> a.set("reduction", -1)),
                accepts("weight [3] broadcasts", a -> a.reshape("weight", 3)),
                accepts("weight 0-d broadcasts", a -> a.reshape("weight")),
                rejects("weight [2] does not broadcast", INVALID, a -> a.reshape("weight", 2)).naming("weight"),
                rejects("out [6] for none", INVALID, a -> a.reshape("out", 6)).naming("out"),
                accepts("out [1] for mean", a -> a.set("reduction", 1).reshape("out", 1)),
                accepts("out 0-d for sum", a -> a.set("reduction", 2).reshape("out")),
                accepts("out [1,1] for sum", a -> a.set("reduction", 2).reshape("out", 1, 1)),
                rejects("out [2,3] for mean", INVALID, a -> a.set("reduction", 1)).naming("out"),
                rejects("self, target, weight, out rank 9", INVALID, a -> {
                    for (String name : new String[] {"self", "target", "weight", "out"}) {
                        a.reshape(name, 1, 1, 1, 1, 1, 1, 1, 2, 3);
                    }
                }));
    }

    /** CANN's unit-test cases of aclnnBinaryCrossEntropy: [5,5] tensors unless said, and their status. */
    static Stream<Change> cannUnitTests() {
        return Stream.of(
                rejects("case_nullptr_1: null self", INNER_NULLPTR, a -> five(a).set("self", null)),
                rejects("case_nullptr_2: null target", INNER_NULLPTR, a -> five(a).set("target", null)),
                rejects("case_nullptr_3: null out", INNER_NULLPTR, a -> five(a).set("out", null)),
                rejects("case_double_1: self DOUBLE", INVALID, a -> five(a).retype("self", ACL_DOUBLE)),
                rejects("case_double_2: target DOUBLE", INVALID, a -> five(a).retype("target", ACL_DOUBLE)),
                rejects("case_double_3: weight DOUBLE", INVALID, a -> five(a).retype("weight", ACL_DOUBLE)),
                rejects("case_double_4: out DOUBLE", INVALID, a -> five(a).retype("out", ACL_DOUBLE)),
                rejects("case_reduction_3", INVALID, a -> five(a).set("reduction", 3)),
                rejects("case_shape_abnormal: target [5,7]", INVALID, a -> five(a).reshape("target", 5, 7)),
                accepts("case_fp_empty_tensor_none: [0,5]", a -> empty(a)),
                accepts("case_fp16_empty_tensor_none: FLOAT16 [0,5]", a -> empty(a).retype("self", ACL_FLOAT16)
                        .retype("target", ACL_FLOAT16).retype("weight", ACL_FLOAT16).retype("out", ACL_FLOAT16)),
                rejects("case_dtype_inconsistent: FLOAT16 inputs and weight, FLOAT out [1], mean", INVALID,
                        a -> five(a).retype("self", ACL_FLOAT16).retype("target", ACL_FLOAT16)
                                .retype("weight", ACL_FLOAT16).set("reduction", 1).reshape("out", 1)));
    }

    private static OpArgs five(OpArgs a) {
        for (String name : new String[] {"self", "target", "weight", "out"}) {
            a.reshape(name, 5, 5);
        }
        return a;
    }

    private static OpArgs empty(OpArgs a) {
        for (String name : new String[] {"self", "target", "weight", "out"}) {
            a.reshape(name, 0, 5);
        }
        return a;
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

    /** An empty self fills out, whatever its shape: NaN for mean (0/0), 0 for sum and none, as CANN does. */
    @Test
    void emptySelfFillsOut() {
        float[][] expected = {{0, 0, 0}, {Float.NaN, Float.NaN, Float.NaN}, {0, 0, 0}};
        for (int reduction = 0; reduction < 3; reduction++) {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = OP.baseline(arena, ACL_FLOAT).reshape("self", 0, 3).reshape("target", 0, 3)
                        .reshape("weight", 3).set("reduction", reduction).reshape("out", 3);
                DeviceArena.writeFloats(arena.spec(args.tensor("out")).data(), new float[] {7, 7, 7});
                args.run(null);
                float[] out = DeviceArena.readFloats(arena.spec(args.tensor("out")).data(), 3);
                assertArrayEquals(expected[reduction], out, "reduction " + reduction);
                assertTrue(reduction != 1 || Float.isNaN(out[0]));
            }
        }
    }
}
