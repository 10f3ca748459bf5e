/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_moe_gating_top_k_softmax_v2.h: aclnnMoeGatingTopKSoftmaxV2
 * (MoE routing: softmax and top k in either order, optionally the softmax).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_V2_H_
#define CANOPY_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeGatingTopKSoftmaxV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *finishedOptional, int64_t k, int64_t renorm, bool outputSoftmaxResultFlag,
    const aclTensor *yOut, const aclTensor *expertIdxOut, const aclTensor *softmaxResultOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMoeGatingTopKSoftmaxV2(void *workspace, uint64_t workspaceSize,
                                                            aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MOE_GATING_TOP_K_SOFTMAX_V2_H_ */
