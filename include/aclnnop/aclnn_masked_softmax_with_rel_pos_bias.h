/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h: Swin Transformer's window-attention
 * softmax: softmax along the last dim of scaleValue * x + attenMaskOptional + relativePosBias.
 * Atlas A2: every tensor FLOAT, FLOAT16 or BFLOAT16, all of x's dtype.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MASKED_SOFTMAX_WITH_REL_POS_BIAS_H_
#define CANOPY_ACLNNOP_ACLNN_MASKED_SOFTMAX_WITH_REL_POS_BIAS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaskedSoftmaxWithRelPosBiasGetWorkspaceSize(
    const aclTensor *x, const aclTensor *attenMaskOptional, const aclTensor *relativePosBias, double scaleValue,
    int64_t innerPrecisionMode, const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaskedSoftmaxWithRelPosBias(void *workspace, uint64_t workspaceSize,
                                                                 aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MASKED_SOFTMAX_WITH_REL_POS_BIAS_H_ */
