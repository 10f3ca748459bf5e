/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_group_norm_swish.h: aclnnGroupNormSwish.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SWISH_H_
#define CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SWISH_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSwishGetWorkspaceSize(
    const aclTensor *x, const aclTensor *gamma, const aclTensor *beta, int64_t numGroups, char *dataFormatOptional,
    double eps, bool activateSwish, double swishScale, const aclTensor *yOut, const aclTensor *meanOut,
    const aclTensor *rstdOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormSwish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUP_NORM_SWISH_H_ */
