/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_token_permute_with_routing_map.h: aclnnMoeTokenPermuteWithRoutingMap
 * (MoE: tokens permuted into expert order by a [tokens, experts] routing map).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_ROUTING_MAP_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_ROUTING_MAP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeTokenPermuteWithRoutingMapGetWorkspaceSize(
    const aclTensor *tokens, const aclTensor *routingMap, const aclTensor *probsOptional, int64_t numOutTokens,
    bool dropAndPad, aclTensor *permuteTokensOut, aclTensor *permuteProbsOutOptional, aclTensor *sortedIndicesOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeTokenPermuteWithRoutingMap(void *workspace, uint64_t workspaceSize,
                                                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_TOKEN_PERMUTE_WITH_ROUTING_MAP_H_ */
