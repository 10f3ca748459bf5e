/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_group_norm_silu.h: aclnnGroupNormSilu and aclnnGroupNormSiluV2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SILU_H_
#define CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SILU_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSiluGetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
                                                                   const aclTensor *beta, int64_t group, double eps,
                                                                   aclTensor *out, aclTensor *meanOut,
                                                                   aclTensor *rstdOut, uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSilu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSiluV2GetWorkspaceSize(const aclTensor *self, const aclTensor *gamma,
                                                                     const aclTensor *beta, int64_t group, double eps,
                                                                     bool activateSilu, aclTensor *out,
                                                                     aclTensor *meanOut, aclTensor *rstdOut,
                                                                     uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSiluV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SILU_H_ */
