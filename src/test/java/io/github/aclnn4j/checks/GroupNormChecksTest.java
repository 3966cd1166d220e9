package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NC1HWC0;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCHW;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCL;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NHWC;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks of aclnnGroupNormGetWorkspaceSize (self [2,3,4], gamma and beta [3], N 2, C 3, HxW 4,
 * group 1, eps 1e-5, meanOut and rstdOut [2,1]), in the order of CANN's code, then CANN's own
 * unit-test cases (norm/group_norm/tests/ut/op_host/op_api) as facts.
 */
class GroupNormChecksTest {
    private static final Operator OP = Operator.GROUP_NORM;

    static Stream<Change> changes() {
        return Stream.of(
                accepts("gamma and beta null (ones, zeros)", a -> a.set("gamma", null).set("beta", null)),
                rejects("null meanOut and group 0", NULLPTR, a -> a.set("meanOut", null).set("group", 0))
                        .naming("meanOut"),
                rejects("gamma FLOAT16 before group 0", INVALID, a -> a.retype("gamma", ACL_FLOAT16).set("group", 0))
                        .naming("gamma"),
                rejects("rstdOut BF16", INVALID, a -> a.retype("rstdOut", ACL_BF16)).naming("rstdOut"),
                rejects("group -1", INVALID, a -> a.set("group", -1)),
                rejects("C 3, group 2", INVALID, a -> a.set("group", 2).reshape("meanOut", 2, 2)
                        .reshape("rstdOut", 2, 2)),
                accepts("C 3, group 3", a -> a.set("group", 3).reshape("meanOut", 2, 3).reshape("rstdOut", 2, 3)),
                rejects("meanOut [2] (must be [N, group])", INVALID, a -> a.reshape("meanOut", 2)).naming("meanOut"),
                rejects("self [2,3] with HxW 4", INVALID, a -> a.reshape("self", 2, 3).reshape("out", 2, 3)),
                accepts("self [2,3] with HxW 1", a -> a.reshape("self", 2, 3).reshape("out", 2, 3).set("HxW", 1)),
                accepts("self [2,3,2,2] with HxW 4", a -> a.reshape("self", 2, 3, 2, 2).reshape("out", 2, 3, 2, 2)),
                rejects("self and out NHWC", INVALID, a -> a.remake("self", s -> s.withFormat(ACL_FORMAT_NHWC))
                        .remake("out", s -> s.withFormat(ACL_FORMAT_NHWC))),
                accepts("self and out NCHW", a -> a.remake("self", s -> s.withFormat(ACL_FORMAT_NCHW))
                        .remake("out", s -> s.withFormat(ACL_FORMAT_NCHW))));
    }

    /** CANN's active unit-test cases of aclnnGroupNorm, with the common values above. */
    static Stream<Change> cannUnitTests() {
        Stream.Builder<Change> b = Stream.builder();
        for (int dtype : new int[] {ACL_DOUBLE, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL,
            ACL_COMPLEX64, ACL_COMPLEX128}) {
            b.add(rejects("case_invalid_dtype_abnormal: every tensor of dtype " + dtype, INVALID, a -> {
                for (String t : OP.tensorSlots) {
                    a.retype(t, dtype);
                }
            }));
        }
        return Stream.concat(b.build(), Stream.of(
                rejects("case_gamma_not_1d_abnormal: gamma [3,1]", INVALID, a -> a.reshape("gamma", 3, 1)),
                rejects("case_beta_not_1d_abnormal: beta [3,1]", INVALID, a -> a.reshape("beta", 3, 1)),
                rejects("case_1d_abnormal: self [2]", INVALID, a -> a.reshape("self", 2).reshape("gamma", 1)
                        .reshape("beta", 1).set("C", 1).set("HxW", 1).reshape("out", 2)),
                rejects("case_9d_abnormal: self and out 9-D", INVALID, a -> a.reshape("self", 2, 3, 4, 1, 1, 1, 1, 1, 1)
                        .reshape("out", 2, 3, 4, 1, 1, 1, 1, 1, 1)),
                rejects("case_self_nullptr_abnormal", NULLPTR, a -> a.set("self", null)),
                rejects("case_out_nullptr_abnormal", NULLPTR, a -> a.set("out", null)),
                rejects("case_mean_out_nullptr_abnormal", NULLPTR, a -> a.set("meanOut", null)),
                rejects("case_rstd_out_nullptr_abnormal", NULLPTR, a -> a.set("rstdOut", null)),
                rejects("case_diff_dtype_abnormal: beta FLOAT16", INVALID, a -> a.retype("beta", ACL_FLOAT16)),
                rejects("case_group_not_gt0_abnormal: group 0", INVALID, a -> a.set("group", 0)),
                rejects("case_self_numel_ne_abnormal: HxW 5", INVALID, a -> a.set("HxW", 5)),
                rejects("case_gamma_ne_C_abnormal: gamma [2]", INVALID, a -> a.reshape("gamma", 2)),
                rejects("case_beta_ne_C_abnormal: beta [2]", INVALID, a -> a.reshape("beta", 2)),
                rejects("case_self_shpe_ne_gn_out_abnormal: out [2,3,5]", INVALID,
                        a -> a.reshape("beta", 2).reshape("out", 2, 3, 5)),
                rejects("case_mean_shpe_ne_abnormal: meanOut [2,2]", INVALID,
                        a -> a.reshape("beta", 2).reshape("meanOut", 2, 2)),
                rejects("case_rstd_shpe_ne_abnormal: rstdOut [2,2]", INVALID,
                        a -> a.reshape("beta", 2).reshape("rstdOut", 2, 2)),
                accepts("case_empty_normal: self [2,3,0], HxW 0", a -> a.reshape("self", 2, 3, 0).reshape("out", 2, 3, 0)
                        .set("HxW", 0)),
                rejects("case_C_not_div_group_abnormal: group 2", INVALID, a -> a.set("group", 2)
                        .reshape("meanOut", 2, 2).reshape("rstdOut", 2, 2)),
                rejects("case_self_ne_N_abnormal: self [3,3,4]", INVALID, a -> a.reshape("self", 3, 3, 4)
                        .reshape("out", 3, 3, 4)),
                rejects("case_self_ne_C_abnormal: C 4", INVALID, a -> a.set("C", 4)),
                rejects("case_self_ne_HxW_abnormal: HxW 2", INVALID, a -> a.set("HxW", 2)),
                rejects("case_self_format_ne_out_abnormal: self NCL, out ND", INVALID,
                        a -> a.remake("self", s -> s.withFormat(ACL_FORMAT_NCL))),
                rejects("case_self_private_format_abnormal: self NC1HWC0, out ND", INVALID,
                        a -> a.remake("self", s -> s.withFormat(ACL_FORMAT_NC1HWC0)))));
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
