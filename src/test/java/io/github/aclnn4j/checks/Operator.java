package io.github.aclnn4j.checks;

import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;

import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.List;

/**
 * The operators as uniform objects: their C names and parameter names, a small valid
 * argument set to mutate, and their two phases called from an {@link OpArgs}.
 */
public enum Operator {
    BCE_BACKWARD("aclnnBinaryCrossEntropyBackward",
            List.of("gradOutput", "self", "target", "weightOptional", "out"), List.of("reduction"),
            List.of("weightOptional"), List.of("out")) {
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("gradOutput", a.tensor(dtype, 2, 3)).set("self", a.tensor(dtype, 2, 3))
                    .set("target", a.tensor(dtype, 2, 3)).set("weightOptional", a.tensor(dtype, 2, 3))
                    .set("reduction", 0).set("out", a.tensor(dtype, 2, 3));
        }

        @Override
        public List<String> sameFormatSlots() {
            return List.of("self", "target", "weightOptional");
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(x.tensor("gradOutput"), x.tensor("self"),
                    x.tensor("target"), x.tensor("weightOptional"), x.number("reduction"), x.tensor("out"),
                    workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropyBackward(workspace, size, executor, stream);
        }
    },

    PRELU_BACKWARD("aclnnPreluBackward",
            List.of("gradOutput", "self", "weight", "gradInput", "gradWeight"), List.of(),
            List.of(), List.of("gradInput", "gradWeight")) {
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("gradOutput", a.tensor(dtype, 2, 3, 4)).set("self", a.tensor(dtype, 2, 3, 4))
                    .set("weight", a.tensor(dtype, 3)).set("gradInput", a.tensor(dtype, 2, 3, 4))
                    .set("gradWeight", a.tensor(dtype, 3));
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.preluBackwardGetWorkspaceSize(x.tensor("gradOutput"), x.tensor("self"), x.tensor("weight"),
                    x.tensor("gradInput"), x.tensor("gradWeight"), workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.preluBackward(workspace, size, executor, stream);
        }
    },

    PRELU("aclnnPrelu", List.of("self", "weight", "out"), List.of(), List.of(), List.of("out")) {
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("self", a.tensor(dtype, 2, 3, 4)).set("weight", a.tensor(dtype, 3))
                    .set("out", a.tensor(dtype, 2, 3, 4));
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.preluGetWorkspaceSize(x.tensor("self"), x.tensor("weight"), x.tensor("out"), workspaceSize,
                    executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.prelu(workspace, size, executor, stream);
        }
    },

    BCE("aclnnBinaryCrossEntropy", List.of("self", "target", "weight", "out"), List.of("reduction"),
            List.of("weight"), List.of("out")) {
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("self", a.tensor(dtype, 2, 3)).set("target", a.tensor(dtype, 2, 3))
                    .set("weight", a.tensor(dtype, 2, 3)).set("reduction", 0).set("out", a.tensor(dtype, 2, 3));
        }

        /** CANN's code returns ACLNN_ERR_INNER_NULLPTR for a null self, target or out (its document says 161001). */
        @Override
        public int nullStatus() {
            return 561103;
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyGetWorkspaceSize(x.tensor("self"), x.tensor("target"), x.tensor("weight"),
                    x.number("reduction"), x.tensor("out"), workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropy(workspace, size, executor, stream);
        }
    },

    BCE_WITH_LOGITS_BACKWARD("aclnnBinaryCrossEntropyWithLogitsBackward",
            List.of("gradOutput", "self", "target", "weightOptional", "posWeightOptional", "out"), List.of("reduction"),
            List.of("weightOptional", "posWeightOptional"), List.of("out")) {
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("gradOutput", a.tensor(dtype)).set("self", a.tensor(dtype, 2, 3))
                    .set("target", a.tensor(dtype, 2, 3)).set("weightOptional", a.tensor(dtype, 3))
                    .set("posWeightOptional", a.tensor(dtype, 3)).set("reduction", 1).set("out", a.tensor(dtype, 2, 3));
        }

        @Override
        public List<String> sameFormatSlots() {
            return List.of("self", "target", "out");
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(x.tensor("gradOutput"), x.tensor("self"),
                    x.tensor("target"), x.tensor("weightOptional"), x.tensor("posWeightOptional"), x.number("reduction"),
                    x.tensor("out"), workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropyWithLogitsBackward(workspace, size, executor, stream);
        }
    },

    BCE_WITH_LOGITS("aclnnBinaryCrossEntropyWithLogits",
            List.of("self", "target", "weightOptional", "posWeightOptional", "out"), List.of("reduction"),
            List.of("weightOptional", "posWeightOptional"), List.of("out")) {
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("self", a.tensor(dtype, 2, 3)).set("target", a.tensor(dtype, 2, 3))
                    .set("weightOptional", a.tensor(dtype, 2, 3)).set("posWeightOptional", a.tensor(dtype, 3))
                    .set("reduction", 0).set("out", a.tensor(dtype, 2, 3));
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(x.tensor("self"), x.tensor("target"),
                    x.tensor("weightOptional"), x.tensor("posWeightOptional"), x.number("reduction"), x.tensor("out"),
                    workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.binaryCrossEntropyWithLogits(workspace, size, executor, stream);
        }
    },

    GROUP_NORM("aclnnGroupNorm", List.of("self", "gamma", "beta", "out", "meanOut", "rstdOut"),
            List.of("N", "C", "HxW", "group"), List.of("gamma", "beta"), List.of("out", "meanOut", "rstdOut")) {
        /** self [2, 3, 4], N = 2, C = 3, HxW = 4, group = 1, eps 1e-5 (as CANN's unit tests). */
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("self", a.tensor(dtype, 2, 3, 4)).set("gamma", a.tensor(dtype, 3))
                    .set("beta", a.tensor(dtype, 3)).set("N", 2).set("C", 3).set("HxW", 4).set("group", 1)
                    .set("out", a.tensor(dtype, 2, 3, 4)).set("meanOut", a.tensor(dtype, 2, 1))
                    .set("rstdOut", a.tensor(dtype, 2, 1));
        }

        @Override
        public List<String> sameFormatSlots() {
            return List.of("self", "out");
        }

        /** CANN's code takes self as ND, NCL, NCHW or NCDHW only. */
        @Override
        public List<Integer> refusedPlainFormats() {
            return List.of(1, 16, 27); // NHWC, HWCN, NDHWC
        }

        /** ... and no private format: out, whose tag must equal self's, is refused with it. */
        @Override
        public List<String> privateFormatRefusedSlots() {
            return List.of("self", "out");
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.groupNormGetWorkspaceSize(x.tensor("self"), x.tensor("gamma"), x.tensor("beta"), x.number("N"),
                    x.number("C"), x.number("HxW"), x.number("group"), 1e-5, x.tensor("out"), x.tensor("meanOut"),
                    x.tensor("rstdOut"), workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.groupNorm(workspace, size, executor, stream);
        }
    },

    GROUP_NORM_BACKWARD("aclnnGroupNormBackward",
            List.of("gradOut", "input", "mean", "rstd", "gamma", "gradInput", "gradGammaOut", "gradBetaOut"),
            List.of("N", "C", "HxW", "group"),
            List.of("gamma"), List.of("gradInput", "gradGammaOut", "gradBetaOut")) {
        /** N = 2, C = 4, HxW = 3, group = 2, every output requested. */
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("gradOut", a.tensor(dtype, 2, 4, 3)).set("input", a.tensor(dtype, 2, 4, 3))
                    .set("mean", a.tensor(dtype, 2, 2)).set("rstd", a.tensor(dtype, 2, 2))
                    .set("gamma", a.tensor(dtype, 4)).set("N", 2).set("C", 4).set("HxW", 3).set("group", 2)
                    .mask(true, true, true).set("gradInput", a.tensor(dtype, 2, 4, 3))
                    .set("gradGammaOut", a.tensor(dtype, 4)).set("gradBetaOut", a.tensor(dtype, 4));
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.groupNormBackwardGetWorkspaceSize(x.tensor("gradOut"), x.tensor("input"), x.tensor("mean"),
                    x.tensor("rstd"), x.tensor("gamma"), x.number("N"), x.number("C"), x.number("HxW"),
                    x.number("group"), x.mask(), x.tensor("gradInput"), x.tensor("gradGammaOut"),
                    x.tensor("gradBetaOut"), workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.groupNormBackward(workspace, size, executor, stream);
        }
    },

    NLL_LOSS("aclnnNLLLoss", List.of("self", "target", "weight", "out", "totalWeightOut"),
            List.of("reduction", "ignoreIndex"), List.of(), List.of("out", "totalWeightOut")) {
        /** self [3, 4], target {0, 3, 1} as INT64, reduction mean, ignoreIndex -100. */
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("self", a.tensor(dtype, 3, 4))
                    .set("target", a.values(ACL_INT64, new double[] {0, 3, 1}, 3)).set("weight", a.tensor(dtype, 4))
                    .set("reduction", 1).set("ignoreIndex", -100).set("out", a.tensor(dtype))
                    .set("totalWeightOut", a.tensor(dtype, 1));
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.nllLossGetWorkspaceSize(x.tensor("self"), x.tensor("target"), x.tensor("weight"),
                    x.number("reduction"), x.number("ignoreIndex"), x.tensor("out"), x.tensor("totalWeightOut"),
                    workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.nllLoss(workspace, size, executor, stream);
        }
    },

    NLL_LOSS_BACKWARD("aclnnNLLLossBackward",
            List.of("gradOutput", "self", "target", "weight", "totalWeight", "out"),
            List.of("reduction", "ignoreIndex"), List.of(), List.of("out")) {
        /** self [3, 4], target {0, 3, 1} as INT64, reduction mean, ignoreIndex -100. */
        @Override
        public OpArgs baseline(DeviceArena a, int dtype) {
            return new OpArgs(this, a).set("gradOutput", a.tensor(dtype)).set("self", a.tensor(dtype, 3, 4))
                    .set("target", a.values(ACL_INT64, new double[] {0, 3, 1}, 3)).set("weight", a.tensor(dtype, 4))
                    .set("reduction", 1).set("ignoreIndex", -100).set("totalWeight", a.tensor(dtype, 1))
                    .set("out", a.tensor(dtype, 3, 4));
        }

        /** SPEC 5.5(2): out takes any dtype self's casts to (DOUBLE, the complex types), on every SoC. */
        @Override
        public List<String> castOnlySlots() {
            return List.of("out");
        }

        @Override
        int plan(OpArgs x, long[] workspaceSize, AclOpExecutor executor) {
            return Aclnn.nllLossBackwardGetWorkspaceSize(x.tensor("gradOutput"), x.tensor("self"), x.tensor("target"),
                    x.tensor("weight"), x.number("reduction"), x.number("ignoreIndex"), x.tensor("totalWeight"),
                    x.tensor("out"), workspaceSize, executor);
        }

        @Override
        int launch(Pointer workspace, long size, AclOpExecutor executor, AclrtStream stream) {
            return Aclnn.nllLossBackward(workspace, size, executor, stream);
        }
    };

    public final String cName;
    /** Every tensor parameter, in C order. */
    public final List<String> tensorSlots;
    public final List<String> numberSlots;
    /** Tensor parameters that may be null. */
    public final List<String> optionalSlots;
    public final List<String> outputSlots;

    Operator(String cName, List<String> tensorSlots, List<String> numberSlots, List<String> optionalSlots,
            List<String> outputSlots) {
        this.cName = cName;
        this.tensorSlots = tensorSlots;
        this.numberSlots = numberSlots;
        this.optionalSlots = optionalSlots;
        this.outputSlots = outputSlots;
    }

    /** Plain format tags CANN's code refuses for this operator (tagged on every tensor). */
    public List<Integer> refusedPlainFormats() {
        return List.of();
    }

    /** Slots whose dtype need only be one that self's casts to, not a float type of the SoC's list. */
    public List<String> castOnlySlots() {
        return List.of();
    }

    /**
     * Slots where CANN's code refuses an NPU-private format tag (161002); every other slot takes
     * one as a tag over the same plain view.
     */
    public List<String> privateFormatRefusedSlots() {
        return List.of();
    }

    /** Tensors whose format tags CANN's code requires to be equal. */
    public List<String> sameFormatSlots() {
        return List.of();
    }

    /** The status of a null required tensor. */
    public int nullStatus() {
        return Change.NULLPTR;
    }

    /** A small argument set that phase 1 accepts, every floating tensor of {@code dtype}. */
    public abstract OpArgs baseline(DeviceArena arena, int dtype);

    abstract int plan(OpArgs args, long[] workspaceSize, AclOpExecutor executor);

    abstract int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);

    /** Phase 2 of this operator through the exception guard. */
    public int launchGuarded(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return Calls.status(cName, () -> launch(workspace, workspaceSize, executor, stream));
    }

    public List<String> requiredSlots() {
        return tensorSlots.stream().filter(s -> !optionalSlots.contains(s)).toList();
    }
}
