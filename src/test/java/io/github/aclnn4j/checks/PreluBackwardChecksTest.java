package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCDHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NDHWC;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NHWC;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §5.2: the checks of aclnnPreluBackwardGetWorkspaceSize (self [2,3,4], weight [3]), then CANN's own
 * unit-test cases as facts.
 */
class PreluBackwardChecksTest {
    private static final Operator OP = Operator.PRELU_BACKWARD;
    private static final long[] RANK8 = {2, 3, 1, 1, 1, 1, 1, 4};
    private static final long[] RANK9 = {2, 3, 1, 1, 1, 1, 1, 1, 4};
    /** The usual shape of gradOutput, self and gradInput in CANN's unit test. */
    private static final long[] X = {2, 2, 3, 2};
    private static final long[] NINE = {1, 2, 3, 4, 5, 6, 7, 8, 9};

    static Stream<Change> changes() {
        return Stream.of(
                // (1) before everything else
                rejects("null self and FLOAT16 weight", NULLPTR, a -> a.set("self", null).retype("weight", ACL_FLOAT16))
                        .naming("self"),
                rejects("null gradWeight and weight [7]", NULLPTR, a -> a.set("gradWeight", null).reshape("weight", 7))
                        .naming("gradWeight"),
                // (2) dtypes: self in the list, the others exactly self's
                rejects("every tensor INT32", INVALID, a -> allRetyped(a, ACL_INT32)),
                rejects("every tensor DOUBLE", INVALID, a -> allRetyped(a, ACL_DOUBLE)),
                rejects("gradOutput FLOAT16, self FLOAT", INVALID,
                        a -> a.retype("gradOutput", ACL_FLOAT16)).naming("gradOutput"),
                rejects("weight FLOAT16, self FLOAT", INVALID, a -> a.retype("weight", ACL_FLOAT16)).naming("weight"),
                rejects("gradInput BF16, self FLOAT", INVALID,
                        a -> a.retype("gradInput", ACL_BF16)).naming("gradInput"),
                rejects("gradWeight FLOAT16, self FLOAT", INVALID,
                        a -> a.retype("gradWeight", ACL_FLOAT16)).naming("gradWeight"),
                rejects("self FLOAT16, the rest FLOAT", INVALID, a -> a.retype("self", ACL_FLOAT16)).naming("self"),
                // (3) rank and shapes
                rejects("self, gradOutput, gradInput rank 9", INVALID,
                        a -> a.reshape("self", RANK9).reshape("gradOutput", RANK9).reshape("gradInput", RANK9)),
                accepts("self, gradOutput, gradInput rank 8", 
                        a -> a.reshape("self", RANK8).reshape("gradOutput", RANK8).reshape("gradInput", RANK8)),
                rejects("weight and gradWeight rank 9 of one element", INVALID,
                        a -> a.reshape("weight", 1, 1, 1, 1, 1, 1, 1, 1, 1).reshape("gradWeight", 1, 1, 1, 1, 1, 1, 1,
                                1, 1)),
                accepts("weight and gradWeight rank 8 of one element",
                        a -> a.reshape("weight", 1, 1, 1, 1, 1, 1, 1, 1).reshape("gradWeight", 1, 1, 1, 1, 1, 1, 1, 1)),
                rejects("gradOutput rank 9, broadcastable", INVALID,
                        a -> a.reshape("gradOutput", 1, 1, 1, 1, 1, 1, 1, 1, 4)).naming("gradOutput"),
                rejects("gradInput [2,3,5]", INVALID, a -> a.reshape("gradInput", 2, 3, 5)).naming("gradInput"),
                rejects("gradInput [24]", INVALID, a -> a.reshape("gradInput", 24)).naming("gradInput"),
                accepts("gradOutput [3,4] broadcasts", a -> a.reshape("gradOutput", 3, 4)),
                accepts("gradOutput [2,1,4] broadcasts", a -> a.reshape("gradOutput", 2, 1, 4)),
                accepts("gradOutput 0-d broadcasts", a -> a.reshape("gradOutput")),
                rejects("gradOutput [2,3,5]", INVALID, a -> a.reshape("gradOutput", 2, 3, 5)).naming("gradOutput"),
                rejects("gradOutput [1,2,3,4] (self would have to broadcast)", INVALID,
                        a -> a.reshape("gradOutput", 1, 2, 3, 4)).naming("gradOutput"),
                // (4) weight against the channel count C = self.shape[1] = 3
                rejects("weight [4]", INVALID, a -> a.reshape("weight", 4).reshape("gradWeight", 4)),
                rejects("weight [2]", INVALID, a -> a.reshape("weight", 2).reshape("gradWeight", 2)),
                accepts("weight [3,1] has C elements", a -> a.reshape("weight", 3, 1)),
                rejects("gradWeight [1,3] for w = C", INVALID, a -> a.reshape("gradWeight", 1, 3)).naming("gradWeight"),
                rejects("gradWeight [4] for w = C", INVALID, a -> a.reshape("gradWeight", 4)).naming("gradWeight"),
                rejects("gradWeight 0-d for w = C", INVALID, a -> a.reshape("gradWeight")).naming("gradWeight"),
                accepts("weight [1], gradWeight [1]", a -> a.reshape("weight", 1).reshape("gradWeight", 1)),
                accepts("weight 0-d, gradWeight 0-d", a -> a.reshape("weight").reshape("gradWeight")),
                accepts("weight [1,1], gradWeight [1,1]", a -> a.reshape("weight", 1, 1).reshape("gradWeight", 1, 1)),
                rejects("weight [1], gradWeight [3]", INVALID, a -> a.reshape("weight", 1)).naming("weight"),
                rejects("weight [1], gradWeight 0-d", INVALID, a -> a.reshape("weight", 1).reshape("gradWeight")),
                rejects("weight 0-d, gradWeight [1]", INVALID, a -> a.reshape("weight").reshape("gradWeight", 1)),
                rejects("weight [1,1], gradWeight [1]", INVALID,
                        a -> a.reshape("weight", 1, 1).reshape("gradWeight", 1)),
                rejects("0-d self with weight [2]", INVALID, a -> a.reshape("self").reshape("gradOutput")
                        .reshape("gradInput").reshape("weight", 2).reshape("gradWeight", 2)),
                accepts("0-d self with weight [1]", a -> a.reshape("self").reshape("gradOutput")
                        .reshape("gradInput").reshape("weight", 1).reshape("gradWeight", 1)),
                rejects("1-d self [5] (C = 1) with weight [5]", INVALID, a -> a.reshape("self", 5)
                        .reshape("gradOutput", 5).reshape("gradInput", 5).reshape("weight", 5).reshape("gradWeight",
                        5)),
                accepts("1-d self [5] with weight [1]", a -> a.reshape("self", 5).reshape("gradOutput", 5)
                        .reshape("gradInput", 5).reshape("weight", 1).reshape("gradWeight", 1)),
                accepts("2-d self [5,3] with weight [3]", a -> a.reshape("self", 5, 3).reshape("gradOutput", 5, 3)
                        .reshape("gradInput", 5, 3)),
                // the channel is view dimension 1 whatever the format tag says
                rejects("NHWC self [2,4,5,3] with weight [3]", INVALID, a -> nhwc(a, 3)),
                accepts("NHWC self [2,4,5,3] with weight [4]", a -> nhwc(a, 4)),
                // empty inputs are fine
                accepts("empty self [0,3,4]", a -> a.reshape("self", 0, 3, 4).reshape("gradOutput", 0, 3, 4)
                        .reshape("gradInput", 0, 3, 4)));
    }

    /**
     * CANN's unit-test cases of aclnnPreluBackward (activation/p_relu_grad_update/tests/ut/op_host/op_api), in
     * that file's order, as facts: gradOutput, self and gradInput [2,2,3,2], weight and gradWeight [2], FLOAT
     * ND unless said; the cases that also compare values are ported for phase 1's status only.
     */
    static Stream<Change> cannUnitTests() {
        return Stream.of(
                accepts("prelu_backward_testcase_001_normal_float32", a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2)),
                accepts("prelu_backward_testcase_002_normal_float16_nchw: every tensor NCHW, the 1-D ones too",
                        a -> ut(a, ACL_FLOAT16, ACL_FORMAT_NCHW, X, 2)),
                accepts("prelu_backward_testcase_003_normal_float16_nhwc: every tensor NHWC",
                        a -> ut(a, ACL_FLOAT16, ACL_FORMAT_NHWC, X, 2)),
                accepts("prelu_backward_testcase_004_normal_ndhwc: every tensor NDHWC",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_NDHWC, X, 2)),
                accepts("prelu_backward_testcase_005_normal_ncdhw: every tensor NCDHW",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_NCDHW, X, 2)),
                accepts("prelu_backward_testcase_006_normal_empty_tensor: gradOutput, self, gradInput [0,2,3,2]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {0, 2, 3, 2}, 2)),
                rejects("prelu_backward_testcase_007_exception_null_gradOutput", NULLPTR,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).set("gradOutput", null)),
                rejects("prelu_backward_testcase_008_exception_null_self", NULLPTR,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).set("self", null)),
                rejects("prelu_backward_testcase_009_exception_null_weight", NULLPTR,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).set("weight", null)),
                rejects("prelu_backward_testcase_010_exception_null_gradInput", NULLPTR,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).set("gradInput", null)),
                rejects("prelu_backward_testcase_011_exception_null_gradweight", NULLPTR,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).set("gradWeight", null)),
                rejects("prelu_backward_testcase_012_exception_float64_dtype_not_supported: every tensor DOUBLE",
                        INVALID, a -> ut(a, ACL_DOUBLE, ACL_FORMAT_ND, X, 2)),
                rejects("prelu_backward_testcase_013_normal_dtype_not_the_same: gradOutput FLOAT, the rest FLOAT16",
                        INVALID, a -> ut(a, ACL_FLOAT16, ACL_FORMAT_ND, X, 2).retype("gradOutput", ACL_FLOAT)),
                rejects("prelu_backward_testcase_014_normal_dtype_not_the_same: weight FLOAT, the rest FLOAT16",
                        INVALID, a -> ut(a, ACL_FLOAT16, ACL_FORMAT_ND, X, 2).retype("weight", ACL_FLOAT)),
                rejects("prelu_backward_testcase_015_normal_dtype_not_the_same: gradInput FLOAT, the rest FLOAT16",
                        INVALID, a -> ut(a, ACL_FLOAT16, ACL_FORMAT_ND, X, 2).retype("gradInput", ACL_FLOAT)),
                rejects("prelu_backward_testcase_016_normal_dtype_not_the_same: gradWeight FLOAT, the rest FLOAT16",
                        INVALID, a -> ut(a, ACL_FLOAT16, ACL_FORMAT_ND, X, 2).retype("gradWeight", ACL_FLOAT)),
                accepts("prelu_backward_testcase_017_normal_self_empty_tensor: self, gradInput [0,2,3,2], "
                        + "gradOutput [1,2,3,2]", a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {0, 2, 3, 2}, 2)
                                .reshape("gradOutput", 1, 2, 3, 2)),
                accepts("prelu_backward_testcase_018_exception_gradOutput_empty_tensor: gradOutput, self, gradInput "
                        + "[0,2,3,2]", a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {0, 2, 3, 2}, 2)),
                rejects("prelu_backward_testcase_019_exception_weight_invalid_shape: weight [0]", INVALID,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).reshape("weight", 0)),
                rejects("prelu_backward_testcase_020_exception_different_shape: self [2,2,4,2]", INVALID,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).reshape("self", 2, 2, 4, 2)),
                rejects("prelu_backward_testcase_021_exception_weight_shape_invalid: self [2,2,4,2], weight [3]",
                        INVALID, a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).reshape("self", 2, 2, 4, 2)
                                .reshape("weight", 3)),
                accepts("prelu_backward_testcase_022_weight_one_element: [2,4,3,2], weight and gradWeight [1]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {2, 4, 3, 2}, 1)),
                accepts("prelu_backward_testcase_023_weight_one_element: [2,4,3,2], weight and gradWeight [1,1]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {2, 4, 3, 2}, 1, 1)),
                rejects("prelu_backward_testcase_024_weight_one_element_multi_dim: weight [1,1], gradWeight [1]",
                        INVALID, a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {2, 4, 3, 2}, 1, 1)
                                .reshape("gradWeight", 1)),
                accepts("prelu_backward_testcase_025_weight_shape_multi_dim: [2,4,3,2], weight [2,2], gradWeight [4]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {2, 4, 3, 2}, 4).reshape("weight", 2, 2)),
                accepts("prelu_backward_testcase_026_normal_not_contiguous_float: gradOutput, self [3,5,6] of "
                        + "strides [30,1,5] over 90 elements, gradInput contiguous, weight [5]", a -> {
                            ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {3, 5, 6}, 5);
                            for (String t : new String[] {"gradOutput", "self"}) {
                                a.remake(t, s -> s.withStrides(30, 1, 5));
                            }
                        }),
                rejects("prelu_backward_testcase_027_normal_large_dims: gradOutput [1,2,...,9]", INVALID,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).reshape("gradOutput", NINE)),
                rejects("prelu_backward_testcase_028_normal_large_dims: self [1,2,...,9]", INVALID,
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, X, 2).reshape("self", NINE)),
                rejects("prelu_backward_testcase_029_exception_gradOutput_shape: self, gradInput [1,2,3,2], "
                        + "gradOutput [2,2,3,2]", INVALID, a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {1, 2, 3, 2},
                        2).reshape("gradOutput", 2, 2, 3, 2)),
                accepts("prelu_backward_testcase_030_normal_bf16 (Ascend910B)",
                        a -> ut(a, ACL_BF16, ACL_FORMAT_ND, X, 2)),
                accepts("prelu_backward_testcase_031_8d_shape: [1,2,...,8], weight [2]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {1, 2, 3, 4, 5, 6, 7, 8}, 2)),
                accepts("prelu_backward_testcase_032_large_shape: [1024,1024], weight [1024]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {1024, 1024}, 1024)),
                accepts("prelu_backward_testcase_033_value_range: [2,4,6,8], weight [4]",
                        a -> ut(a, ACL_FLOAT, ACL_FORMAT_ND, new long[] {2, 4, 6, 8}, 4)));
    }

    /**
     * gradOutput, self and gradInput of shape {@code x}, weight and gradWeight of shape {@code w}: all of
     * {@code dtype}, tagged {@code format}.
     */
    private static OpArgs ut(OpArgs a, int dtype, int format, long[] x, long... w) {
        for (String name : OP.tensorSlots) {
            boolean weightLike = name.equals("weight") || name.equals("gradWeight");
            a.set(name, a.arena.tensor(dtype, weightLike ? w : x)).remake(name, s -> s.withFormat(format));
        }
        return a;
    }

    private static void allRetyped(OpArgs a, int dtype) {
        for (String name : OP.tensorSlots) {
            a.retype(name, dtype);
        }
    }

    private static void nhwc(OpArgs a, long weightCount) {
        for (String name : new String[] {"self", "gradOutput", "gradInput"}) {
            a.reshape(name, 2, 4, 5, 3).remake(name, s -> s.withFormat(ACL_FORMAT_NHWC));
        }
        a.reshape("weight", weightCount).reshape("gradWeight", weightCount);
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
    void emptyInputGivesZeroGradWeight() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).reshape("self", 2, 3, 0).reshape("gradOutput", 2, 3, 0)
                    .reshape("gradInput", 2, 3, 0);
            args.run(null);
            assertArrayEquals(new float[3], DeviceArena.readFloats(arena.spec(args.tensor("gradWeight")).data(), 3),
                    "gradWeight of an empty input is the sum over nothing");
        }
    }
}
