package io.github.aclnn4j.robust.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;

/**
 * One fuzzed operator call. The input draws arguments that SPEC §5 says are valid, breaks them with
 * up to three mutations (a tensor's dims, strides, offset, dtype, format, data pointer or counts; a
 * null, destroyed or aliased tensor; an attribute; the output mask), then runs phase 1 and, when it
 * succeeds, phase 2 with a fuzzed workspace and stream. The property:
 * <ul>
 * <li>no call throws; every status is a documented one (phase 1 and 2: 0, 161001, 161002, and
 *     561103 where CANN's code gives it for a null tensor;
 *     synchronize: 0, or 361001 for an NLL target out of range), with a message naming the operator;
 * <li>unmutated arguments pass phase 1; a phase-2 misuse gets the documented status;
 * <li>a failed phase 1 leaves the executor empty and writes nothing, nor does a failed phase 2;
 * <li>a run writes only inside the views of the outputs it computes;
 * <li>a single-use executor cannot run twice, a repeatable one can until destroyed;
 * <li>no device memory is left behind.
 * </ul>
 */
final class OperatorFuzzer {
    private static final int NULLPTR = 161001;
    private static final int INVALID = 161002;
    private static final int RUNTIME_ERROR = 361001;
    /** Work beyond this many elements is legal (stride-0 views can describe any amount) but not waited for. */
    private static final long MAX_RUN_ELEMENTS = 1 << 20;
    private static final long MAX_WORKSPACE = 64 << 20;

    private OperatorFuzzer() {}

    static void fuzz(FuzzedOperator op, FuzzedDataProvider d) {
        FuzzedOperator.Call call = op.valid(d);
        Map<String, String> aliases = new HashMap<>();
        int maskDefect = 0;
        int outParamDefect = 0;
        int mutations = d.consumeInt(0, 3);
        List<String> slots = new ArrayList<>(call.tensors.keySet());
        for (int m = 0; m < mutations; m++) {
            String slot = d.pickValue(slots);
            switch (d.consumeInt(0, 9)) {
                case 0 -> call.tensors.put(slot, null);
                case 1 -> aliases.put(slot, d.pickValue(slots));
                case 2 -> {
                    if (op.attributeNames.isEmpty()) {
                        aliases.put(slot, d.pickValue(slots));
                    } else {
                        call.attributes.put(d.pickValue(op.attributeNames),
                                d.consumeBoolean() ? d.pickValue(Palette.ATTRIBUTES) : d.consumeLong());
                    }
                }
                case 3 -> maskDefect = d.consumeInt(1, 5);
                case 4 -> outParamDefect = d.consumeInt(1, 3);
                default -> {
                    TensorRecipe r = call.tensors.get(slot);
                    if (r == null) { // an optional tensor left out: put a broken one in its place
                        r = new TensorRecipe(d.pickValue(Palette.DTYPES), FuzzedOperator.shape(d, 0, 4));
                        call.tensors.put(slot, r);
                    }
                    r.mutate(d);
                }
            }
        }
        boolean mutated = mutations > 0;
        SplittableRandom rng = new SplittableRandom(d.consumeLong());
        try (FuzzScene scene = new FuzzScene(d)) {
            run(op, call, aliases, maskDefect, outParamDefect, mutated, scene, rng);
        }
    }

    private static void run(FuzzedOperator op, FuzzedOperator.Call call, Map<String, String> aliases, int maskDefect,
            int outParamDefect, boolean mutated, FuzzScene scene, SplittableRandom rng) {
        Map<String, TensorRecipe.Made> made = new HashMap<>();
        for (Map.Entry<String, TensorRecipe> e : call.tensors.entrySet()) {
            if (e.getValue() != null) {
                made.put(e.getKey(), e.getValue().realize(scene, rng));
            }
        }
        aliases.forEach((slot, source) -> made.put(slot, made.get(source)));
        Map<String, AclTensor> tensors = new HashMap<>();
        for (String slot : call.tensors.keySet()) {
            TensorRecipe.Made m = made.get(slot);
            tensors.put(slot, m == null ? null : m.tensor());
        }
        AclBoolArray mask = mask(call.mask, maskDefect);
        try {
            FuzzedOperator.Args args = new FuzzedOperator.Args(tensors, call.attributes, mask);
            List<FuzzScene.Region> writable = new ArrayList<>();
            for (String out : op.outputs) {
                TensorRecipe.Made m = made.get(out);
                if (m != null && m.region() != null && op.outputRequested(call, out)) {
                    writable.add(m.region());
                }
            }
            String what = op.cName + " " + describe(call, aliases, maskDefect, outParamDefect);
            Map<FuzzScene.Buffer, byte[]> before = scene.snapshot();

            long[] workspaceSize = outParamDefect == 1 ? null : outParamDefect == 2 ? new long[0] : new long[] {-7};
            AclOpExecutor executor = outParamDefect == 3 ? null : new AclOpExecutor();
            int status = call(what + " phase 1", () -> op.phase1(args, workspaceSize, executor));
            if (outParamDefect != 0) { // SPEC §3: before any other check
                expectFailure(op, status, Set.of(NULLPTR), what + " phase 1 with out-parameter defect "
                        + outParamDefect);
                scene.assertWrittenOnlyIn(before, List.of(), what + ": failed phase 1");
                return;
            }
            if (status != 0) {
                Set<Integer> refusals = Set.copyOf(List.of(NULLPTR, INVALID, op.nullStatus()));
                expectFailure(op, status, mutated ? refusals : Set.of(), what + " phase 1");
                check(executor.isNull(), what + ": a failed phase 1 filled the executor");
                scene.assertWrittenOnlyIn(before, List.of(), what + ": failed phase 1");
                return;
            }
            check(!executor.isNull() && workspaceSize[0] >= 0, what + ": phase 1 succeeded with executor "
                    + executor.isNull() + ", workspace " + workspaceSize[0]);
            if (workElements(call) > MAX_RUN_ELEMENTS || workspaceSize[0] > MAX_WORKSPACE) {
                check(Acl.destroyAclOpExecutor(executor) == 0, what + ": aclDestroyAclOpExecutor of an unrun executor");
                return;
            }
            launch(op, what, executor, workspaceSize[0], made, writable, before, scene);
        } finally {
            if (mask != null) {
                Acl.destroyBoolArray(mask);
            }
        }
    }

    /** Phase 2 with a fuzzed workspace and stream, then the checks of what it did. */
    private static void launch(FuzzedOperator op, String what, AclOpExecutor executor, long needed,
            Map<String, TensorRecipe.Made> made, List<FuzzScene.Region> writable, Map<FuzzScene.Buffer, byte[]> before,
            FuzzScene scene) {
        FuzzedDataProvider d = scene.data;
        if (d.consumeInt(0, 7) == 7) { // no executor: 161001 before anything else (SPEC §3)
            AclOpExecutor none = d.consumeBoolean() ? null : new AclOpExecutor();
            int status = call(what + " phase 2 without an executor", () -> op.phase2(new Pointer(), 0, none, null));
            expectFailure(op, status, Set.of(NULLPTR), what + " phase 2 without an executor");
        }
        List<Integer> problems = new ArrayList<>();
        AclrtStream stream = switch (d.consumeInt(0, 3)) {
            case 0 -> null;
            case 1 -> new AclrtStream(); // an empty holder: the default stream
            case 2 -> scene.stream();
            default -> {
                AclrtStream s = scene.stream();
                AclRt.destroyStream(s);
                problems.add(INVALID);
                yield s;
            }
        };
        int workspaceKind = d.consumeInt(0, 5);
        Pointer workspace;
        long size = needed;
        switch (workspaceKind) {
            case 1 -> { // more than asked for, or a size C would read as huge
                size = d.consumeBoolean() ? needed + d.consumeInt(1, 64) : -1;
                workspace = scene.device(needed + 64, new byte[0]).base;
            }
            case 2 -> { // less than asked for
                size = needed > 0 ? needed - 1 : needed;
                workspace = needed > 0 ? scene.device(needed, new byte[0]).base : new Pointer();
                if (needed > 0) {
                    problems.add(INVALID);
                }
            }
            case 3 -> { // null, with a size
                size = needed > 0 ? needed : d.consumeInt(1, 64);
                workspace = d.consumeBoolean() ? new Pointer() : null;
                problems.add(NULLPTR);
            }
            case 4 -> { // freed
                workspace = scene.dangling(needed + 1).base;
                if (needed > 0) {
                    problems.add(INVALID);
                }
            }
            case 5 -> workspace = scene.host((int) needed + 1, new byte[0]).base; // host memory: in bounds, so usable
            default -> workspace = needed > 0 ? scene.device(needed, new byte[0]).base : new Pointer();
        }
        boolean freedInput = d.consumeInt(0, 15) == 15;
        if (freedInput) {
            List<String> slots = new ArrayList<>(made.keySet());
            slots.sort(null);
            TensorRecipe.Made m = made.get(d.pickValue(slots));
            if (m != null && m.region() != null) {
                scene.free(m.region().buffer());
            }
        }
        boolean repeatable = d.consumeBoolean();
        if (repeatable) {
            check(call(what + " aclSetAclOpExecutorRepeatable", () -> Acl.setAclOpExecutorRepeatable(executor)) == 0,
                    what + ": aclSetAclOpExecutorRepeatable right after phase 1 failed");
        }
        Pointer ws = workspace;
        long wsSize = size;
        int status = call(what + " phase 2", () -> op.phase2(ws, wsSize, executor, stream));
        if (status != 0) {
            Set<Integer> allowed = problems.isEmpty() && !freedInput ? Set.of()
                    : problems.size() == 1 && !freedInput ? Set.of(problems.get(0)) : Set.of(NULLPTR, INVALID);
            expectFailure(op, status, allowed, what + " phase 2");
            check(AclRt.synchronizeStream(null) == 0, what + ": the default stream failed after a refused phase 2");
            scene.assertWrittenOnlyIn(before, List.of(), what + ": failed phase 2");
            return;
        }
        check(problems.isEmpty(), what + ": phase 2 accepted a misuse that should give " + problems);
        synchronize(op, what, stream);
        scene.assertWrittenOnlyIn(before, writable, what);
        int again = call(what + " second run", () -> op.phase2(ws, wsSize, executor, stream));
        if (repeatable) {
            check(again == 0, what + ": a repeatable executor refused its second run: " + again);
            synchronize(op, what, stream);
            check(Acl.destroyAclOpExecutor(executor) == 0, what + ": aclDestroyAclOpExecutor failed");
            int afterDestroy = call(what + " run after destroy", () -> op.phase2(ws, wsSize, executor, stream));
            expectFailure(op, afterDestroy, Set.of(INVALID), what + " run after aclDestroyAclOpExecutor");
        } else {
            expectFailure(op, again, Set.of(INVALID), what + " second run of a single-use executor");
        }
        scene.assertWrittenOnlyIn(before, writable, what + " (after further runs)");
    }

    private static void synchronize(FuzzedOperator op, String what, AclrtStream stream) {
        int sync = call(what + " synchronize", () -> AclRt.synchronizeStream(stream));
        if (sync == RUNTIME_ERROR && (op == FuzzedOperator.NLL_LOSS_BACKWARD || op == FuzzedOperator.NLL_LOSS)) {
            String message = Acl.getRecentErrMsg();
            check(message != null && message.contains(op.cName), what + ": 361001 without a message naming the "
                    + "operator: " + message);
            return;
        }
        check(sync == 0, what + ": synchronize returned " + sync + ": " + Acl.getRecentErrMsg());
    }

    /** The elements the run touches: the largest view among the call's tensors, and N·C·HxW. */
    private static long workElements(FuzzedOperator.Call call) {
        long most = 0;
        for (TensorRecipe r : call.tensors.values()) {
            if (r != null && r.dims != null) {
                most = Math.max(most, numel(r.dims));
            }
        }
        if (call.attributes.containsKey("HxW")) {
            most = Math.max(most, numel(new long[] {call.attributes.get("N"), call.attributes.get("C"),
                call.attributes.get("HxW")}));
        }
        return most;
    }

    /** The product of the dimensions, saturating at Long.MAX_VALUE; 0 when one is 0 or negative. */
    private static long numel(long[] dims) {
        long n = 1;
        for (long dim : dims) {
            if (dim <= 0) {
                return 0;
            }
            n = Math.multiplyHigh(n, dim) != 0 || n * dim < 0 ? Long.MAX_VALUE : n * dim;
        }
        return n;
    }

    /** outputMask as the call has it, or broken: null, too short, too long, destroyed. */
    private static AclBoolArray mask(boolean[] values, int defect) {
        if (values == null) {
            return null;
        }
        return switch (defect) {
            case 1 -> null;
            case 2 -> Acl.createBoolArray(values, 2);
            case 3 -> Acl.createBoolArray(Arrays.copyOf(values, 4), 4);
            case 4 -> {
                AclBoolArray a = Acl.createBoolArray(values, 3);
                Acl.destroyBoolArray(a);
                yield a;
            }
            case 5 -> Acl.createBoolArray(new boolean[0], 0);
            default -> Acl.createBoolArray(values, 3);
        };
    }

    /** A layer-1 call: it must return, not throw. Stale messages are cleared first. */
    private static int call(String what, IntSupplier body) {
        Acl.getRecentErrMsg();
        try {
            return body.getAsInt();
        } catch (Throwable t) {
            throw new AssertionError(what + " threw " + t + " (layer 1 must return a status)", t);
        }
    }

    /** {@code status} is one of {@code allowed}, and the recent message names the operator. */
    private static void expectFailure(FuzzedOperator op, int status, Set<Integer> allowed, String what) {
        String message = Acl.getRecentErrMsg();
        check(allowed.contains(status), what + ": status " + status + " is not one of " + allowed + ": " + message);
        check(message != null && message.contains(op.cName), what + ": status " + status
                + " without a message naming " + op.cName + ": " + message);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    private static String describe(FuzzedOperator.Call call, Map<String, String> aliases, int maskDefect,
            int outParamDefect) {
        StringBuilder s = new StringBuilder();
        call.tensors.forEach((name, r) -> s.append(name).append('=').append(r == null ? "null" : describe(r))
                .append(aliases.containsKey(name) ? " (alias of " + aliases.get(name) + ")" : "").append(' '));
        s.append(call.attributes);
        if (outParamDefect != 0) {
            s.append(" out-parameter defect ").append(outParamDefect);
        }
        if (call.mask != null) {
            s.append(" mask ").append(Arrays.toString(call.mask))
                    .append(maskDefect == 0 ? "" : " defect " + maskDefect);
        }
        return s.toString();
    }

    private static String describe(TensorRecipe r) {
        return "{dtype " + r.dtype + " dims " + Arrays.toString(r.dims) + "/" + r.dimsNum + " strides "
                + Arrays.toString(r.strides) + " offset " + r.offset + " format " + r.format + " data " + r.data
                + (r.byteShift != 0 ? "+" + r.byteShift : "") + (r.destroyed ? " destroyed" : "") + "}";
    }
}
