package io.github.aclnn4j.acl;

import io.github.aclnn4j.op.BinaryCrossEntropy;
import io.github.aclnn4j.op.BinaryCrossEntropyBackward;
import io.github.aclnn4j.op.BinaryCrossEntropyWithLogits;
import io.github.aclnn4j.op.BinaryCrossEntropyWithLogitsBackward;
import io.github.aclnn4j.op.Executor;
import io.github.aclnn4j.op.GroupNorm;
import io.github.aclnn4j.op.GroupNormBackward;
import io.github.aclnn4j.op.NllLoss;
import io.github.aclnn4j.op.NllLossBackward;
import io.github.aclnn4j.op.Plan;
import io.github.aclnn4j.op.Prelu;
import io.github.aclnn4j.op.PreluBackward;
import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.runtime.Failure;
import io.github.aclnn4j.runtime.Status;
import io.github.aclnn4j.runtime.Stream;
import io.github.aclnn4j.tensor.TensorDesc;
import java.util.function.Supplier;

/**
 * The operators of the aclnn API, each as its two phases: {@code xxxGetWorkspaceSize} checks the
 * arguments and plans the work into an executor, {@code xxx} enqueues that work on a stream.
 * Every method returns the C {@code aclnnStatus} and never throws.
 */
public final class Aclnn {
    private Aclnn() {}

    private static final String BCE_BACKWARD = "aclnnBinaryCrossEntropyBackward";
    private static final String PRELU_BACKWARD = "aclnnPreluBackward";
    private static final String BCE_WITH_LOGITS = "aclnnBinaryCrossEntropyWithLogits";
    private static final String GROUP_NORM_BACKWARD = "aclnnGroupNormBackward";
    private static final String NLL_LOSS_BACKWARD = "aclnnNLLLossBackward";
    private static final String PRELU = "aclnnPrelu";
    private static final String BCE = "aclnnBinaryCrossEntropy";
    private static final String BCE_WITH_LOGITS_BACKWARD = "aclnnBinaryCrossEntropyWithLogitsBackward";
    private static final String NLL_LOSS = "aclnnNLLLoss";
    private static final String GROUP_NORM = "aclnnGroupNorm";

    public static int binaryCrossEntropyBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self, AclTensor target,
            AclTensor weightOptional, long reduction, AclTensor out, long[] workspaceSize, AclOpExecutor executor) {
        return plan(BCE_BACKWARD, workspaceSize, executor, () -> BinaryCrossEntropyBackward.plan(
                desc(gradOutput), desc(self), desc(target), desc(weightOptional), reduction, desc(out)));
    }

    public static int binaryCrossEntropyBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(BCE_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    public static int preluBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self, AclTensor weight,
            AclTensor gradInput, AclTensor gradWeight, long[] workspaceSize, AclOpExecutor executor) {
        return plan(PRELU_BACKWARD, workspaceSize, executor, () -> PreluBackward.plan(
                desc(gradOutput), desc(self), desc(weight), desc(gradInput), desc(gradWeight)));
    }

    public static int preluBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(PRELU_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    public static int binaryCrossEntropyWithLogitsGetWorkspaceSize(AclTensor self, AclTensor target,
            AclTensor weightOptional, AclTensor posWeightOptional, long reduction, AclTensor out, long[] workspaceSize,
            AclOpExecutor executor) {
        return plan(BCE_WITH_LOGITS, workspaceSize, executor, () -> BinaryCrossEntropyWithLogits.plan(
                desc(self), desc(target), desc(weightOptional), desc(posWeightOptional), reduction, desc(out)));
    }

    public static int binaryCrossEntropyWithLogits(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(BCE_WITH_LOGITS, workspace, workspaceSize, executor, stream);
    }

    public static int groupNormBackwardGetWorkspaceSize(AclTensor gradOut, AclTensor input, AclTensor mean,
            AclTensor rstd, AclTensor gamma, long N, long C, long HxW, long group, AclBoolArray outputMask,
            AclTensor gradInput, AclTensor gradGammaOut, AclTensor gradBetaOut, long[] workspaceSize,
            AclOpExecutor executor) {
        return plan(GROUP_NORM_BACKWARD, workspaceSize, executor, () -> GroupNormBackward.plan(
                desc(gradOut), desc(input), desc(mean), desc(rstd), desc(gamma), N, C, HxW, group,
                mask(outputMask), desc(gradInput), desc(gradGammaOut), desc(gradBetaOut)));
    }

    public static int groupNormBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(GROUP_NORM_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    public static int nllLossBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self, AclTensor target,
            AclTensor weight, long reduction, long ignoreIndex, AclTensor totalWeight, AclTensor out,
            long[] workspaceSize, AclOpExecutor executor) {
        return plan(NLL_LOSS_BACKWARD, workspaceSize, executor, () -> NllLossBackward.plan(
                desc(gradOutput), desc(self), desc(target), desc(weight), reduction, ignoreIndex, desc(totalWeight),
                desc(out)));
    }

    public static int nllLossBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(NLL_LOSS_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    public static int preluGetWorkspaceSize(AclTensor self, AclTensor weight, AclTensor out, long[] workspaceSize,
            AclOpExecutor executor) {
        return plan(PRELU, workspaceSize, executor, () -> Prelu.plan(desc(self), desc(weight), desc(out)));
    }

    public static int prelu(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(PRELU, workspace, workspaceSize, executor, stream);
    }

    public static int binaryCrossEntropyGetWorkspaceSize(AclTensor self, AclTensor target, AclTensor weight,
            long reduction, AclTensor out, long[] workspaceSize, AclOpExecutor executor) {
        return plan(BCE, workspaceSize, executor, () -> BinaryCrossEntropy.plan(desc(self), desc(target),
                desc(weight), reduction, desc(out)));
    }

    public static int binaryCrossEntropy(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(BCE, workspace, workspaceSize, executor, stream);
    }

    public static int binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self,
            AclTensor target, AclTensor weightOptional, AclTensor posWeightOptional, long reduction, AclTensor out,
            long[] workspaceSize, AclOpExecutor executor) {
        return plan(BCE_WITH_LOGITS_BACKWARD, workspaceSize, executor, () -> BinaryCrossEntropyWithLogitsBackward.plan(
                desc(gradOutput), desc(self), desc(target), desc(weightOptional), desc(posWeightOptional), reduction,
                desc(out)));
    }

    public static int binaryCrossEntropyWithLogitsBackward(Pointer workspace, long workspaceSize,
            AclOpExecutor executor, AclrtStream stream) {
        return launch(BCE_WITH_LOGITS_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    public static int nllLossGetWorkspaceSize(AclTensor self, AclTensor target, AclTensor weight, long reduction,
            long ignoreIndex, AclTensor out, AclTensor totalWeightOut, long[] workspaceSize, AclOpExecutor executor) {
        return plan(NLL_LOSS, workspaceSize, executor, () -> NllLoss.plan(desc(self), desc(target), desc(weight),
                reduction, ignoreIndex, desc(out), desc(totalWeightOut)));
    }

    public static int nllLoss(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(NLL_LOSS, workspace, workspaceSize, executor, stream);
    }

    public static int groupNormGetWorkspaceSize(AclTensor self, AclTensor gamma, AclTensor beta, long N, long C,
            long HxW, long group, double eps, AclTensor out, AclTensor meanOut, AclTensor rstdOut, long[] workspaceSize,
            AclOpExecutor executor) {
        return plan(GROUP_NORM, workspaceSize, executor, () -> GroupNorm.plan(desc(self), desc(gamma), desc(beta), N, C,
                HxW, group, eps, desc(out), desc(meanOut), desc(rstdOut)));
    }

    public static int groupNorm(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(GROUP_NORM, workspace, workspaceSize, executor, stream);
    }

    private static TensorDesc desc(AclTensor t) {
        return t == null ? null : t.desc;
    }

    private static boolean[] mask(AclBoolArray a) {
        if (a == null) {
            return null;
        }
        if (a.destroyed) {
            throw Status.invalid(GROUP_NORM_BACKWARD + "GetWorkspaceSize: outputMask was destroyed");
        }
        return a.values.clone();
    }

    /** Phase 1: null out-parameters first, then the operator's own checks; the holder is emptied on failure. */
    private static int plan(String operator, long[] workspaceSize, AclOpExecutor executor, Supplier<Plan> planner) {
        String function = operator + "GetWorkspaceSize";
        return Guard.aclnn(function, () -> {
            if (workspaceSize == null) {
                throw Status.nullptr(function + ": workspaceSize must not be null");
            }
            if (workspaceSize.length < 1) { // the C pointer to nothing: no room for the size
                throw Status.nullptr(function + ": workspaceSize is a long[0]; it needs room for the size (long[1])");
            }
            if (executor == null) {
                throw Status.nullptr(function + ": executor must not be null");
            }
            executor.executor = null;
            Plan plan = planner.get();
            workspaceSize[0] = plan.workspaceSize();
            executor.executor = new Executor(plan);
        });
    }

    /**
     * Phase 2: enqueue the executor's plan on the stream (null: the default stream). It catches for
     * itself rather than through {@link Guard#aclnn}: see {@link Guard#status}.
     */
    private static int launch(String operator, Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        try {
            Executor e = executor == null ? null : executor.executor;
            if (e == null) {
                throw Status.nullptr(operator + ": executor must not be null");
            }
            Stream s = stream == null ? null : stream.stream;
            try {
                if (s == null) {
                    AclRuntime.requireInit(operator);
                    s = AclRuntime.defaultStream(operator);
                } else {
                    AclRuntime.checkStream(operator, s);
                }
            } catch (Failure f) { // runtime codes, as an operator reports them
                throw new Failure(f.status() == Status.ACL_INVALID_PARAM ? Status.PARAM_INVALID : Status.RUNTIME_ERROR,
                        f.getMessage());
            }
            boolean nullWorkspace = workspace == null || workspace.isNull();
            e.launch(operator, nullWorkspace ? null : workspace.block(), nullWorkspace ? 0 : workspace.byteOffset(),
                    workspaceSize, s);
            return Status.SUCCESS;
        } catch (Throwable t) {
            return Guard.status(operator, t, Status.INNER);
        }
    }
}
