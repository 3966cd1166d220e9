/*
 * aclnn_group_norm.h - group normalization of self [N, C, ...] in `group` groups of C/group
 * channels: out = (self - mean) * rstd * gamma + beta, with meanOut and rstdOut [N, group],
 * rstd = 1/sqrt(biased variance + eps); gamma and beta may be NULL (ones, zeros).
 * Part of aclnn4j's drop-in for CANN. Phase 1 checks the arguments and plans the work into an
 * executor; phase 2 queues it on the stream (NULL: the default stream).
 */
#ifndef ACLNN4J_ACLNNOP_ACLNN_GROUP_NORM_H_
#define ACLNN4J_ACLNNOP_ACLNN_GROUP_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
                                                               const aclTensor *beta, int64_t N, int64_t C,
                                                               int64_t HxW, int64_t group, double eps, aclTensor *out,
                                                               aclTensor *meanOut, aclTensor *rstdOut,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN4J_ACLNNOP_ACLNN_GROUP_NORM_H_ */
