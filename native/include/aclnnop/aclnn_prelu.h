/*
 * aclnn_prelu.h - PReLU, out = self > 0 ? self : weight * self, one weight or one per channel.
 * Part of aclnn4j's drop-in for CANN. Phase 1 checks the arguments and plans the work into an
 * executor; phase 2 queues it on the stream (NULL: the default stream).
 */
#ifndef ACLNN4J_ACLNNOP_ACLNN_PRELU_H_
#define ACLNN4J_ACLNNOP_ACLNN_PRELU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor *self, const aclTensor *weight,
                                                           aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPrelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACLNNOP_ACLNN_PRELU_H_ */
