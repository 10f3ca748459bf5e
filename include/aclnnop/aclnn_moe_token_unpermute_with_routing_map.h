/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_token_unpermute_with_routing_map.h: aclnnMoeTokenUnpermuteWithRoutingMap
 * (MoE: MoeTokenPermuteWithRoutingMap undone, the copies weighted and summed per token).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_ROUTING_MAP_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_ROUTING_MAP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeTokenUnpermuteWithRoutingMapGetWorkspaceSize(
    const aclTensor *permutedTokens, const aclTensor *sortedIndices, const aclTensor *routingMapOptional,
    const aclTensor *probsOptional, bool paddedMode, const aclIntArray *restoreShapeOptional,
    aclTensor *unpermutedTokens, aclTensor *outIndex, aclTensor *permuteTokenId, aclTensor *permuteProbs,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeTokenUnpermuteWithRoutingMap(void *workspace, uint64_t workspaceSize,
                                                                     aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_UNPERMUTE_WITH_ROUTING_MAP_H_ */
