/*
 * aclnn_binary_cross_entropy_with_logits_backward.h - the gradient of BCE with logits with respect
 * to self: ((posWeight*target + 1 - target)*sigmoid(self) - posWeight*target)*gradOutput*weight,
 * divided by self's element count for reduction mean.
 * Part of aclnn4j's drop-in for CANN. Phase 1 checks the arguments and plans the work into an
 * executor; phase 2 queues it on the stream (NULL: the default stream).
 */
#ifndef ACLNN4J_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H_
#define ACLNN4J_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *self, const aclTensor *target, const aclTensor *weightOptional,
    const aclTensor *posWeightOptional, int64_t reduction, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackward(void *workspace, uint64_t workspaceSize,
                                                                          aclOpExecutor *executor,
                                                                          const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H_ */
