/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_recurrent_gated_delta_rule.h: aclnnRecurrentGatedDeltaRule
 * (the gated delta rule recurrence of linear attention, variable-length batches).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_
#define CANOPY_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRecurrentGatedDeltaRuleGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *beta, aclTensor *stateRef,
    const aclTensor *actualSeqLengths, const aclTensor *ssmStateIndices, const aclTensor *g, const aclTensor *gk,
    const aclTensor *numAcceptedTokens, float scaleValue, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRecurrentGatedDeltaRule(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RECURRENT_GATED_DELTA_RULE_H_ */
