/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_apply_top_k_top_p.h: each row of logits with the values outside its top k and outside its top-p
 * nucleus set to -inf (vLLM's sampler filter).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_APPLY_TOP_K_TOP_P_H_
#define CANOPY_ACLNNOP_ACLNN_APPLY_TOP_K_TOP_P_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyTopKTopPGetWorkspaceSize(const aclTensor *logits, const aclTensor *p,
                                                                   const aclTensor *k, aclTensor *out,
                                                                   uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyTopKTopP(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_APPLY_TOP_K_TOP_P_H_ */
