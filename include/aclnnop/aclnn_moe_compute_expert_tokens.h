/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_compute_expert_tokens.h: aclnnMoeComputeExpertTokens
 * (MoE: the end row of each expert in the sorted expert list).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_COMPUTE_EXPERT_TOKENS_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_COMPUTE_EXPERT_TOKENS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeComputeExpertTokensGetWorkspaceSize(const aclTensor *sortedExperts,
                                                                            int64_t numExperts, const aclTensor *out,
                                                                            uint64_t *workspaceSize,
                                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeComputeExpertTokens(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_COMPUTE_EXPERT_TOKENS_H_ */
