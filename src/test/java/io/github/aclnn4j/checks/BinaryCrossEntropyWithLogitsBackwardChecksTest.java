package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_FRACTAL_Z;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NC1HWC0;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_NCHW;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;

import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The checks of aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize (gradOutput 0-d; self,
 * target, out [2,3]; weight and posWeight [3]; reduction mean), in the order of CANN's code: nulls;
 * rank; dtypes in the list, out's equal to target's; self, target and out in one format; shapes
 * (skipped for an empty self); reduction. CANN's own unit-test cases
 * (loss/sigmoid_cross_entropy_with_logits_grad_v2/tests/ut/op_host) come last, as facts.
 */
class BinaryCrossEntropyWithLogitsBackwardChecksTest {
    private static final Operator OP = Operator.BCE_WITH_LOGITS_BACKWARD;
    private static final long[] S5 = {1, 2, 3, 4, 5};

    static Stream<Change> changes() {
        return Stream.of(
                rejects("null gradOutput and INT32 self", NULLPTR,
                        a -> a.set("gradOutput", null).retype("self", ACL_INT32)).naming("gradOutput"),
                rejects("null out", NULLPTR, a -> a.set("out", null)).naming("out"),
                accepts("no weight, no posWeight", a -> a.set("weightOptional", null).set("posWeightOptional", null)),
                rejects("out rank 9 before a bad dtype", INVALID,
                        a -> a.reshape("out", 1, 1, 1, 1, 1, 1, 1, 2, 3).retype("self", ACL_INT64)).naming("out"),
                rejects("self INT64", INVALID, a -> a.retype("self", ACL_INT64)).naming("self"),
                rejects("posWeight DOUBLE", INVALID, a -> a.retype("posWeightOptional", ACL_DOUBLE))
                        .naming("posWeightOptional"),
                rejects("out FLOAT16, target FLOAT", INVALID, a -> a.retype("out", ACL_FLOAT16)).naming("out"),
                accepts("self FLOAT16, the rest FLOAT (they promote)", a -> a.retype("self", ACL_FLOAT16)),
                accepts("target and out BF16, the rest FLOAT", a -> a.retype("target", ACL_BF16).retype("out", ACL_BF16)),
                rejects("out tagged NCHW, self ND", INVALID, a -> a.remake("out", s -> s.withFormat(ACL_FORMAT_NCHW)))
                        .naming("out"),
                rejects("target [3,2]", INVALID, a -> a.reshape("target", 3, 2)).naming("target"),
                rejects("out [6]", INVALID, a -> a.reshape("out", 6)).naming("out"),
                rejects("out [1] for mean (the gradient has self's shape)", INVALID, a -> a.reshape("out", 1)),
                accepts("gradOutput [2,3]", a -> a.reshape("gradOutput", 2, 3)),
                rejects("gradOutput [2] does not broadcast", INVALID, a -> a.reshape("gradOutput", 2))
                        .naming("gradOutput"),
                rejects("gradOutput [1,2,3] would enlarge self", INVALID, a -> a.reshape("gradOutput", 1, 2, 3)),
                rejects("weight [2]", INVALID, a -> a.reshape("weightOptional", 2)).naming("weightOptional"),
                rejects("reduction 3", INVALID, a -> a.set("reduction", 3)),
                accepts("empty self: no shape checks", a -> a.reshape("self", 0, 3).reshape("target", 4)
                        .reshape("out", 7)),
                rejects("empty self, reduction -1", INVALID, a -> a.reshape("self", 0, 3).set("reduction", -1)));
    }

    /** CANN's unit-test cases: [1,2,3,4,5] tensors unless said (S5), and the status they expect. */
    static Stream<Change> cannUnitTests() {
        Stream.Builder<Change> b = Stream.builder();
        for (int r = 0; r < 3; r++) {
            int reduction = r;
            b.add(accepts("case_f16_reduce_valid, reduction " + r, a -> all(a, ACL_FLOAT16, reduction)));
            b.add(accepts("case_f32_reduce_valid (posWeight FLOAT16), reduction " + r,
                    a -> all(a, ACL_FLOAT, reduction).retype("posWeightOptional", ACL_FLOAT16)));
            b.add(accepts("case_f16_reduce_valid_no_weight, reduction " + r,
                    a -> all(a, ACL_FLOAT16, reduction).set("weightOptional", null)));
            b.add(accepts("case_f32_reduce_none_no_weight, reduction " + r,
                    a -> all(a, ACL_FLOAT, reduction).set("weightOptional", null)));
            b.add(accepts("case_f16_reduce_valid_no_posWeight, reduction " + r,
                    a -> all(a, ACL_FLOAT16, reduction).set("posWeightOptional", null)));
            b.add(accepts("case_f32_reduce_valid_no_posWeight, reduction " + r,
                    a -> all(a, ACL_FLOAT, reduction).set("posWeightOptional", null)));
            b.add(accepts("case_bf16_reduce_valid (Ascend910B), reduction " + r, a -> all(a, ACL_BF16, reduction)));
        }
        b.add(accepts("case_empty: [2,0]", a -> each(a, t -> a.reshape(t, 2, 0)).set("reduction", 0)));
        b.add(accepts("case_NC1HWC0: every tensor [1,2,3,4,16] NC1HWC0, mean",
                a -> each(a, t -> a.reshape(t, 1, 2, 3, 4, 16).remake(t, s -> s.withFormat(ACL_FORMAT_NC1HWC0)))
                        .set("reduction", 1)));
        b.add(accepts("case_FRACTAL_Z: every tensor [16,16,16,16] FRACTAL_Z, mean",
                a -> each(a, t -> a.reshape(t, 16, 16, 16, 16).remake(t, s -> s.withFormat(ACL_FORMAT_FRACTAL_Z)))
                        .set("reduction", 1)));
        b.add(accepts("case_dtype_promotion: F16 but target and out F32",
                a -> all(a, ACL_FLOAT16, 0).retype("target", ACL_FLOAT).retype("out", ACL_FLOAT)));
        b.add(accepts("case_self_float32_type_promotion: gradOutput, weights F16, the rest F32",
                a -> all(a, ACL_FLOAT, 0).retype("gradOutput", ACL_FLOAT16).retype("weightOptional", ACL_FLOAT16)
                        .retype("posWeightOptional", ACL_FLOAT16)));
        b.add(rejects("case_unsupport_dtype 1: every tensor INT64", INVALID, a -> noWeights(all(a, ACL_INT64, 0))));
        b.add(rejects("case_unsupport_dtype 2: self F32, the rest INT64", INVALID,
                a -> noWeights(all(a, ACL_INT64, 0)).retype("self", ACL_FLOAT)));
        b.add(rejects("case_unsupport_dtype 3: target and out INT64", INVALID,
                a -> noWeights(all(a, ACL_FLOAT, 0)).retype("target", ACL_INT64).retype("out", ACL_INT64)));
        b.add(rejects("case_unsupport_dtype 4: out INT64", INVALID,
                a -> noWeights(all(a, ACL_FLOAT, 0)).retype("out", ACL_INT64)));
        long[] nine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        b.add(rejects("case_dimension8: rank 9, sum", INVALID, a -> noWeights(each(a, t -> a.reshape(t, nine)))
                .set("reduction", 2)));
        b.add(rejects("case_out_format_invalid: out NCHW, the rest ND", INVALID,
                a -> noWeights(each(a, t -> a.reshape(t, 1, 2, 3, 4))).set("reduction", 2)
                        .remake("out", s -> s.withFormat(ACL_FORMAT_NCHW))));
        b.add(rejects("case_unsupport_shape: gradOutput [3,1,4,2,5], target [5,4,3,2,1], out 0-d", INVALID,
                a -> noWeights(all(a, ACL_FLOAT, 2)).reshape("gradOutput", 3, 1, 4, 2, 5)
                        .reshape("target", 5, 4, 3, 2, 1).reshape("out")));
        for (String slot : new String[] {"gradOutput", "self", "target", "out"}) {
            b.add(rejects("case_null: " + slot, NULLPTR, a -> noWeights(all(a, ACL_FLOAT, 2)).set(slot, null)));
        }
        return b.build();
    }

    private static OpArgs each(OpArgs a, Consumer<String> edit) {
        for (String t : OP.tensorSlots) {
            edit.accept(t);
        }
        return a;
    }

    /** Every tensor S5 of {@code dtype}, with reduction {@code reduction}. */
    private static OpArgs all(OpArgs a, int dtype, int reduction) {
        each(a, t -> a.reshape(t, S5).retype(t, dtype));
        return a.set("reduction", reduction);
    }

    private static OpArgs noWeights(OpArgs a) {
        return a.set("weightOptional", null).set("posWeightOptional", null);
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
