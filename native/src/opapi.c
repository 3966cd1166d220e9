/* libopapi: both phases of each operator, forwarded to aclnn4j. */
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "bridge.h"

#define FORWARD_OP(name, ...) ACLNN4J_FORWARD(name, ACLNN_ERR_INNER, __VA_ARGS__)
#define PHASE2_ARGS ACLNN4J_ADDR(workspace), (jlong)workspaceSize, ACLNN4J_ADDR(executor), ACLNN4J_ADDR(stream)

aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                            const aclTensor *target, const aclTensor *weightOptional,
                                                            int64_t reduction, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnBinaryCrossEntropyBackwardGetWorkspaceSize, ACLNN4J_ADDR(gradOutput), ACLNN4J_ADDR(self),
               ACLNN4J_ADDR(target), ACLNN4J_ADDR(weightOptional), (jlong)reduction, ACLNN4J_ADDR(out),
               ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnBinaryCrossEntropyBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream) {
    FORWARD_OP(aclnnBinaryCrossEntropyBackward, PHASE2_ARGS);
}

aclnnStatus aclnnPreluBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                               const aclTensor *weight, aclTensor *gradInput, aclTensor *gradWeight,
                                               uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnPreluBackwardGetWorkspaceSize, ACLNN4J_ADDR(gradOutput), ACLNN4J_ADDR(self), ACLNN4J_ADDR(weight),
               ACLNN4J_ADDR(gradInput), ACLNN4J_ADDR(gradWeight), ACLNN4J_ADDR(workspaceSize),
               ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnPreluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    FORWARD_OP(aclnnPreluBackward, PHASE2_ARGS);
}

aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                    const aclTensor *weight, int64_t reduction, aclTensor *out,
                                                    uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnBinaryCrossEntropyGetWorkspaceSize, ACLNN4J_ADDR(self), ACLNN4J_ADDR(target),
               ACLNN4J_ADDR(weight), (jlong)reduction, ACLNN4J_ADDR(out), ACLNN4J_ADDR(workspaceSize),
               ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnBinaryCrossEntropy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                    aclrtStream stream) {
    FORWARD_OP(aclnnBinaryCrossEntropy, PHASE2_ARGS);
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *self, const aclTensor *target, const aclTensor *weightOptional,
    const aclTensor *posWeightOptional, int64_t reduction, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    FORWARD_OP(aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize, ACLNN4J_ADDR(gradOutput), ACLNN4J_ADDR(self),
               ACLNN4J_ADDR(target), ACLNN4J_ADDR(weightOptional), ACLNN4J_ADDR(posWeightOptional), (jlong)reduction,
               ACLNN4J_ADDR(out), ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      const aclrtStream stream) {
    FORWARD_OP(aclnnBinaryCrossEntropyWithLogitsBackward, PHASE2_ARGS);
}

aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma, const aclTensor *beta,
                                           int64_t N, int64_t C, int64_t HxW, int64_t group, double eps,
                                           aclTensor *out, aclTensor *meanOut, aclTensor *rstdOut,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnGroupNormGetWorkspaceSize, ACLNN4J_ADDR(self), ACLNN4J_ADDR(gamma), ACLNN4J_ADDR(beta), (jlong)N,
               (jlong)C, (jlong)HxW, (jlong)group, (jdouble)eps, ACLNN4J_ADDR(out), ACLNN4J_ADDR(meanOut),
               ACLNN4J_ADDR(rstdOut), ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    FORWARD_OP(aclnnGroupNorm, PHASE2_ARGS);
}

aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, const aclTensor *weight,
                                         int64_t reduction, int64_t ignoreIndex, aclTensor *out,
                                         aclTensor *totalWeightOut, uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnNLLLossGetWorkspaceSize, ACLNN4J_ADDR(self), ACLNN4J_ADDR(target), ACLNN4J_ADDR(weight),
               (jlong)reduction, (jlong)ignoreIndex, ACLNN4J_ADDR(out), ACLNN4J_ADDR(totalWeightOut),
               ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnNLLLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    FORWARD_OP(aclnnNLLLoss, PHASE2_ARGS);
}

aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor *self, const aclTensor *weight, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnPreluGetWorkspaceSize, ACLNN4J_ADDR(self), ACLNN4J_ADDR(weight), ACLNN4J_ADDR(out),
               ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnPrelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream) {
    FORWARD_OP(aclnnPrelu, PHASE2_ARGS);
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                              const aclTensor *weightOptional,
                                                              const aclTensor *posWeightOptional, int64_t reduction,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor) {
    FORWARD_OP(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize, ACLNN4J_ADDR(self), ACLNN4J_ADDR(target),
               ACLNN4J_ADDR(weightOptional), ACLNN4J_ADDR(posWeightOptional), (jlong)reduction, ACLNN4J_ADDR(out),
               ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnBinaryCrossEntropyWithLogits(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream) {
    FORWARD_OP(aclnnBinaryCrossEntropyWithLogits, PHASE2_ARGS);
}

aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *input,
                                                   const aclTensor *mean, const aclTensor *rstd, const aclTensor *gamma,
                                                   int64_t N, int64_t C, int64_t HxW, int64_t group,
                                                   const aclBoolArray *outputMask, aclTensor *gradInput,
                                                   aclTensor *gradGammaOut, aclTensor *gradBetaOut,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnGroupNormBackwardGetWorkspaceSize, ACLNN4J_ADDR(gradOut), ACLNN4J_ADDR(input), ACLNN4J_ADDR(mean),
               ACLNN4J_ADDR(rstd), ACLNN4J_ADDR(gamma), (jlong)N, (jlong)C, (jlong)HxW, (jlong)group,
               ACLNN4J_ADDR(outputMask), ACLNN4J_ADDR(gradInput), ACLNN4J_ADDR(gradGammaOut),
               ACLNN4J_ADDR(gradBetaOut), ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnGroupNormBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream) {
    FORWARD_OP(aclnnGroupNormBackward, PHASE2_ARGS);
}

aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                 const aclTensor *target, const aclTensor *weight, int64_t reduction,
                                                 int64_t ignoreIndex, const aclTensor *totalWeight, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor) {
    FORWARD_OP(aclnnNLLLossBackwardGetWorkspaceSize, ACLNN4J_ADDR(gradOutput), ACLNN4J_ADDR(self), ACLNN4J_ADDR(target),
               ACLNN4J_ADDR(weight), (jlong)reduction, (jlong)ignoreIndex, ACLNN4J_ADDR(totalWeight),
               ACLNN4J_ADDR(out), ACLNN4J_ADDR(workspaceSize), ACLNN4J_ADDR(executor));
}

aclnnStatus aclnnNLLLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 aclrtStream stream) {
    FORWARD_OP(aclnnNLLLossBackward, PHASE2_ARGS);
}
