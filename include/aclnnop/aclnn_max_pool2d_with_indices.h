/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max_pool2d_with_indices.h: 2-D max pooling that also returns where each maximum came from,
 * as indices (aclnnMaxPool2dWithIndices) or as the NPU's INT8 mask buffer (aclnnMaxPool2dWithMask).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithIndices(void *workspace, uint64_t workspaceSize,
                                                          aclOpExecutor *executor, const aclrtStream stream);

/* self and out: FLOAT, FLOAT16, BFLOAT16 (A2); indices: INT8 [N, C, kH * kW, (ceil(Ho * Wo / 16) + 1) * 32]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(
    const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding,
    const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxPool2dWithMask(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_POOL2D_WITH_INDICES_H_ */
