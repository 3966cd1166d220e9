package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.*;
import static io.github.aclnn4j.acl.AclFormat.*;
import static io.github.aclnn4j.checks.Change.INVALID;
import static io.github.aclnn4j.checks.Change.NULLPTR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.Pointer;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The checks every operator shares (SPEC §2, §3 and the per-operator lists): nulls, out-parameters, formats, dtypes,
        SoC profiles. */
class CommonChecksTest {
    private static final int[] ND_LIKE = {ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_ND, ACL_FORMAT_NCDHW,
        ACL_FORMAT_NDHWC, ACL_FORMAT_NC, ACL_FORMAT_NCL};
    private static final int[] PRIVATE = {ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_FRACTAL_Z,
        ACL_FORMAT_NC1HWC0_C04, ACL_FORMAT_NDC1HWC0, ACL_FRACTAL_Z_3D};

    static Stream<Arguments> everySlot() {
        return Stream.of(Operator.values()).flatMap(op -> op.tensorSlots.stream().map(s -> Arguments.of(op, s)));
    }

    static Stream<Arguments> requiredSlots() {
        return Stream.of(Operator.values()).flatMap(op -> op.requiredSlots().stream().map(s -> Arguments.of(op, s)));
    }

    static Stream<Arguments> optionalSlots() {
        return Stream.of(Operator.values()).flatMap(op -> op.optionalSlots.stream().map(s -> Arguments.of(op, s)));
    }

    /** Every slot that holds floating data (all but NLL's class-index target). */
    static Stream<Arguments> floatingSlots() {
        return everySlot().filter(a -> !(a.get()[1].equals("target")
                && (a.get()[0] == Operator.NLL_LOSS_BACKWARD || a.get()[0] == Operator.NLL_LOSS)));
    }

    static Stream<Arguments> privateFormats() {
        return everySlot().flatMap(a -> Stream.of(ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_Z)
                .map(f -> Arguments.of(a.get()[0], a.get()[1], f)));
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void baselinesRunInEveryDtype(Operator op) {
        for (int dtype : new int[] {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
            try (DeviceArena arena = new DeviceArena()) {
                op.baseline(arena, dtype).run(null);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("requiredSlots")
    void nullRequiredTensor(Operator op, String slot) {
        try (DeviceArena arena = new DeviceArena()) {
            Change.rejects("null " + slot, op.nullStatus(), a -> a.set(slot, null)).naming(slot)
                    .check(op.baseline(arena, ACL_FLOAT));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("optionalSlots")
    void nullOptionalTensorIsFine(Operator op, String slot) {
        try (DeviceArena arena = new DeviceArena()) {
            op.baseline(arena, ACL_FLOAT).set(slot, null).run(null);
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void nullOutParametersComeBeforeEverything(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = op.baseline(arena, ACL_FLOAT);
            for (String slot : op.tensorSlots) {
                args.set(slot, null);
            }
            for (String number : op.numberSlots) {
                args.set(number, -5);
            }
            args.mask((AclBoolArray) null);
            String fn = op.cName + "GetWorkspaceSize";
            String m = Calls.fails(NULLPTR, op.cName, fn + "(workspaceSize null)",
                    () -> op.plan(args, null, new AclOpExecutor()));
            Calls.assertNamesParameter(m, "workspaceSize");
            m = Calls.fails(NULLPTR, op.cName, fn + "(executor null)", () -> op.plan(args, new long[1], null));
            Calls.assertNamesParameter(m, "executor");
            assertEquals(NULLPTR, Calls.status(fn, () -> op.plan(args, null, null)));
            Acl.getRecentErrMsg();
        }
    }

    /** A refused phase 1 leaves no executor behind, so nothing can run and no output changes. */
    @ParameterizedTest
    @EnumSource(Operator.class)
    void failedPhaseOneLeavesOutputsUntouched(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = op.baseline(arena, ACL_FLOAT);
            for (String slot : op.outputSlots) { // a pattern no run of the baseline would write
                Calls.ok("aclrtMemset",
                        () -> AclRt.memset(arena.spec(args.tensor(slot)).data(), outputBytes(arena, args,
                        slot), 0x7F, outputBytes(arena, args, slot)));
            }
            List<byte[]> before = op.outputSlots.stream()
                    .map(s -> arena.dataBytes(args.tensor(s), (int) outputBytes(arena, args, s))).toList();
            args.retype(op.tensorSlots.get(op == Operator.NLL_LOSS ? 0 : 1), ACL_INT32); // NLLLoss' second: target
            AclOpExecutor executor = new AclOpExecutor();
            assertEquals(INVALID, args.plan(new long[1], executor));
            Acl.getRecentErrMsg();
            assertEquals(NULLPTR, args.launch(new Pointer(), 0, executor, null), "phase 2 with the unfilled executor");
            Acl.getRecentErrMsg();
            Calls.ok("aclrtSynchronizeStream", () -> AclRt.synchronizeStream(null));
            for (int i = 0; i < before.size(); i++) {
                String slot = op.outputSlots.get(i);
                assertArrayEquals(before.get(i), arena.dataBytes(args.tensor(slot), (int) outputBytes(arena, args,
                        slot)),
                        slot + " changed");
            }
        }
    }

    private static long outputBytes(DeviceArena arena, OpArgs args, String slot) {
        return DeviceArena.numel(arena.spec(args.tensor(slot)).shape()) * 4;
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void workspaceSizeArrayWithoutRoomIsRejected(Operator op) {
        try (DeviceArena arena = new DeviceArena()) {
            OpArgs args = op.baseline(arena, ACL_FLOAT);
            Calls.fails(NULLPTR, op.cName + "GetWorkspaceSize", "long[0]",
                    "a long[0] workspaceSize cannot receive the size", () -> args.plan(new long[0], new AclOpExecutor()));
        }
    }

    /**
     * CANN's operators take NPU-private format tags (its unit tests pass NC1HWC0 and FRACTAL_Z
     * tensors): a tag over the same plain view, giving the untagged call's output bits, except
     * where CANN's code refuses one (GroupNorm's self).
     */
    @ParameterizedTest(name = "{0} {1} format {2}")
    @MethodSource("privateFormats")
    void privateFormatTagIsAPlainView(Operator op, String slot, int format) {
        List<String> tagged = op.sameFormatSlots().contains(slot) ? op.sameFormatSlots() : List.of(slot);
        try (DeviceArena arena = new DeviceArena()) {
            java.util.function.Consumer<OpArgs> tag = a -> tagged.forEach(t -> a.remake(t, s -> s.withFormat(format)));
            if (op.privateFormatRefusedSlots().contains(slot)) {
                Change.rejects(slot + " in private format " + format, INVALID, tag).check(op.baseline(arena, ACL_FLOAT));
                return;
            }
            OpArgs plain = op.baseline(arena, ACL_FLOAT);
            plain.run(null);
            OpArgs tags = op.baseline(arena, ACL_FLOAT);
            tag.accept(tags);
            tags.run(null);
            for (String out : op.outputSlots) {
                if (plain.tensorNames().contains(out) && plain.tensor(out) != null) {
                    assertArrayEquals(arena.dataBytes(plain.tensor(out), (int) outputBytes(arena, plain, out)),
                            arena.dataBytes(tags.tensor(out), (int) outputBytes(arena, tags, out)),
                            out + " with " + tagged + " tagged " + format);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void everyPrivateFormatOnEveryTensorIsATag(Operator op) {
        for (int format : PRIVATE) {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = op.baseline(arena, ACL_FLOAT);
                for (String slot : op.tensorSlots) {
                    args.remake(slot, s -> s.withFormat(format));
                }
                if (op.privateFormatRefusedSlots().isEmpty()) {
                    args.accepted();
                } else {
                    args.rejected(INVALID);
                }
            }
        }
    }

    /** UNDEFINED (−1) and codes that name no format say nothing about the data: refused. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everySlot")
    void undefinedOrUnknownFormatIsRejected(Operator op, String slot) {
        for (int format : new int[] {ACL_FORMAT_UNDEFINED, 5, 99}) {
            try (DeviceArena arena = new DeviceArena()) {
                Change.rejects(slot + " in format " + format, INVALID, a -> a.remake(slot, s -> s.withFormat(format)))
                        .check(op.baseline(arena, ACL_FLOAT));
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everySlot")
    void nchwTagIsAPlainView(Operator op, String slot) {
        // tensors whose formats CANN requires to match are tagged together
        List<String> tagged = op.sameFormatSlots().contains(slot) ? op.sameFormatSlots() : List.of(slot);
        try (DeviceArena arena = new DeviceArena()) {
            Change.accepts(slot + " tagged NCHW", a -> tagged.forEach(t -> a.remake(t, s -> s.withFormat(ACL_FORMAT_NCHW))))
                    .check(op.baseline(arena, ACL_FLOAT));
        }
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void everyNdLikeFormatIsAccepted(Operator op) {
        for (int format : ND_LIKE) {
            if (op.refusedPlainFormats().contains(format)) {
                continue;
            }
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = op.baseline(arena, ACL_FLOAT);
                for (String slot : op.tensorSlots) {
                    args.remake(slot, s -> s.withFormat(format));
                }
                args.accepted();
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("floatingSlots")
    void nonFloatingDtypeIsRejected(Operator op, String slot) {
        boolean castOnly = op.castOnlySlots().contains(slot); // DOUBLE is a cast of a float type
        for (int dtype : castOnly ? new int[] {ACL_INT32, ACL_INT8, ACL_BOOL}
                : new int[] {ACL_INT32, ACL_DOUBLE, ACL_INT8, ACL_BOOL}) {
            try (DeviceArena arena = new DeviceArena()) {
                Change.rejects(slot + " of dtype " + dtype, INVALID, a -> a.retype(slot, dtype))
                        .naming(slot).check(op.baseline(arena, ACL_FLOAT));
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("floatingSlots")
    void unknownDtypeCodeIsRejected(Operator op, String slot) {
        for (int dtype : new int[] {ACL_DT_UNDEFINED, 99, 5, -7}) {
            try (DeviceArena arena = new DeviceArena()) {
                Change.rejects(slot + " of dtype code " + dtype, INVALID, a -> a.remake(slot, s -> s.withDtype(dtype)))
                        .naming(slot).check(op.baseline(arena, ACL_FLOAT));
            }
        }
    }

    /**
     * Under Ascend910 a single BF16 tensor among FLOAT ones is refused, even where dtypes may mix
     * (except an out whose dtype need only be a cast of self's).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("floatingSlots")
    void bf16InAnySlotIsRejectedOnAscend910(Operator op, String slot) {
        if (op.castOnlySlots().contains(slot)) {
            return; // a cast target, whatever the SoC
        }
        Calls.withSoc("Ascend910", () -> {
            try (DeviceArena arena = new DeviceArena()) {
                Change.rejects(slot + " BF16 on Ascend910", INVALID, a -> a.retype(slot, ACL_BF16)).naming(slot)
                        .check(op.baseline(arena, ACL_FLOAT));
            }
        });
    }

    @ParameterizedTest
    @EnumSource(Operator.class)
    void bf16OnlyOnA2A3And950(Operator op) {
        expectUnder("Ascend910", op, ACL_BF16, INVALID);
        expectUnder("Ascend310P", op, ACL_BF16, INVALID);
        expectUnder("Ascend910_93", op, ACL_BF16, 0);
        expectUnder("Ascend910B", op, ACL_BF16, 0);
        expectUnder("Ascend950", op, ACL_BF16, 0);
        expectUnder("Ascend910", op, ACL_FLOAT16, 0);
        expectUnder("Ascend910", op, ACL_FLOAT, 0);
    }

    /**
     * The operator documents' product tables: the Atlas inference series (Ascend310P) lacks
     * GroupNormBackward, NLLLossBackward and PreluBackward, Atlas 200I/500 A2 (Ascend310B) all ten,
     * Ascend 950PR/950DT none; a refusal says so.
     */
    @ParameterizedTest
    @EnumSource(Operator.class)
    void productTablesDecideWhichOperatorsRun(Operator op) {
        boolean missingOn310P = List.of(Operator.GROUP_NORM_BACKWARD, Operator.NLL_LOSS_BACKWARD,
                Operator.PRELU_BACKWARD).contains(op);
        for (int dtype : new int[] {ACL_FLOAT, ACL_FLOAT16}) {
            assertRefusalNamesProduct(expectUnder("Ascend310P", op, dtype, missingOn310P ? INVALID : 0), "Ascend310P");
            assertRefusalNamesProduct(expectUnder("Ascend310B", op, dtype, INVALID), "Ascend310B");
            assertRefusalNamesProduct(expectUnder("Ascend310B1", op, dtype, INVALID), "Ascend310B");
            expectUnder("Ascend950", op, dtype, 0);
            expectUnder("Ascend950PR_9599", op, dtype, 0);
        }
    }

    private static void assertRefusalNamesProduct(String message, String soc) {
        if (message != null) {
            assertTrue(message.contains("not supported on " + soc),
                    () -> "the message should say the operator is not supported on " + soc + ": " + message);
        }
    }

    /** Phase 1 of the baseline in {@code dtype} under SoC {@code soc}; returns the error message (or null). */
    private static String expectUnder(String soc, Operator op, int dtype, int expected) {
        String[] message = new String[1];
        Calls.withSoc(soc, () -> {
            try (DeviceArena arena = new DeviceArena()) {
                OpArgs args = op.baseline(arena, dtype);
                if (expected == 0) {
                    args.accepted();
                } else {
                    message[0] = args.rejected(expected);
                }
            } catch (AssertionError e) {
                throw new AssertionError("under " + soc + ", dtype " + dtype + ": " + e.getMessage(), e);
            }
        });
        return message[0];
    }
}
