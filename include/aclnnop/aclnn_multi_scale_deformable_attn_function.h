/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_multi_scale_deformable_attn_function.h: aclnnMultiScaleDeformableAttnFunction
 * (Deformable DETR's multi-scale deformable attention: each query's heads read every level's
 * value map bilinearly at their sampling points, weighted by attnWeight). Atlas A2: value,
 * location, attnWeight, output FLOAT, FLOAT16, BFLOAT16 (one dtype); spatialShape,
 * levelStartIndex INT32, INT64.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MULTI_SCALE_DEFORMABLE_ATTN_FUNCTION_H_
#define CANOPY_ACLNNOP_ACLNN_MULTI_SCALE_DEFORMABLE_ATTN_FUNCTION_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMultiScaleDeformableAttnFunctionGetWorkspaceSize(
    const aclTensor *value, const aclTensor *spatialShape, const aclTensor *levelStartIndex, const aclTensor *location,
    const aclTensor *attnWeight, aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMultiScaleDeformableAttnFunction(void *workspace, uint64_t workspaceSize,
                                                                      aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MULTI_SCALE_DEFORMABLE_ATTN_FUNCTION_H_ */
