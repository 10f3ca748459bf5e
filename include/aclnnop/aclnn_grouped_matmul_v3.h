/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_v3.h: grouped products y_i = x_i @ weight_i + bias_i,
 * the groups given as tensor lists or by a list of cumulative counts along M or K.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* groupType -1 (no split: x, weight, y lists of one length), 0 (split along M)
 * or 2 (split along K); splitItem 0/1: y is a list, 2/3: y is one tensor.
 * groupListOptional: INT64 [groups] cumulative counts along the split
 * dimension. x, weight and y FLOAT16, BFLOAT16 or FLOAT; bias FLOAT16 (x
 * FLOAT16) or FLOAT. The quantisation lists (scale, offset, antiquantScale,
 * antiquantOffset) are not implemented on Canopy. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulV3GetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional,
    const aclTensorList *scaleOptional, const aclTensorList *offsetOptional,
    const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional,
    const aclTensor *groupListOptional, int64_t splitItem, int64_t groupType, const aclTensorList *y,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_V3_H_ */
