package io.github.aclnn4j.nativeabi;

import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_ERR_PARAM_INVALID;
import static io.github.aclnn4j.acl.AclnnStatus.ACLNN_SUCCESS;

import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.nativeabi.Handles.ExecutorHandle;

/** The two phases of each operator (libopapi). */
final class OperatorEntries {
    private OperatorEntries() {}

    static int aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(long gradOutput, long self, long target,
            long weightOptional, long reduction, long out, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnBinaryCrossEntropyBackwardGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(p.tensor(gradOutput, "gradOutput"),
                p.tensor(self, "self"), p.tensor(target, "target"), p.tensor(weightOptional, "weightOptional"),
                reduction, p.tensor(out, "out"), p.workspaceSize, p.executor));
    }

    static int aclnnBinaryCrossEntropyBackward(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnBinaryCrossEntropyBackward", workspace, workspaceSize, executor, stream,
                Aclnn::binaryCrossEntropyBackward);
    }

    static int aclnnPreluBackwardGetWorkspaceSize(long gradOutput, long self, long weight, long gradInput,
            long gradWeight, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnPreluBackwardGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.preluBackwardGetWorkspaceSize(p.tensor(gradOutput, "gradOutput"), p.tensor(self, "self"),
                p.tensor(weight, "weight"), p.tensor(gradInput, "gradInput"), p.tensor(gradWeight, "gradWeight"),
                p.workspaceSize, p.executor));
    }

    static int aclnnPreluBackward(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnPreluBackward", workspace, workspaceSize, executor, stream, Aclnn::preluBackward);
    }

    static int aclnnBinaryCrossEntropyGetWorkspaceSize(long self, long target, long weight, long reduction, long out,
            long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnBinaryCrossEntropyGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.binaryCrossEntropyGetWorkspaceSize(p.tensor(self, "self"), p.tensor(target, "target"),
                p.tensor(weight, "weight"), reduction, p.tensor(out, "out"), p.workspaceSize, p.executor));
    }

    static int aclnnBinaryCrossEntropy(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnBinaryCrossEntropy", workspace, workspaceSize, executor, stream,
                Aclnn::binaryCrossEntropy);
    }

    static int aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(long gradOutput, long self, long target,
            long weightOptional, long posWeightOptional, long reduction, long out, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(p.tensor(gradOutput, "gradOutput"),
                p.tensor(self, "self"), p.tensor(target, "target"), p.tensor(weightOptional, "weightOptional"),
                p.tensor(posWeightOptional, "posWeightOptional"), reduction, p.tensor(out, "out"), p.workspaceSize,
                p.executor));
    }

    static int aclnnBinaryCrossEntropyWithLogitsBackward(long workspace, long workspaceSize, long executor,
            long stream) {
        return launch("aclnnBinaryCrossEntropyWithLogitsBackward", workspace, workspaceSize, executor, stream,
                Aclnn::binaryCrossEntropyWithLogitsBackward);
    }

    static int aclnnGroupNormGetWorkspaceSize(long self, long gamma, long beta, long n, long c, long hxw, long group,
            double eps, long out, long meanOut, long rstdOut, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnGroupNormGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.groupNormGetWorkspaceSize(p.tensor(self, "self"), p.tensor(gamma, "gamma"),
                p.tensor(beta, "beta"), n, c, hxw, group, eps, p.tensor(out, "out"), p.tensor(meanOut, "meanOut"),
                p.tensor(rstdOut, "rstdOut"), p.workspaceSize, p.executor));
    }

    static int aclnnGroupNorm(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnGroupNorm", workspace, workspaceSize, executor, stream, Aclnn::groupNorm);
    }

    static int aclnnNLLLossGetWorkspaceSize(long self, long target, long weight, long reduction, long ignoreIndex,
            long out, long totalWeightOut, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnNLLLossGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.nllLossGetWorkspaceSize(p.tensor(self, "self"), p.tensor(target, "target"),
                p.tensor(weight, "weight"), reduction, ignoreIndex, p.tensor(out, "out"),
                p.tensor(totalWeightOut, "totalWeightOut"), p.workspaceSize, p.executor));
    }

    static int aclnnNLLLoss(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnNLLLoss", workspace, workspaceSize, executor, stream, Aclnn::nllLoss);
    }

    static int aclnnPreluGetWorkspaceSize(long self, long weight, long out, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnPreluGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.preluGetWorkspaceSize(p.tensor(self, "self"), p.tensor(weight, "weight"),
                p.tensor(out, "out"), p.workspaceSize, p.executor));
    }

    static int aclnnPrelu(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnPrelu", workspace, workspaceSize, executor, stream, Aclnn::prelu);
    }

    static int aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(long self, long target, long weightOptional,
            long posWeightOptional, long reduction, long out, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(p.tensor(self, "self"),
                p.tensor(target, "target"), p.tensor(weightOptional, "weightOptional"),
                p.tensor(posWeightOptional, "posWeightOptional"), reduction, p.tensor(out, "out"), p.workspaceSize,
                p.executor));
    }

    static int aclnnBinaryCrossEntropyWithLogits(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnBinaryCrossEntropyWithLogits", workspace, workspaceSize, executor, stream,
                Aclnn::binaryCrossEntropyWithLogits);
    }

    static int aclnnGroupNormBackwardGetWorkspaceSize(long gradOut, long input, long mean, long rstd, long gamma,
            long n, long c, long hxw, long group, long outputMask, long gradInput, long gradGammaOut, long gradBetaOut,
            long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnGroupNormBackwardGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.groupNormBackwardGetWorkspaceSize(p.tensor(gradOut, "gradOut"), p.tensor(input, "input"),
                p.tensor(mean, "mean"), p.tensor(rstd, "rstd"), p.tensor(gamma, "gamma"), n, c, hxw, group,
                p.boolArray(outputMask, "outputMask"), p.tensor(gradInput, "gradInput"),
                p.tensor(gradGammaOut, "gradGammaOut"), p.tensor(gradBetaOut, "gradBetaOut"), p.workspaceSize,
                p.executor));
    }

    static int aclnnGroupNormBackward(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnGroupNormBackward", workspace, workspaceSize, executor, stream, Aclnn::groupNormBackward);
    }

    static int aclnnNLLLossBackwardGetWorkspaceSize(long gradOutput, long self, long target, long weight,
            long reduction, long ignoreIndex, long totalWeight, long out, long workspaceSize, long executor) {
        Phase1 p = new Phase1("aclnnNLLLossBackwardGetWorkspaceSize", workspaceSize, executor);
        return p.finish(Aclnn.nllLossBackwardGetWorkspaceSize(p.tensor(gradOutput, "gradOutput"), p.tensor(self, "self"),
                p.tensor(target, "target"), p.tensor(weight, "weight"), reduction, ignoreIndex,
                p.tensor(totalWeight, "totalWeight"), p.tensor(out, "out"), p.workspaceSize, p.executor));
    }

    static int aclnnNLLLossBackward(long workspace, long workspaceSize, long executor, long stream) {
        return launch("aclnnNLLLossBackward", workspace, workspaceSize, executor, stream, Aclnn::nllLossBackward);
    }

    /** One phase-1 call: its out-parameters as layer-1 holders, and its handle arguments looked up. */
    private static final class Phase1 {
        private final String function;
        private final long workspaceSizeAddress;
        private final long executorAddress;
        final long[] workspaceSize;
        final AclOpExecutor executor;

        Phase1(String function, long workspaceSizeAddress, long executorAddress) {
            this.function = function;
            this.workspaceSizeAddress = NativeMemory.checked(workspaceSizeAddress, 8, ACLNN_ERR_PARAM_INVALID, function,
                    "workspaceSize");
            this.executorAddress = NativeMemory.checked(executorAddress, 8, ACLNN_ERR_PARAM_INVALID, function,
                    "executor");
            this.workspaceSize = workspaceSizeAddress == 0 ? null : new long[1];
            this.executor = executorAddress == 0 ? null : new AclOpExecutor();
        }

        /** A null out-parameter is reported before anything else, so then the handles are not looked at. */
        private boolean outParametersGiven() {
            return workspaceSize != null && executor != null;
        }

        AclTensor tensor(long handle, String name) {
            return outParametersGiven() ? Handles.find(handle, AclTensor.class, ACLNN_ERR_PARAM_INVALID, function, name)
                    : null;
        }

        AclBoolArray boolArray(long handle, String name) {
            return outParametersGiven()
                    ? Handles.find(handle, AclBoolArray.class, ACLNN_ERR_PARAM_INVALID, function, name)
                    : null;
        }

        int finish(int status) {
            if (status == ACLNN_SUCCESS) {
                NativeMemory.putLong(workspaceSizeAddress, workspaceSize[0]);
                NativeMemory.putLong(executorAddress, Handles.register(new ExecutorHandle(executor)));
            }
            return status;
        }
    }

    @FunctionalInterface
    private interface Launcher {
        int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    /** Phase 2; a single-use executor's handle is released once it has run. */
    private static int launch(String function, long workspace, long workspaceSize, long executor, long stream,
            Launcher launcher) {
        ExecutorHandle e = Handles.find(executor, ExecutorHandle.class, ACLNN_ERR_PARAM_INVALID, function, "executor");
        Pointer ws = null;
        if (workspace != 0) {
            ws = Pointer.ofDeviceAddress(workspace);
            if (ws == null) {
                throw new Rejected(ACLNN_ERR_PARAM_INVALID, function + ": workspace (0x" + Long.toHexString(workspace)
                        + ") is not inside device memory from aclrtMalloc (never allocated, or already freed)");
            }
        }
        AclrtStream s = Handles.find(stream, AclrtStream.class, ACLNN_ERR_PARAM_INVALID, function, "stream");
        int status = launcher.launch(ws, workspaceSize, e == null ? null : e.holder, s);
        if (status == ACLNN_SUCCESS && !e.repeatable) {
            Handles.release(executor, e);
        }
        return status;
    }
}
