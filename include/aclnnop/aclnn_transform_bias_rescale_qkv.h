/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_transform_bias_rescale_qkv.h: a packed [B, T, 3 * numHeads * dimPerHead] qkv projection
 * plus its bias, split into per-head q, k and v [B, numHeads, T, dimPerHead], q divided by
 * sqrt(dimPerHead). Atlas A2: FLOAT, FLOAT16, BFLOAT16, every tensor of qkv's dtype.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRANSFORM_BIAS_RESCALE_QKV_H_
#define CANOPY_ACLNNOP_ACLNN_TRANSFORM_BIAS_RESCALE_QKV_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnTransformBiasRescaleQkvGetWorkspaceSize(
    const aclTensor *qkv, const aclTensor *qkvBias, int64_t numHeads, const aclTensor *qOut, const aclTensor *kOut,
    const aclTensor *vOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTransformBiasRescaleQkv(void *workspace, uint64_t workspaceSize,
                                                             aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRANSFORM_BIAS_RESCALE_QKV_H_ */
