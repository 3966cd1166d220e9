package io.github.aclnn4j.nn;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclnnStatus;
import io.github.aclnn4j.acl.AclrtMemMallocPolicy;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import java.util.ArrayList;
import java.util.List;

/**
 * The ten operators as functions: each makes its outputs on its inputs' device, plans and launches
 * the layer-1 operator there, and returns without waiting. A null optional input is absent; a null
 * required one is layer 1's {@code 161001}. Outputs have self's dtype (BCE with logits and its
 * backward: target's, PReLU: self's and weight's promoted, as layer 1 requires); a MEAN or SUM loss
 * is a 0-d tensor. Every layer-1 failure is an {@link AclnnException} with its status and message, so are
 * inputs of two devices and closed tensors (161002); a failure while running is thrown by the read
 * that waits for it.
 */
public final class Functional {
    private Functional() {}

    /** {@code aclnnBinaryCrossEntropyBackward}: the gradient of BCE with respect to self. */
    public static Tensor binaryCrossEntropyBackward(Tensor gradOutput, Tensor self, Tensor target, Tensor weight,
            Reduction r) {
        try (Call c = new Call(gradOutput, self, target, weight)) {
            Tensor out = c.output(self, self == null ? null : self.shape());
            c.planned(Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(c.acl(gradOutput), c.acl(self), c.acl(target),
                    c.acl(weight), code(r), c.acl(out), c.workspaceSize, c.executor));
            c.launched(Aclnn.binaryCrossEntropyBackward(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return out;
        }
    }

    /** {@code aclnnBinaryCrossEntropyWithLogits}: the loss of logits self against target. */
    public static Tensor binaryCrossEntropyWithLogits(Tensor self, Tensor target, Tensor weight, Tensor posWeight,
            Reduction r) {
        try (Call c = new Call(self, target, weight, posWeight)) {
            Tensor out = c.output(target != null ? target : self, lossShape(self, r));
            c.planned(Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(c.acl(self), c.acl(target), c.acl(weight),
                    c.acl(posWeight), code(r), c.acl(out), c.workspaceSize, c.executor));
            c.launched(Aclnn.binaryCrossEntropyWithLogits(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return out;
        }
    }

    /** {@code aclnnPreluBackward}: gradInput in self's shape, gradWeight in weight's. */
    public static PreluGrads preluBackward(Tensor gradOutput, Tensor self, Tensor weight) {
        try (Call c = new Call(gradOutput, self, weight)) {
            Tensor gradInput = c.output(self, self == null ? null : self.shape());
            Tensor gradWeight = c.output(self, weight == null ? null : weight.shape());
            c.planned(Aclnn.preluBackwardGetWorkspaceSize(c.acl(gradOutput), c.acl(self), c.acl(weight),
                    c.acl(gradInput), c.acl(gradWeight), c.workspaceSize, c.executor));
            c.launched(Aclnn.preluBackward(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return new PreluGrads(gradInput, gradWeight);
        }
    }

    /**
     * {@code aclnnGroupNormBackward}: the gradients {@code outputMask} asks for (gradInput in
     * input's shape and gradOut's dtype, gradGamma and gradBeta [c] in mean's dtype); the others null.
     */
    public static GroupNormGrads groupNormBackward(Tensor gradOut, Tensor input, Tensor mean, Tensor rstd,
            Tensor gamma, long n, long c, long hxw, long group, boolean[] outputMask) {
        try (Call call = new Call(gradOut, input, mean, rstd, gamma)) {
            boolean[] mask = outputMask == null ? null : outputMask.clone();
            boolean valid = mask != null && mask.length == 3;
            Tensor gradInput = valid && mask[0] ? call.output(gradOut, input == null ? null : input.shape()) : null;
            Tensor statistics = mean != null ? mean : gradOut;
            long[] perChannel = gamma != null ? gamma.shape() : new long[] {c};
            Tensor gradGamma = valid && mask[1] ? call.output(statistics, perChannel) : null;
            Tensor gradBeta = valid && mask[2] ? call.output(statistics, perChannel) : null;
            AclBoolArray m = mask == null ? null : Acl.createBoolArray(mask, mask.length);
            try {
                call.planned(Aclnn.groupNormBackwardGetWorkspaceSize(call.acl(gradOut), call.acl(input), call.acl(mean),
                        call.acl(rstd), call.acl(gamma), n, c, hxw, group, m, call.acl(gradInput), call.acl(gradGamma),
                        call.acl(gradBeta), call.workspaceSize, call.executor));
                call.launched(Aclnn.groupNormBackward(call.workspace(), call.workspaceSize[0], call.executor,
                        call.stream()));
            } finally {
                if (m != null) {
                    Acl.destroyBoolArray(m);
                }
            }
            return new GroupNormGrads(gradInput, gradGamma, gradBeta);
        }
    }

    /** {@code aclnnNLLLossBackward}: the gradient of NLL loss with respect to self, in self's shape. */
    public static Tensor nllLossBackward(Tensor gradOutput, Tensor self, Tensor target, Tensor weight, Reduction r,
            long ignoreIndex, Tensor totalWeight) {
        try (Call c = new Call(gradOutput, self, target, weight, totalWeight)) {
            Tensor out = c.output(self, self == null ? null : self.shape());
            c.planned(Aclnn.nllLossBackwardGetWorkspaceSize(c.acl(gradOutput), c.acl(self), c.acl(target),
                    c.acl(weight), code(r), ignoreIndex, c.acl(totalWeight), c.acl(out), c.workspaceSize, c.executor));
            c.launched(Aclnn.nllLossBackward(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return out;
        }
    }

    /** {@code aclnnBinaryCrossEntropy}: the loss of probabilities self against target. */
    public static Tensor binaryCrossEntropy(Tensor self, Tensor target, Tensor weight, Reduction r) {
        try (Call c = new Call(self, target, weight)) {
            Tensor out = c.output(self, lossShape(self, r));
            c.planned(Aclnn.binaryCrossEntropyGetWorkspaceSize(c.acl(self), c.acl(target), c.acl(weight), code(r),
                    c.acl(out), c.workspaceSize, c.executor));
            c.launched(Aclnn.binaryCrossEntropy(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return out;
        }
    }

    /** {@code aclnnPrelu}: {@code max(0, x) + weight·min(0, x)}, weight per channel (dimension 1) or single. */
    public static Tensor prelu(Tensor self, Tensor weight) {
        try (Call c = new Call(self, weight)) {
            DType promoted = self == null || weight == null ? null : DType.promote(self.dtype(), weight.dtype());
            Tensor out = c.output(self, self == null ? null : self.shape(), promoted);
            c.planned(Aclnn.preluGetWorkspaceSize(c.acl(self), c.acl(weight), c.acl(out), c.workspaceSize, c.executor));
            c.launched(Aclnn.prelu(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return out;
        }
    }

    /** {@code aclnnGroupNorm}: out in self's shape, mean and rstd [n, group]. */
    public static GroupNormResult groupNorm(Tensor self, Tensor gamma, Tensor beta, long n, long c, long hxw,
            long group, double eps) {
        try (Call call = new Call(self, gamma, beta)) {
            Tensor out = call.output(self, self == null ? null : self.shape());
            Tensor mean = call.output(self, new long[] {n, group});
            Tensor rstd = call.output(self, new long[] {n, group});
            call.planned(Aclnn.groupNormGetWorkspaceSize(call.acl(self), call.acl(gamma), call.acl(beta), n, c, hxw,
                    group, eps, call.acl(out), call.acl(mean), call.acl(rstd), call.workspaceSize, call.executor));
            call.launched(Aclnn.groupNorm(call.workspace(), call.workspaceSize[0], call.executor, call.stream()));
            return new GroupNormResult(out, mean, rstd);
        }
    }

    /**
     * {@code aclnnNLLLoss}: out [N] for NONE over a 2-D self, else 0-d; totalWeight 0-d (the sum of
     * the counted targets' weights).
     */
    public static NllLossResult nllLoss(Tensor self, Tensor target, Tensor weight, Reduction r, long ignoreIndex) {
        try (Call c = new Call(self, target, weight)) {
            long[] outShape = self == null ? null
                    : r == Reduction.NONE && self.rank() == 2 ? new long[] {self.shape()[0]} : new long[0];
            Tensor out = c.output(self, outShape);
            Tensor totalWeight = c.output(self, new long[0]);
            c.planned(Aclnn.nllLossGetWorkspaceSize(c.acl(self), c.acl(target), c.acl(weight), code(r), ignoreIndex,
                    c.acl(out), c.acl(totalWeight), c.workspaceSize, c.executor));
            c.launched(Aclnn.nllLoss(c.workspace(), c.workspaceSize[0], c.executor, c.stream()));
            return new NllLossResult(out, totalWeight);
        }
    }

    /** {@code aclnnBinaryCrossEntropyWithLogitsBackward}: the gradient with respect to the logits, in self's shape. */
    public static Tensor binaryCrossEntropyWithLogitsBackward(Tensor gradOutput, Tensor self, Tensor target,
            Tensor weight, Tensor posWeight, Reduction r) {
        try (Call c = new Call(gradOutput, self, target, weight, posWeight)) {
            Tensor out = c.output(target != null ? target : self, self == null ? null : self.shape());
            c.planned(Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(c.acl(gradOutput), c.acl(self),
                    c.acl(target), c.acl(weight), c.acl(posWeight), code(r), c.acl(out), c.workspaceSize, c.executor));
            c.launched(Aclnn.binaryCrossEntropyWithLogitsBackward(c.workspace(), c.workspaceSize[0], c.executor,
                    c.stream()));
            return out;
        }
    }

    private static long[] lossShape(Tensor self, Reduction r) {
        return self == null ? null : r == Reduction.NONE ? self.shape() : new long[0];
    }

    /** A null reduction goes to layer 1 as an invalid value, for its own message. */
    private static long code(Reduction r) {
        return r == null ? -1 : r.code();
    }

    /**
     * One operator call: its device (the inputs' one), the outputs it made (closed again if the call
     * fails) and the layer-1 descriptors (destroyed when it ends).
     */
    private static final class Call implements AutoCloseable {
        private final Device device;
        private final List<AclTensor> descriptors = new ArrayList<>();
        private final List<Tensor> outputs = new ArrayList<>();
        /** Phase 1's out-parameters. */
        final long[] workspaceSize = new long[1];
        final AclOpExecutor executor = new AclOpExecutor();
        private Pointer workspace;
        private boolean launched;

        Call(Tensor... inputs) {
            Device d = null;
            for (Tensor t : inputs) {
                if (t == null) {
                    continue;
                }
                t.requireOpen();
                if (d == null) {
                    d = t.device();
                } else if (t.device() != d) {
                    throw new AclnnException(AclnnStatus.ACLNN_ERR_PARAM_INVALID,
                            "the inputs come from two Device objects (devices " + d.id() + " and " + t.device().id()
                                    + "); one call takes the tensors of one");
                }
            }
            device = d;
            if (d != null) {
                d.bind();
            }
        }

        /** A new tensor of {@code like}'s dtype, or null where the shape is unknown (a null input: layer 1 reports it). */
        Tensor output(Tensor like, long[] shape) {
            return output(like, shape, null);
        }

        /** As {@link #output(Tensor, long[])}, of {@code dtype} unless that is null. */
        Tensor output(Tensor like, long[] shape, DType dtype) {
            if (like == null || shape == null) {
                return null;
            }
            Tensor t = device.newTensor(dtype == null ? like.dtype() : dtype, shape);
            outputs.add(t);
            return t;
        }

        AclTensor acl(Tensor t) {
            if (t == null) {
                return null;
            }
            AclTensor a = t.acl();
            descriptors.add(a);
            return a;
        }

        /**
         * Phase 1's status (its failure thrown), then the workspace it asked for. The operators call
         * both phases themselves rather than hand lambdas to a runner: a JVM spins a class and
         * method-handle forms for each at its first call, two per operator.
         */
        void planned(int status) {
            Device.check(status);
            if (workspaceSize[0] > 0) {
                workspace = new Pointer();
                Device.check(AclRt.malloc(workspace, workspaceSize[0],
                        AclrtMemMallocPolicy.ACL_MEM_MALLOC_HUGE_FIRST));
            }
        }

        /** The workspace phase 1 asked for, or null. */
        Pointer workspace() {
            return workspace;
        }

        /** The device's stream, for phase 2. */
        AclrtStream stream() {
            return device.stream();
        }

        /** Phase 2's status, its failure thrown. */
        void launched(int status) {
            Device.check(status);
            launched = true;
        }

        /**
         * Frees the workspace (once the stream is done with it) and destroys the descriptors; destroys
         * the executor and closes the outputs again when the call did not launch.
         */
        @Override
        public void close() {
            if (workspace != null && !workspace.isNull()) {
                device.releaseWorkspace(workspace);
            }
            if (!launched) {
                Acl.destroyAclOpExecutor(executor);
            }
            for (AclTensor a : descriptors) {
                Acl.destroyTensor(a);
            }
            if (!launched) {
                outputs.forEach(Tensor::close);
            }
        }
    }
}
