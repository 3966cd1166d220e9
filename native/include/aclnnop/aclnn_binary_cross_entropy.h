/*
 * aclnn_binary_cross_entropy.h - the binary cross entropy of probabilities self against target,
 * optionally weighted, with reduction none (0), mean (1) or sum (2).
 * Part of aclnn4j's drop-in for CANN. Phase 1 checks the arguments and plans the work into an
 * executor; phase 2 queues it on the stream (NULL: the default stream).
 */
#ifndef ACLNN4J_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_
#define ACLNN4J_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(
    const aclTensor *self, const aclTensor *target, const aclTensor *weight, int64_t reduction, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropy(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H_ */
