/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul_v2.h: aclnnGroupedMatmulV2, grouped products y_i = x_i @ weight_i + bias_i.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_V2_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As aclnnGroupedMatmulV3, with groupListOptional a host int array of
 * cumulative counts along the split dimension. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulV2GetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional,
    const aclTensorList *scaleOptional, const aclTensorList *offsetOptional,
    const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional,
    const aclIntArray *groupListOptional, int64_t splitItem, int64_t groupType, const aclTensorList *y,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_V2_H_ */
