/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_gating_top_k_softmax.h: aclnnMoeGatingTopKSoftmax
 * (MoE routing: softmax over the experts, top k).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(
    const aclTensor *x, const aclTensor *finishedOptional, int64_t k, const aclTensor *yOut,
    const aclTensor *expertIdxOut, const aclTensor *rowIdxOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeGatingTopKSoftmax(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_H_ */
