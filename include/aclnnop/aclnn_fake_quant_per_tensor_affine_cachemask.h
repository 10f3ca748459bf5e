/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_fake_quant_per_tensor_affine_cachemask.h: torch.fake_quantize_per_tensor_affine with its mask:
 * self quantised by one scale and zero point, clamped to [quantMin, quantMax] and dequantised; mask marks the
 * values inside the range.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_FAKE_QUANT_PER_TENSOR_AFFINE_CACHEMASK_H_
#define CANOPY_ACLNNOP_ACLNN_FAKE_QUANT_PER_TENSOR_AFFINE_CACHEMASK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFakeQuantPerTensorAffineCachemaskGetWorkspaceSize(
    const aclTensor *self, const aclTensor *scale, const aclTensor *zeroPoint, float fakeQuantEnabled, int64_t quantMin,
    int64_t quantMax, aclTensor *out, aclTensor *mask, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFakeQuantPerTensorAffineCachemask(void *workspace, uint64_t workspaceSize,
                                                                       aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_FAKE_QUANT_PER_TENSOR_AFFINE_CACHEMASK_H_ */
