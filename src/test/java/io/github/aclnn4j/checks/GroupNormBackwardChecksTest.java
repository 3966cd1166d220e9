package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static io.github.aclnn4j.checks.Change.accepts;
import static io.github.aclnn4j.checks.Change.rejects;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.tensor.DType;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC §5.4: the checks of aclnnGroupNormBackwardGetWorkspaceSize (N 2, C 4, HxW 3, group 2), then CANN's
 * own unit-test cases as facts.
 */
class GroupNormBackwardChecksTest {
    private static final Operator OP = Operator.GROUP_NORM_BACKWARD;

    static Stream<Change> changes() {
        return Stream.of(
                // (1) before everything else
                rejects("null gradOut and a mask of length 2", NULLPTR, a -> a.set("gradOut", null).mask(true, true))
                        .naming("gradOut"),
                rejects("null mean and group 0", NULLPTR, a -> a.set("mean", null).set("group", 0)).naming("mean"),
                rejects("null rstd and INT32 gradOut", NULLPTR, a -> a.set("rstd", null).retype("gradOut", ACL_INT32))
                        .naming("rstd"),
                // (2) the mask, then the requested outputs
                rejects("null outputMask", INVALID, a -> a.mask((AclBoolArray) null)),
                rejects("outputMask of length 2", INVALID, a -> a.mask(true, true)),
                rejects("outputMask of length 4", INVALID, a -> a.mask(true, true, true, true)),
                rejects("outputMask of length 0", INVALID, a -> a.mask(new boolean[0])),
                rejects("outputMask of length 2 and null gradInput", INVALID,
                        a -> a.mask(true, true).set("gradInput", null)),
                rejects("requested gradGammaOut null and INT32 gradOut", NULLPTR,
                        a -> a.set("gradGammaOut", null).retype("gradOut", ACL_INT32)).naming("gradGammaOut"),
                rejects("requested gradBetaOut null and group 0", NULLPTR,
                        a -> a.set("gradBetaOut", null).set("group", 0)).naming("gradBetaOut"),
                accepts("unrequested gradInput null", a -> a.mask(false, true, true).set("gradInput", null)),
                accepts("unrequested gradGammaOut null", a -> a.mask(true, false, true).set("gradGammaOut", null)),
                accepts("unrequested gradBetaOut null", a -> a.mask(true, true, false).set("gradBetaOut", null)),
                accepts("nothing requested, every output null", a -> a.mask(false, false, false)
                        .set("gradInput", null).set("gradGammaOut", null).set("gradBetaOut", null)),
                // (3) dtypes
                rejects("every tensor INT32", INVALID, a -> {
                    for (String name : OP.tensorSlots) {
                        a.retype(name, ACL_INT32);
                    }
                }),
                rejects("input FLOAT16", INVALID, a -> a.retype("input", ACL_FLOAT16)).naming("input"),
                rejects("mean FLOAT16", INVALID, a -> a.retype("mean", ACL_FLOAT16)).naming("mean"),
                rejects("rstd BF16", INVALID, a -> a.retype("rstd", ACL_BF16)).naming("rstd"),
                rejects("gamma FLOAT16", INVALID, a -> a.retype("gamma", ACL_FLOAT16)).naming("gamma"),
                rejects("gradInput FLOAT16", INVALID, a -> a.retype("gradInput", ACL_FLOAT16)).naming("gradInput"),
                rejects("gradGammaOut FLOAT16", INVALID,
                        a -> a.retype("gradGammaOut", ACL_FLOAT16)).naming("gradGammaOut"),
                rejects("gradBetaOut BF16", INVALID, a -> a.retype("gradBetaOut", ACL_BF16)).naming("gradBetaOut"),
                accepts("unrequested gradInput FLOAT16",
                        a -> a.mask(false, true, true).retype("gradInput", ACL_FLOAT16)),
                accepts("unrequested gradBetaOut BF16", a -> a.mask(true, true, false).retype("gradBetaOut", ACL_BF16)),
                // (4) group
                rejects("group 0", INVALID, a -> a.set("group", 0)),
                rejects("group -2", INVALID, a -> a.set("group", -2)),
                rejects("group 3 does not divide C 4", INVALID,
                        a -> a.set("group", 3).reshape("mean", 2, 3).reshape("rstd", 2, 3)),
                accepts("group 4", a -> a.set("group", 4).reshape("mean", 2, 4).reshape("rstd", 2, 4)),
                accepts("group 1", a -> a.set("group", 1).reshape("mean", 2, 1).reshape("rstd", 2, 1)),
                // (5) rank and element counts
                rejects("gradOut, input, gradInput rank 9", INVALID,
                        a -> a.reshape("gradOut", 2, 4, 3, 1, 1, 1, 1, 1, 1)
                        .reshape("input", 2, 4, 3, 1, 1, 1, 1, 1, 1).reshape("gradInput", 2, 4, 3, 1, 1, 1, 1, 1, 1)),
                accepts("gradOut, input, gradInput rank 8", a -> a.reshape("gradOut", 2, 4, 3, 1, 1, 1, 1, 1)
                        .reshape("input", 2, 4, 3, 1, 1, 1, 1, 1).reshape("gradInput", 2, 4, 3, 1, 1, 1, 1, 1)),
                rejects("gradOut rank 9 alone", INVALID, a -> a.reshape("gradOut", 2, 4, 3, 1, 1, 1, 1, 1, 1))
                        .naming("gradOut"),
                // CANN checks gradOut's rank alone: input, gradInput, mean, rstd and gamma may have more
                accepts("input and gradInput rank 9", a -> a.reshape("input", 2, 4, 3, 1, 1, 1, 1, 1, 1)
                        .reshape("gradInput", 2, 4, 3, 1, 1, 1, 1, 1, 1)),
                accepts("mean, rstd [2,2,1,1,1,1,1,1,1]; gamma and its gradients [1,1,1,1,1,1,1,1,4]",
                        a -> a.reshape("mean", 2, 2, 1, 1, 1, 1, 1, 1, 1).reshape("rstd", 2, 2, 1, 1, 1, 1, 1, 1, 1)
                                .reshape("gamma", 1, 1, 1, 1, 1, 1, 1, 1, 4)
                                .reshape("gradGammaOut", 1, 1, 1, 1, 1, 1, 1, 1, 4)
                                .reshape("gradBetaOut", 1, 1, 1, 1, 1, 1, 1, 1, 4)),
                rejects("gradOut [2,4,2]", INVALID, a -> a.reshape("gradOut", 2, 4, 2)).naming("gradOut"),
                rejects("input and gradInput [2,4,2]", INVALID,
                        a -> a.reshape("input", 2, 4, 2).reshape("gradInput", 2, 4, 2)),
                accepts("gradOut [6,4]: shapes are free", a -> a.reshape("gradOut", 6, 4)),
                accepts("input and gradInput [24]", a -> a.reshape("input", 24).reshape("gradInput", 24)),
                rejects("gradInput [24], input [2,4,3]", INVALID, a -> a.reshape("gradInput", 24)).naming("gradInput"),
                accepts("unrequested gradInput [24]", a -> a.mask(false, true, true).reshape("gradInput", 24)),
                accepts("mean and rstd [4]", a -> a.reshape("mean", 4).reshape("rstd", 4)),
                rejects("mean [2,3]", INVALID, a -> a.reshape("mean", 2, 3)).naming("mean"),
                rejects("rstd [3]", INVALID, a -> a.reshape("rstd", 3)).naming("rstd"),
                rejects("gamma, gradGammaOut, gradBetaOut [5]", INVALID,
                        a -> a.reshape("gamma", 5).reshape("gradGammaOut", 5).reshape("gradBetaOut", 5)),
                accepts("gamma, gradGammaOut, gradBetaOut [2,2]",
                        a -> a.reshape("gamma", 2, 2).reshape("gradGammaOut", 2, 2).reshape("gradBetaOut", 2, 2)),
                rejects("gradGammaOut [5]", INVALID, a -> a.reshape("gradGammaOut", 5)).naming("gradGammaOut"),
                rejects("gradBetaOut [4,1]", INVALID, a -> a.reshape("gradBetaOut", 4, 1)).naming("gradBetaOut"),
                accepts("unrequested gradGammaOut [1,4]", a -> a.mask(true, false, true).reshape("gradGammaOut", 1, 4)),
                rejects("gamma null, gradBetaOut [2,2]", INVALID,
                        a -> a.set("gamma", null).reshape("gradBetaOut", 2, 2)),
                rejects("N 3", INVALID, a -> a.set("N", 3)),
                rejects("N -2", INVALID, a -> a.set("N", -2)),
                rejects("C -4", INVALID, a -> a.set("C", -4)),
                rejects("HxW -3", INVALID, a -> a.set("HxW", -3)),
                rejects("N -2 and HxW -3 (N*C*HxW still 24)", INVALID, a -> a.set("N", -2).set("HxW", -3)),
                // empty input
                accepts("N 0", a -> a.set("N", 0).reshape("gradOut", 0, 4, 3).reshape("input", 0, 4, 3)
                        .reshape("gradInput", 0, 4, 3).reshape("mean", 0, 2).reshape("rstd", 0, 2)),
                accepts("HxW 0", a -> a.set("HxW", 0).reshape("gradOut", 2, 4, 0).reshape("input", 2, 4, 0)
                        .reshape("gradInput", 2, 4, 0)));
    }

    /**
     * CANN's unit-test cases of aclnnGroupNormBackward (norm/group_norm_grad/tests/ut/op_host/op_api), in that
     * file's order, as facts: N 2, C 3, HxW 4, group 1; gradOut, input and gradInput [N,C,HxW]; mean and rstd
     * [N,group]; gamma, gradGammaOut and gradBetaOut [C]; every output requested; FLOAT ND unless said.
     * Whatever their names say, they all run on Ascend910B, the stub's SoC.
     */
    static Stream<Change> cannUnitTests() {
        Stream.Builder<Change> b = Stream.builder();
        b.add(accepts("case_float_normal", a -> ut(a, ACL_FLOAT)));
        b.add(accepts("Ascend910B2_case_float_normal (its body runs on Ascend910B only)", a -> ut(a, ACL_FLOAT)));
        b.add(accepts("case_float16_normal", a -> ut(a, ACL_FLOAT16)));
        b.add(accepts("ascend910B2_case_bfloat16_normal (Ascend910B)", a -> ut(a, ACL_BF16)));
        for (int dtype : new int[] {ACL_DOUBLE, ACL_UINT8, ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_BOOL,
            ACL_STRING, ACL_COMPLEX64, ACL_COMPLEX128}) {
            b.add(rejects("case_invalid_dtype_abnormal: every tensor " + DType.nameOf(dtype), INVALID,
                    a -> ut(a, dtype)));
        }
        return Stream.concat(b.build(), Stream.of(
                accepts("case_gradout_not_1d_normal: FLOAT16, gradOut [24]",
                        a -> ut(a, ACL_FLOAT16).reshape("gradOut", 24)),
                accepts("case_1d_normal: N 2, C 1, HxW 1; gradOut, input, gradInput [2]",
                        a -> ut(a, ACL_FLOAT, 2, 1, 1, 1).reshape("gradOut", 2).reshape("input", 2)
                                .reshape("gradInput", 2)),
                accepts("case_2d_normal: HxW 1; gradOut, input, gradInput [2,3]",
                        a -> ut(a, ACL_FLOAT, 2, 3, 1, 1).reshape("gradOut", 2, 3).reshape("input", 2, 3)
                                .reshape("gradInput", 2, 3)),
                accepts("case_8d_normal: gradOut, input, gradInput [2,3,4,1,1,1,1,1]",
                        a -> data(ut(a, ACL_FLOAT), 2, 3, 4, 1, 1, 1, 1, 1)),
                rejects("case_9d_abnormal: gradOut, input, gradInput [2,3,4,1,1,1,1,1,1]", INVALID,
                        a -> data(ut(a, ACL_FLOAT), 2, 3, 4, 1, 1, 1, 1, 1, 1)),
                rejects("case_gradout_nullptr_abnormal", NULLPTR, a -> ut(a, ACL_FLOAT).set("gradOut", null)),
                rejects("case_input_nullptr_abnormal", NULLPTR, a -> ut(a, ACL_FLOAT).set("input", null)),
                rejects("case_mean_nullptr_abnormal", NULLPTR, a -> ut(a, ACL_FLOAT).set("mean", null)),
                accepts("case_shape_not_same_normal: input, gradInput [2,3,4,1,1]; gamma, gradGammaOut, "
                        + "gradBetaOut [1,3]", a -> ut(a, ACL_FLOAT).reshape("input", 2, 3, 4, 1, 1)
                                .reshape("gradInput", 2, 3, 4, 1, 1).reshape("gamma", 1, 3)
                                .reshape("gradGammaOut", 1, 3).reshape("gradBetaOut", 1, 3)),
                rejects("case_rstd_nullptr_abnormal", NULLPTR, a -> ut(a, ACL_FLOAT).set("rstd", null)),
                accepts("case_gamma_nullptr_normal", a -> ut(a, ACL_FLOAT).set("gamma", null)),
                accepts("case_gradinput_nullptr_normal: mask {false, true, true}",
                        a -> ut(a, ACL_FLOAT).mask(false, true, true).set("gradInput", null)),
                accepts("case_dgamma_nullptr_normal: mask {true, false, true}",
                        a -> ut(a, ACL_FLOAT).mask(true, false, true).set("gradGammaOut", null)),
                accepts("case_dbeta_nullptr_normal: mask {true, true, false}",
                        a -> ut(a, ACL_FLOAT).mask(true, true, false).set("gradBetaOut", null)),
                rejects("case_diff_dtype_abnormal: input FLOAT16", INVALID,
                        a -> ut(a, ACL_FLOAT).retype("input", ACL_FLOAT16)),
                rejects("case_group_not_gt0_abnormal: group 0, mean and rstd [2,0]", INVALID,
                        a -> ut(a, ACL_FLOAT, 2, 3, 4, 0)),
                rejects("case_gradout_numel_ne_abnormal: gradOut, gradInput [2,3,5]", INVALID,
                        a -> ut(a, ACL_FLOAT).reshape("gradOut", 2, 3, 5).reshape("gradInput", 2, 3, 5)),
                rejects("case_gradout_shape_ne_gradinput_abnormal: gradInput [2,3,5]", INVALID,
                        a -> ut(a, ACL_FLOAT).reshape("gradInput", 2, 3, 5)),
                rejects("case_C_not_div_group_abnormal: group 2, mean and rstd [2,2]", INVALID,
                        a -> ut(a, ACL_FLOAT, 2, 3, 4, 2)),
                rejects("Ascend950PR_9599_case_float_normal: outputMask of length 0", INVALID,
                        a -> ut(a, ACL_FLOAT).mask(new boolean[0])),
                accepts("Ascend950PR_9599_case_float_normal_2: N 2, C 4, HxW 128, group 2",
                        a -> ut(a, ACL_FLOAT, 2, 4, 128, 2)),
                accepts("Ascend950PR_9599_case_float16_normal_3: FLOAT16, N 2, C 4, HxW 128, group 2",
                        a -> ut(a, ACL_FLOAT16, 2, 4, 128, 2)),
                accepts("Ascend950PR_9599_case_bfloat16_normal_4: BF16, N 2, C 4, HxW 128, group 2",
                        a -> ut(a, ACL_BF16, 2, 4, 128, 2))));
    }

    private static OpArgs ut(OpArgs a, int dtype) {
        return ut(a, dtype, 2, 3, 4, 1);
    }

    /** The unit test's layout for {@code n}, {@code c}, {@code hxw} and {@code group}, every tensor {@code dtype}. */
    private static OpArgs ut(OpArgs a, int dtype, long n, long c, long hxw, long group) {
        a.set("N", n).set("C", c).set("HxW", hxw).set("group", group).mask(true, true, true);
        for (String name : new String[] {"gradOut", "input", "gradInput"}) {
            a.set(name, a.arena.tensor(dtype, n, c, hxw));
        }
        for (String name : new String[] {"mean", "rstd"}) {
            a.set(name, a.arena.tensor(dtype, n, group));
        }
        for (String name : new String[] {"gamma", "gradGammaOut", "gradBetaOut"}) {
            a.set(name, a.arena.tensor(dtype, c));
        }
        return a;
    }

    /** gradOut, input and gradInput reshaped to {@code shape}. */
    private static OpArgs data(OpArgs a, long... shape) {
        return a.reshape("gradOut", shape).reshape("input", shape).reshape("gradInput", shape);
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

    /** N 1, HxW 1, every output requested. */
    private static OpArgs wide(DeviceArena a, long c, long group) {
        return new OpArgs(OP, a).set("gradOut", a.tensor(ACL_FLOAT, 1, c, 1)).set("input", a.tensor(ACL_FLOAT, 1, c, 1))
                .set("mean", a.tensor(ACL_FLOAT, 1, group)).set("rstd", a.tensor(ACL_FLOAT, 1, group))
                .set("gamma", a.tensor(ACL_FLOAT, c)).set("N", 1).set("C", c).set("HxW", 1).set("group", group)
                .mask(true, true, true).set("gradInput", a.tensor(ACL_FLOAT, 1, c, 1))
                .set("gradGammaOut", a.tensor(ACL_FLOAT, c)).set("gradBetaOut", a.tensor(ACL_FLOAT, c));
    }

    @ParameterizedTest(name = "C {0}, group {1}: A2 accepts {2}")
    @CsvSource({"8000, 1, true", "8001, 1, false", "240000, 30, true", "240040, 40, false"})
    void a2LimitsOnChannelsPerGroupAndChannels(long c, long group, boolean a2Accepts) {
        for (String soc : new String[] {"Ascend910B", "Ascend910_93"}) {
            Calls.withSoc(soc, () -> {
                try (DeviceArena arena = new DeviceArena()) {
                    OpArgs args = wide(arena, c, group);
                    if (a2Accepts) {
                        args.accepted();
                    } else {
                        args.rejected(INVALID);
                    }
                }
            });
        }
        for (String soc : new String[] {"Ascend910", "Ascend950"}) { // CANN checks them on DAV_2201 only
            Calls.withSoc(soc, () -> {
                try (DeviceArena arena = new DeviceArena()) {
                    wide(arena, c, group).accepted();
                }
            });
        }
    }

    /**
     * Ascend 950's mixed precision (CANN's regbase table): beside a 16-bit gradOut and input, mean,
     * rstd, gamma, gradGammaOut and gradBetaOut may all be FLOAT; elsewhere every tensor has
     * gradOut's dtype, and on 950 the statistics' side must still agree among itself.
     */
    @Test
    void statisticsInFloatBesideSixteenBitDataOnlyOnAscend950() {
        for (int data : new int[] {ACL_FLOAT16, ACL_BF16}) {
            Calls.withSoc("Ascend950", () -> {
                try (DeviceArena arena = new DeviceArena()) {
                    floatStatistics(OP.baseline(arena, data)).run(null);
                }
                try (DeviceArena arena = new DeviceArena()) {
                    floatStatistics(OP.baseline(arena, data)).retype("rstd", data).rejected(INVALID);
                }
            });
            Calls.withSoc("Ascend910B", () -> {
                try (DeviceArena arena = new DeviceArena()) {
                    floatStatistics(OP.baseline(arena, data)).rejected(INVALID);
                }
            });
        }
    }

    /** mean, rstd, gamma, gradGammaOut and gradBetaOut retyped FLOAT. */
    private static OpArgs floatStatistics(OpArgs args) {
        for (String t : new String[] {"mean", "rstd", "gamma", "gradGammaOut", "gradBetaOut"}) {
            args.retype(t, ACL_FLOAT);
        }
        return args;
    }

    @Test
    void outputMaskValuesAreCopiedAtCreation() {
        try (DeviceArena arena = new DeviceArena()) {
            boolean[] values = {true, true, true};
            AclBoolArray mask = arena.boolArray(values);
            values[2] = false;
            OpArgs args = OP.baseline(arena, ACL_FLOAT).mask(mask).set("gradBetaOut", null);
            args.rejected(NULLPTR);
        }
    }

    @Test
    void emptyInputGivesZeroGammaAndBetaGradients() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).set("N", 0).reshape("gradOut", 0, 4, 3)
                    .reshape("input", 0, 4, 3).reshape("gradInput", 0, 4, 3).reshape("mean", 0, 2).reshape("rstd", 0,
                    2);
            args.run(null);
            assertArrayEquals(new float[4], DeviceArena.readFloats(arena.spec(args.tensor("gradGammaOut")).data(), 4));
            assertArrayEquals(new float[4], DeviceArena.readFloats(arena.spec(args.tensor("gradBetaOut")).data(), 4));
        }
    }

    @Test
    void unrequestedOutputsAreNotTouched() {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = OP.baseline(arena, ACL_FLOAT).mask(false, true, false);
            byte[] gradInput = arena.dataBytes(args.tensor("gradInput"), 96);
            byte[] gradBeta = arena.dataBytes(args.tensor("gradBetaOut"), 16);
            args.run(null);
            assertArrayEquals(gradInput, arena.dataBytes(args.tensor("gradInput"), 96));
            assertArrayEquals(gradBeta, arena.dataBytes(args.tensor("gradBetaOut"), 16));
            // dy = x = mean = 0.5 everywhere: the requested gradGammaOut goes from 0.5 to 0
            assertArrayEquals(new float[4], DeviceArena.readFloats(arena.spec(args.tensor("gradGammaOut")).data(), 4));
        }
    }
}
