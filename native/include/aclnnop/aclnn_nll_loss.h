/*
 * aclnn_nll_loss.h - the negative log likelihood loss of log-probabilities self [N, C] (or [C])
 * against class targets (INT64, INT32 or UINT8), weighted per class, with reduction none (0),
 * mean (1) or sum (2); totalWeightOut receives the sum of the targets' weights (mean and sum).
 * Part of aclnn4j's drop-in for CANN. Phase 1 checks the arguments and plans the work into an
 * executor; phase 2 queues it on the stream (NULL: the default stream).
 */
#ifndef ACLNN4J_ACLNNOP_ACLNN_NLL_LOSS_H_
#define ACLNN4J_ACLNNOP_ACLNN_NLL_LOSS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                             const aclTensor *weight, int64_t reduction,
                                                             int64_t ignoreIndex, aclTensor *out,
                                                             aclTensor *totalWeightOut, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACLNNOP_ACLNN_NLL_LOSS_H_ */
