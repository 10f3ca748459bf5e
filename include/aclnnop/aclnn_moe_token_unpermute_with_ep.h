/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_token_unpermute_with_ep.h: aclnnMoeTokenUnpermuteWithEp
 * (MoE: MoeTokenUnpermute over the token copies of an expert-parallel range of
 * sorted positions, the others adding nothing).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeTokenUnpermuteWithEpGetWorkspaceSize(
    const aclTensor *permutedTokens, const aclTensor *sortedIndices, const aclTensor *probsOptional, int64_t numTopk,
    const aclIntArray *rangeOptional, bool paddedMode, const aclIntArray *restoreShapeOptional, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeTokenUnpermuteWithEp(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_EP_H_ */
