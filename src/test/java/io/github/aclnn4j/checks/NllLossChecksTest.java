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
 * The checks of aclnnNLLLossGetWorkspaceSize (self [3,4], target INT64 [3], weight [4], mean, out
 * 0-d, totalWeightOut [1]), in the order of CANN's code: nulls; weight's dtype is self's, self's
 * casts to out's and totalWeightOut's, self in the float list, target INT64/UINT8/INT32; reduction;
 * shapes. CANN's own unit-test cases (loss/nll_loss/tests/ut/op_api) come last, as facts.
 */
class NllLossChecksTest {
    private static final Operator OP = Operator.NLL_LOSS;

    static Stream<Change> changes() {
        return Stream.of(
                rejects("null weight (required) and reduction 5", NULLPTR,
                        a -> a.set("weight", null).set("reduction", 5)).naming("weight"),
                rejects("null totalWeightOut", NULLPTR, a -> a.set("totalWeightOut", null)).naming("totalWeightOut"),
                rejects("weight FLOAT16 for self FLOAT, before self INT", INVALID, a -> a.retype("weight", ACL_FLOAT16))
                        .naming("weight"),
                rejects("out INT32 (FLOAT does not cast to it)", INVALID, a -> a.retype("out", ACL_INT32))
                        .naming("out"),
                rejects("totalWeightOut BOOL", INVALID, a -> a.retype("totalWeightOut", ACL_BOOL))
                        .naming("totalWeightOut"),
                accepts("out FLOAT16 and totalWeightOut BF16", a -> a.retype("out", ACL_FLOAT16)
                        .retype("totalWeightOut", ACL_BF16)),
                rejects("target FLOAT", INVALID, a -> a.retype("target", ACL_FLOAT)).naming("target"),
                accepts("target INT32", a -> a.set("target", a.arena.values(ACL_INT32, new double[] {0, 3, 1}, 3))),
                rejects("reduction 3", INVALID, a -> a.set("reduction", 3)),
                rejects("self 3-D", INVALID, a -> a.reshape("self", 3, 4, 1)).naming("self"),
                rejects("self 0-d", INVALID, a -> a.reshape("self")).naming("self"),
                rejects("target [3,1]", INVALID, a -> a.reshape("target", 3, 1)).naming("target"),
                rejects("target [2]", INVALID, a -> a.reshape("target", 2)).naming("target"),
                rejects("weight [3]", INVALID, a -> a.reshape("weight", 3)).naming("weight"),
                rejects("weight [1,4]", INVALID, a -> a.reshape("weight", 1, 4)).naming("weight"),
                accepts("out [1] for mean", a -> a.reshape("out", 1)),
                rejects("out [1,1] for mean", INVALID, a -> a.reshape("out", 1, 1)).naming("out"),
                rejects("out [3] for mean", INVALID, a -> a.reshape("out", 3)).naming("out"),
                accepts("out [3] for none", a -> a.set("reduction", 0).reshape("out", 3)),
                rejects("out 0-d for none with 2-D self", INVALID, a -> a.set("reduction", 0)).naming("out"),
                accepts("totalWeightOut [1,1]", a -> a.reshape("totalWeightOut", 1, 1)),
                rejects("totalWeightOut [2]", INVALID, a -> a.reshape("totalWeightOut", 2)).naming("totalWeightOut"),
                accepts("1-D self [4], 0-d target, none, out 0-d", a -> a.reshape("self", 4).reshape("target")
                        .set("reduction", 0)),
                rejects("self [2,0] with two targets (C = 0)", INVALID, a -> a.reshape("self", 2, 0)
                        .reshape("target", 2).reshape("weight", 0)),
                accepts("self [0,0] with no targets", a -> a.reshape("self", 0, 0).reshape("target", 0)
                        .reshape("weight", 0)));
    }

    /** CANN's unit-test cases of aclnnNLLLoss: shapes, dtypes, formats, attributes and status as it states them. */
    static Stream<Change> cannUnitTests() {
        return Stream.of(
                accepts("case_001: [3,5], none, out [3]", a -> call(a, new long[] {3, 5}, 3, 0, new long[] {3})),
                accepts("case_002: [10,7] NCHW, UINT8 target, weight NHWC, mean", a -> call(a, new long[] {10, 7},
                        10, 1, new long[0]).set("target", a.arena.values(ACL_UINT8, new double[10], 10))
                        .remake("self", s -> s.withFormat(ACL_FORMAT_NCHW))
                        .remake("weight", s -> s.withFormat(ACL_FORMAT_NHWC))),
                accepts("case_003: [7] NDHWC, 0-d target HWCN, weight NCDHW, sum", a -> call(a, new long[] {7}, -1, 2,
                        new long[0]).remake("self", s -> s.withFormat(ACL_FORMAT_NDHWC))
                        .remake("target", s -> s.withFormat(ACL_FORMAT_HWCN))
                        .remake("weight", s -> s.withFormat(ACL_FORMAT_NCDHW))),
                rejects("case_004: [1] with target [1]", INVALID, a -> call(a, new long[] {1}, 1, 0, new long[] {1})),
                accepts("case_005: [5,5], mean, ignoreIndex 0", a -> call(a, new long[] {5, 5}, 5, 1, new long[0])
                        .set("ignoreIndex", 0).reshape("totalWeightOut")),
                accepts("case_006: [7,7], sum, ignoreIndex 5", a -> call(a, new long[] {7, 7}, 7, 2, new long[0])
                        .set("ignoreIndex", 5).reshape("totalWeightOut")),
                rejects("case_007: reduction 3", INVALID, a -> call(a, new long[] {1, 7}, 1, 3, new long[0])),
                rejects("case_008: self [1,2,3,4]", INVALID, a -> call(a, new long[] {1, 2, 3, 4}, 12, 0,
                        new long[] {12}).reshape("weight", 2)),
                rejects("case_009: N mismatch (target [2])", INVALID, a -> call(a, new long[] {1, 7}, 2, 0,
                        new long[] {1})),
                rejects("case_010: INT32 self, weight, out", INVALID, a -> call(a, new long[] {1, 7}, 1, 0,
                        new long[] {1}).retype("self", ACL_INT32).retype("weight", ACL_INT32).retype("out", ACL_INT32)
                        .retype("totalWeightOut", ACL_INT32)),
                rejects("case_011: null self", NULLPTR, a -> a.set("self", null)),
                rejects("case_012: null target", NULLPTR, a -> a.set("target", null)),
                rejects("case_013: null weight", NULLPTR, a -> a.set("weight", null)),
                rejects("case_014: null out", NULLPTR, a -> a.set("out", null)),
                rejects("case_015: null totalWeightOut", NULLPTR, a -> a.set("totalWeightOut", null)),
                rejects("case_016: weight FLOAT16", INVALID, a -> call(a, new long[] {1, 7}, 1, 0, new long[] {1})
                        .retype("weight", ACL_FLOAT16)),
                accepts("case_017: [0,4], none", a -> call(a, new long[] {0, 4}, 0, 0, new long[] {0})),
                accepts("case_019: [0,4], mean", a -> call(a, new long[] {0, 4}, 0, 1, new long[0])),
                accepts("case_020: out and totalWeightOut FLOAT16", a -> call(a, new long[] {10, 4}, 10, 0,
                        new long[] {10}).retype("out", ACL_FLOAT16).retype("totalWeightOut", ACL_FLOAT16)),
                rejects("case_021: out and totalWeightOut INT32", INVALID, a -> call(a, new long[] {10, 4}, 10, 0,
                        new long[] {10}).retype("out", ACL_INT32).retype("totalWeightOut", ACL_INT32)),
                accepts("Ascend910B2_case_024: BF16 [10,7], UINT8 target, mean", a -> call(a, new long[] {10, 7}, 10, 1,
                        new long[0]).retype("self", ACL_BF16).retype("weight", ACL_BF16).retype("out", ACL_BF16)
                        .retype("totalWeightOut", ACL_BF16)
                        .set("target", a.arena.values(ACL_UINT8, new double[10], 10))));
    }

    /** self of {@code shape}, zero targets ({@code targets} of them, -1 for 0-d), weight [C], reduction, out shape. */
    private static OpArgs call(OpArgs a, long[] shape, int targets, int reduction, long[] outShape) {
        a.reshape("self", shape).reshape("weight", shape[shape.length - 1]).set("reduction", reduction)
                .reshape("out", outShape);
        return targets < 0 ? a.set("target", a.arena.values(ACL_INT64, new double[1]))
                : a.set("target", a.arena.values(ACL_INT64, new double[targets], targets));
    }

    /** CANN's castability check comes before the dtype list: an INT32 out is refused as a cast. */
    @org.junit.jupiter.api.Test
    void outThatSelfCannotCastToIsRefusedByTheCastCheck() {
        try (DeviceArena arena = new DeviceArena()) {
            String message = OP.baseline(arena, ACL_FLOAT).retype("out", ACL_INT32).rejected(INVALID);
            org.junit.jupiter.api.Assertions.assertTrue(message.contains("cannot be cast to out's"), message);
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
}
