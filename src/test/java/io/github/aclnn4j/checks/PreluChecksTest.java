package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_HWCN;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCDHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NDHWC;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NHWC;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks of aclnnPreluGetWorkspaceSize (self [2,3,4], weight [3]), in CANN's order: null
 * pointers; dtypes in the list; self and weight promote and the result casts to out; rank ≤ 8; out
 * shaped as self; weight of 1 or C elements. The cases of CANN's own unit test
 * (activation/p_relu/tests/ut/op_api) come last, as the shapes, dtypes, formats and status it expects.
 */
class PreluChecksTest {
    private static final Operator OP = Operator.PRELU;
    private static final long[] RANK8 = {2, 3, 1, 1, 1, 1, 1, 4};
    private static final long[] RANK9 = {2, 3, 1, 1, 1, 1, 1, 1, 4};

    static Stream<Change> changes() {
        return Stream.of(
                // (1) null pointers before everything else
                rejects("null self and INT32 weight", NULLPTR, a -> a.set("self", null).retype("weight", ACL_INT32))
                        .naming("self"),
                rejects("null weight", NULLPTR, a -> a.set("weight", null)).naming("weight"),
                rejects("null out and out-of-range weight", NULLPTR, a -> a.set("out", null).reshape("weight", 7))
                        .naming("out"),
                // (2) dtypes in the list, each tensor on its own
                rejects("self INT32", INVALID, a -> a.retype("self", ACL_INT32)).naming("self"),
                rejects("weight DOUBLE", INVALID, a -> a.retype("weight", ACL_DOUBLE)).naming("weight"),
                rejects("out INT64", INVALID, a -> a.retype("out", ACL_INT64)).naming("out"),
                rejects("out DOUBLE before a bad weight count", INVALID,
                        a -> a.retype("out", ACL_DOUBLE).reshape("weight", 5)).naming("out"),
                // (3) mixed float dtypes promote; out may be any float dtype
                accepts("self FLOAT16, weight FLOAT", a -> a.retype("self", ACL_FLOAT16)),
                accepts("self BF16, weight FLOAT16, out FLOAT16", a -> a.retype("self", ACL_BF16)
                        .retype("weight", ACL_FLOAT16).retype("out", ACL_FLOAT16)),
                accepts("FLOAT in, BF16 out", a -> a.retype("out", ACL_BF16)),
                // (4) rank and shapes
                rejects("self and out rank 9", INVALID, a -> a.reshape("self", RANK9).reshape("out", RANK9)),
                accepts("self and out rank 8", a -> a.reshape("self", RANK8).reshape("out", RANK8)),
                rejects("weight rank 9 of three elements", INVALID, a -> a.reshape("weight", 3, 1, 1, 1, 1, 1, 1, 1, 1))
                        .naming("weight"),
                rejects("out [2,3,5]", INVALID, a -> a.reshape("out", 2, 3, 5)).naming("out"),
                rejects("out [24]", INVALID, a -> a.reshape("out", 24)).naming("out"),
                rejects("out [1,2,3,4] (no broadcasting)", INVALID, a -> a.reshape("out", 1, 2, 3, 4)).naming("out"),
                // (5) weight: 1 element, or C = self.shape[1] (1 below rank 2), in any shape
                rejects("weight [4]", INVALID, a -> a.reshape("weight", 4)).naming("weight"),
                rejects("weight [2]", INVALID, a -> a.reshape("weight", 2)).naming("weight"),
                accepts("weight [1,3,1]", a -> a.reshape("weight", 1, 3, 1)),
                accepts("weight [1]", a -> a.reshape("weight", 1)),
                accepts("weight 0-d", a -> a.reshape("weight")),
                accepts("0-d self with weight [1]", a -> a.reshape("self").reshape("out").reshape("weight", 1)),
                rejects("0-d self with weight [3]", INVALID, a -> a.reshape("self").reshape("out")).naming("weight"),
                rejects("1-d self [4] (C = 1) with weight [2,2]", INVALID,
                        a -> a.reshape("self", 4).reshape("out", 4).reshape("weight", 2, 2)).naming("weight"),
                accepts("2-d self [2,6] with weight [2,3]", a -> a.reshape("self", 2, 6).reshape("out", 2, 6)
                        .reshape("weight", 2, 3)),
                // the channel is view dimension 1 whatever the format tag says
                rejects("NHWC self [2,4,5,3] with weight [3]", INVALID, a -> tagged(a, ACL_FORMAT_NHWC, 3, 2, 4, 5, 3)),
                accepts("NHWC self [2,4,5,3] with weight [4]", a -> tagged(a, ACL_FORMAT_NHWC, 4, 2, 4, 5, 3)),
                // empty tensors: accepted, nothing to do
                accepts("empty self [0,3,4]", a -> a.reshape("self", 0, 3, 4).reshape("out", 0, 3, 4)),
                accepts("empty self [2,0] with empty weight [0]", a -> a.reshape("self", 2, 0).reshape("out", 2, 0)
                        .reshape("weight", 0)));
    }

    /** CANN's unit-test cases of aclnnPrelu: shapes, dtypes and formats as they give them, and their status. */
    static Stream<Change> cannUnitTests() {
        return Stream.of(
                accepts("case_1: NCHW [1,16,4,4], weight [16]", a -> tagged(a, ACL_FORMAT_NCHW, 16, 1, 16, 4, 4)),
                accepts("case_NHWC_1: ND [1,16,4,16], weight [16]", a -> a.reshape("self", 1, 16, 4, 16)
                        .reshape("out", 1, 16, 4, 16).reshape("weight", 16)),
                accepts("case_NCHW: [1,8,4,4], weight [8]", a -> tagged(a, ACL_FORMAT_NCHW, 8, 1, 8, 4, 4)),
                accepts("case_HWCN_1: HWCN [1,16,4,4], weight [16]", a -> tagged(a, ACL_FORMAT_HWCN, 16, 1, 16, 4, 4)),
                accepts("case_HWCN_2: HWCN [1,4,16,4], weight [4]", a -> tagged(a, ACL_FORMAT_HWCN, 4, 1, 4, 16, 4)),
                accepts("case_NCDHW: [1,16,4,4,7], weight [16]",
                        a -> tagged(a, ACL_FORMAT_NCDHW, 16, 1, 16, 4, 4, 7)),
                accepts("case_empty: [1,16,0,4], weight [16]", a -> tagged(a, ACL_FORMAT_NCHW, 16, 1, 16, 0, 4)),
                accepts("case_2: FLOAT16 [1,8,4,4], weight [8]", a -> tagged(a, ACL_FORMAT_NCHW, 8, 1, 8, 4, 4)
                        .retype("self", ACL_FLOAT16).retype("weight", ACL_FLOAT16).retype("out", ACL_FLOAT16)),
                accepts("case_4: [4,8,2,4], weight [8]", a -> tagged(a, ACL_FORMAT_NCHW, 8, 4, 8, 2, 4)),
                accepts("case_5: NDHWC [1,2,3,4,5], weight [2]", a -> tagged(a, ACL_FORMAT_NDHWC, 2, 1, 2, 3, 4, 5)),
                accepts("case_6: ND [4,8,4], weight [8]", a -> a.reshape("self", 4, 8, 4).reshape("out", 4, 8, 4)
                        .reshape("weight", 8)),
                accepts("ascend910B2_case_bf16: BF16 [4,8,4], weight [8]", a -> a.reshape("self", 4, 8, 4)
                        .reshape("out", 4, 8, 4).reshape("weight", 8).retype("self", ACL_BF16)
                        .retype("weight", ACL_BF16).retype("out", ACL_BF16)),
                rejects("case_null: null self", NULLPTR, a -> a.set("self", null)),
                rejects("case_null: null weight", NULLPTR, a -> a.set("weight", null)),
                rejects("case_null: null out", NULLPTR, a -> a.set("out", null)),
                rejects("case_nine_dim: rank 9 self and out, weight [8]", INVALID, a -> a.reshape("self", RANK9)
                        .reshape("out", RANK9).reshape("weight", 8)),
                accepts("case_weight_1_selfdim_4: [2,4,3,5], weight [1], out tagged NHWC",
                        a -> a.reshape("self", 2, 4, 3, 5).reshape("weight", 1).reshape("out", 2, 4, 3, 5)
                                .remake("out", s -> s.withFormat(ACL_FORMAT_NHWC))),
                rejects("case_weight_gt_1_selfdim_1: [4], weight [2,2]", INVALID,
                        a -> a.reshape("self", 4).reshape("out", 4).reshape("weight", 2, 2)),
                accepts("case_weight_gt_1_selfdim_gt_1: [2,6], weight [2,3]",
                        a -> a.reshape("self", 2, 6).reshape("out", 2, 6).reshape("weight", 2, 3)));
    }

    /** self and out of {@code shape} tagged {@code format}, weight of {@code weights} elements tagged ND. */
    private static OpArgs tagged(OpArgs a, int format, long weights, long... shape) {
        for (String name : new String[] {"self", "out"}) {
            a.reshape(name, shape).remake(name, s -> s.withFormat(format));
        }
        return a.reshape("weight", weights);
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
}
