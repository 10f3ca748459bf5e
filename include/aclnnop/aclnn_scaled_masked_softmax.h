/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_scaled_masked_softmax.h: softmax along the last dim of scale * x with the
 * positions where the bool mask is true set to -10000 first (Megatron's fused
 * scaled masked softmax); x is [B, N, S1, S2], mask broadcasts over B and N.
 * Atlas A2: x and y FLOAT, FLOAT16, BFLOAT16; mask BOOL.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_H_
#define CANOPY_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnScaledMaskedSoftmaxGetWorkspaceSize(const aclTensor *x, const aclTensor *mask,
                                                                         double scale, bool fixedTriuMask, aclTensor *y,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnScaledMaskedSoftmax(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SCALED_MASKED_SOFTMAX_H_ */
