/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_group_norm.h: aclnnGroupNorm, normalisation over groups of channels.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUP_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_GROUP_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* self is [N, C, ...] (HxW elements per channel); each of the group groups of C / group channels is
 * normalised; out = normalised * gamma[c] + beta[c]; meanOut and rstdOut are [N, group]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
                                                               const aclTensor *beta, int64_t N, int64_t C, int64_t HxW,
                                                               int64_t group, double eps, aclTensor *out,
                                                               aclTensor *meanOut, aclTensor *rstdOut,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUP_NORM_H_ */
