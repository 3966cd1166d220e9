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

/**
 * The operators of the aclnn API, each as its two phases: {@code xxxGetWorkspaceSize} checks the
 * arguments and plans the work into an executor, {@code xxx} enqueues that work on a stream.
 * Every method returns the C {@code aclnnStatus} and never throws.
 *
 * <p>Phase 1 writes element 0 of {@code workspaceSize} (the bytes of workspace phase 2 needs, often 0)
 * and fills {@code executor}; a null {@code workspaceSize} or {@code executor} is 161001 before any
 * other check, and on failure the holder is left empty. Phase 2 takes that {@code executor}, a
 * {@code workspace} of at least that many bytes with its {@code workspaceSize} (null and 0 when none is
 * needed) and a {@code stream} (null or an empty holder: the default stream). An executor runs once, unless
 * {@link Acl#setAclOpExecutorRepeatable} was called right after phase 1. A failure of the work itself
 * is reported by {@link AclRt#synchronizeStream}.
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

    /**
     * {@code aclnnBinaryCrossEntropyBackwardGetWorkspaceSize}: plans {@code out}, the gradient with respect to
     * {@code self} (probabilities) of the binary cross-entropy against {@code target}, times {@code gradOutput}
     * and {@code weightOptional} (null: ones); {@code reduction} 0 none, 1 mean (scales by 1/numel), 2 sum.
     */
    public static int binaryCrossEntropyBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self, AclTensor target,
            AclTensor weightOptional, long reduction, AclTensor out, long[] workspaceSize, AclOpExecutor executor) {
        try {
            beginPlan(BCE_BACKWARD, workspaceSize, executor);
            return endPlan(workspaceSize, executor, BinaryCrossEntropyBackward.plan(
                    desc(gradOutput), desc(self), desc(target), desc(weightOptional), reduction, desc(out)));
        } catch (Throwable t) {
            return Guard.status(BCE_BACKWARD + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /**
     * {@code aclnnBinaryCrossEntropyBackward}: enqueues the plan of
     * {@link #binaryCrossEntropyBackwardGetWorkspaceSize}.
     */
    public static int binaryCrossEntropyBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(BCE_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnPreluBackwardGetWorkspaceSize}: plans {@code gradInput} and {@code gradWeight}, the gradients
     * of PReLU with respect to {@code self} and {@code weight}, from {@code gradOutput}. All five tensors are
     * required and of one dtype; {@code weight} has one element or one per channel (view dimension 1).
     */
    public static int preluBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self, AclTensor weight,
            AclTensor gradInput, AclTensor gradWeight, long[] workspaceSize, AclOpExecutor executor) {
        try {
            beginPlan(PRELU_BACKWARD, workspaceSize, executor);
            return endPlan(workspaceSize, executor, PreluBackward.plan(
                    desc(gradOutput), desc(self), desc(weight), desc(gradInput), desc(gradWeight)));
        } catch (Throwable t) {
            return Guard.status(PRELU_BACKWARD + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnPreluBackward}: enqueues the plan of {@link #preluBackwardGetWorkspaceSize}. */
    public static int preluBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(PRELU_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize}: plans {@code out}, the binary cross-entropy of
     * the logits {@code self} against {@code target}, weighted by {@code weightOptional} and, for positive
     * labels, {@code posWeightOptional} (null: ones). {@code out} has self's shape for {@code reduction} 0
     * (none), one element for 1 (mean) and 2 (sum).
     */
    public static int binaryCrossEntropyWithLogitsGetWorkspaceSize(AclTensor self, AclTensor target,
            AclTensor weightOptional, AclTensor posWeightOptional, long reduction, AclTensor out, long[] workspaceSize,
            AclOpExecutor executor) {
        try {
            beginPlan(BCE_WITH_LOGITS, workspaceSize, executor);
            return endPlan(workspaceSize, executor, BinaryCrossEntropyWithLogits.plan(
                    desc(self), desc(target), desc(weightOptional), desc(posWeightOptional), reduction, desc(out)));
        } catch (Throwable t) {
            return Guard.status(BCE_WITH_LOGITS + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /**
     * {@code aclnnBinaryCrossEntropyWithLogits}: enqueues the plan of
     * {@link #binaryCrossEntropyWithLogitsGetWorkspaceSize}.
     */
    public static int binaryCrossEntropyWithLogits(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(BCE_WITH_LOGITS, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnGroupNormBackwardGetWorkspaceSize}: plans the gradients of {@link #groupNormGetWorkspaceSize}
     * from {@code gradOut} and the forward's {@code input}, {@code mean}, {@code rstd} and {@code gamma} (null:
     * ones): {@code gradInput}, {@code gradGammaOut} and {@code gradBetaOut}, each only when its entry of
     * {@code outputMask} (three values) is true. gradOut and input are read as [N, C, HxW], mean and rstd as
     * [N, group], whatever their shapes.
     */
    public static int groupNormBackwardGetWorkspaceSize(AclTensor gradOut, AclTensor input, AclTensor mean,
            AclTensor rstd, AclTensor gamma, long N, long C, long HxW, long group, AclBoolArray outputMask,
            AclTensor gradInput, AclTensor gradGammaOut, AclTensor gradBetaOut, long[] workspaceSize,
            AclOpExecutor executor) {
        try {
            beginPlan(GROUP_NORM_BACKWARD, workspaceSize, executor);
            return endPlan(workspaceSize, executor, GroupNormBackward.plan(
                    desc(gradOut), desc(input), desc(mean), desc(rstd), desc(gamma), N, C, HxW, group,
                    mask(outputMask), desc(gradInput), desc(gradGammaOut), desc(gradBetaOut)));
        } catch (Throwable t) {
            return Guard.status(GROUP_NORM_BACKWARD + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnGroupNormBackward}: enqueues the plan of {@link #groupNormBackwardGetWorkspaceSize}. */
    public static int groupNormBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(GROUP_NORM_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnNLLLossBackwardGetWorkspaceSize}: plans {@code out}, the gradient of {@link #nllLossGetWorkspaceSize}
     * with respect to {@code self} ([N, C] or [C]), from {@code gradOutput}, {@code target}, {@code weight}
     * (required), {@code reduction}, {@code ignoreIndex} and the forward's {@code totalWeight}. A target
     * outside [0, C) other than ignoreIndex fails the stream (361001 at the next synchronize).
     */
    public static int nllLossBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self, AclTensor target,
            AclTensor weight, long reduction, long ignoreIndex, AclTensor totalWeight, AclTensor out,
            long[] workspaceSize, AclOpExecutor executor) {
        try {
            beginPlan(NLL_LOSS_BACKWARD, workspaceSize, executor);
            return endPlan(workspaceSize, executor, NllLossBackward.plan(
                    desc(gradOutput), desc(self), desc(target), desc(weight), reduction, ignoreIndex, desc(totalWeight),
                    desc(out)));
        } catch (Throwable t) {
            return Guard.status(NLL_LOSS_BACKWARD + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnNLLLossBackward}: enqueues the plan of {@link #nllLossBackwardGetWorkspaceSize}. */
    public static int nllLossBackward(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(NLL_LOSS_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnPreluGetWorkspaceSize}: plans {@code out}, {@code self} where it is positive and {@code weight}
     * times {@code self} elsewhere; {@code weight} has one element or one per channel (view dimension 1).
     */
    public static int preluGetWorkspaceSize(AclTensor self, AclTensor weight, AclTensor out, long[] workspaceSize,
            AclOpExecutor executor) {
        try {
            beginPlan(PRELU, workspaceSize, executor);
            return endPlan(workspaceSize, executor, Prelu.plan(desc(self), desc(weight), desc(out)));
        } catch (Throwable t) {
            return Guard.status(PRELU + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnPrelu}: enqueues the plan of {@link #preluGetWorkspaceSize}. */
    public static int prelu(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(PRELU, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnBinaryCrossEntropyGetWorkspaceSize}: plans {@code out}, the binary cross-entropy of
     * {@code self} (probabilities) against {@code target}, weighted by {@code weight} (null: ones);
     * {@code reduction} 0 none, 1 mean, 2 sum. A null {@code self}, {@code target} or {@code out} is 561103, as
     * in CANN.
     */
    public static int binaryCrossEntropyGetWorkspaceSize(AclTensor self, AclTensor target, AclTensor weight,
            long reduction, AclTensor out, long[] workspaceSize, AclOpExecutor executor) {
        try {
            beginPlan(BCE, workspaceSize, executor);
            return endPlan(workspaceSize, executor, BinaryCrossEntropy.plan(desc(self), desc(target),
                    desc(weight), reduction, desc(out)));
        } catch (Throwable t) {
            return Guard.status(BCE + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnBinaryCrossEntropy}: enqueues the plan of {@link #binaryCrossEntropyGetWorkspaceSize}. */
    public static int binaryCrossEntropy(Pointer workspace, long workspaceSize, AclOpExecutor executor,
            AclrtStream stream) {
        return launch(BCE, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize}: plans {@code out}, the gradient of
     * {@link #binaryCrossEntropyWithLogitsGetWorkspaceSize} with respect to {@code self}, from {@code gradOutput};
     * {@code out} has self's shape whatever the {@code reduction} (mean scales by 1/numel).
     */
    public static int binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(AclTensor gradOutput, AclTensor self,
            AclTensor target, AclTensor weightOptional, AclTensor posWeightOptional, long reduction, AclTensor out,
            long[] workspaceSize, AclOpExecutor executor) {
        try {
            beginPlan(BCE_WITH_LOGITS_BACKWARD, workspaceSize, executor);
            return endPlan(workspaceSize, executor, BinaryCrossEntropyWithLogitsBackward.plan(
                    desc(gradOutput), desc(self), desc(target), desc(weightOptional), desc(posWeightOptional),
                    reduction, desc(out)));
        } catch (Throwable t) {
            return Guard.status(BCE_WITH_LOGITS_BACKWARD + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /**
     * {@code aclnnBinaryCrossEntropyWithLogitsBackward}: enqueues the plan of
     * {@link #binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize}.
     */
    public static int binaryCrossEntropyWithLogitsBackward(Pointer workspace, long workspaceSize,
            AclOpExecutor executor, AclrtStream stream) {
        return launch(BCE_WITH_LOGITS_BACKWARD, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnNLLLossGetWorkspaceSize}: plans {@code out}, the negative log-likelihood of the log-probabilities
     * {@code self} ([N, C] or [C]) at the classes {@code target}, weighted by {@code weight} (required) and
     * skipping targets equal to {@code ignoreIndex}, and {@code totalWeightOut}, the sum of the weights used
     * (written for mean and sum). A target outside [0, C) fails the stream (361001 at the next synchronize).
     */
    public static int nllLossGetWorkspaceSize(AclTensor self, AclTensor target, AclTensor weight, long reduction,
            long ignoreIndex, AclTensor out, AclTensor totalWeightOut, long[] workspaceSize, AclOpExecutor executor) {
        try {
            beginPlan(NLL_LOSS, workspaceSize, executor);
            return endPlan(workspaceSize, executor, NllLoss.plan(desc(self), desc(target), desc(weight),
                    reduction, ignoreIndex, desc(out), desc(totalWeightOut)));
        } catch (Throwable t) {
            return Guard.status(NLL_LOSS + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnNLLLoss}: enqueues the plan of {@link #nllLossGetWorkspaceSize}. */
    public static int nllLoss(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream) {
        return launch(NLL_LOSS, workspace, workspaceSize, executor, stream);
    }

    /**
     * {@code aclnnGroupNormGetWorkspaceSize}: plans {@code out}, {@code self} ([N, C, ...], HxW the product of
     * the trailing dimensions) normalized over {@code group} groups of channels with {@code eps} added to the
     * variance, times {@code gamma} plus {@code beta} (null: ones, zeros); and {@code meanOut} and {@code rstdOut}
     * ([N, group]), which {@link #groupNormBackwardGetWorkspaceSize} takes.
     */
    public static int groupNormGetWorkspaceSize(AclTensor self, AclTensor gamma, AclTensor beta, long N, long C,
            long HxW, long group, double eps, AclTensor out, AclTensor meanOut, AclTensor rstdOut, long[] workspaceSize,
            AclOpExecutor executor) {
        try {
            beginPlan(GROUP_NORM, workspaceSize, executor);
            return endPlan(workspaceSize, executor, GroupNorm.plan(desc(self), desc(gamma), desc(beta), N, C,
                    HxW, group, eps, desc(out), desc(meanOut), desc(rstdOut)));
        } catch (Throwable t) {
            return Guard.status(GROUP_NORM + "GetWorkspaceSize", t, Status.INNER);
        }
    }

    /** {@code aclnnGroupNorm}: enqueues the plan of {@link #groupNormGetWorkspaceSize}. */
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

    /**
     * Phase 1's first checks, before the operator's own: the out-parameters are not null and have
     * room; the executor holder is emptied (and stays so if the operator's checks fail). Each
     * operator catches for itself (see {@link Guard#status}) rather than hand a lambda to a wrapper:
     * a JVM spins a class and method-handle forms for each such lambda at its first call, about
     * 4 ms apiece before a program's first result.
     */
    private static void beginPlan(String operator, long[] workspaceSize, AclOpExecutor executor) {
        // the function's name is spelled out only for a failure: every call would otherwise build it
        if (workspaceSize == null) {
            throw Status.nullptr(operator + "GetWorkspaceSize: workspaceSize must not be null");
        }
        if (workspaceSize.length < 1) { // the C pointer to nothing: no room for the size
            throw Status.nullptr(operator
                    + "GetWorkspaceSize: workspaceSize is a long[0]; it needs room for the size (long[1])");
        }
        if (executor == null) {
            throw Status.nullptr(operator + "GetWorkspaceSize: executor must not be null");
        }
        executor.executor = null;
    }

    /** Phase 1's end: the plan's workspace size and executor handed out. */
    private static int endPlan(long[] workspaceSize, AclOpExecutor executor, Plan plan) {
        workspaceSize[0] = plan.workspaceSize();
        executor.executor = new Executor(plan);
        return Status.SUCCESS;
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
