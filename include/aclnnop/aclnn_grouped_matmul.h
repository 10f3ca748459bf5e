/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_grouped_matmul.h: aclnnGroupedMatmul, grouped products y_i = x_i @ weight_i + bias_i.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_H_
#define CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* As aclnnGroupedMatmulV3 without groupType: x and y lists of several (or
 * x, weight and y single) give one product per group, else x splits along M
 * by groupListOptional, a host int array of cumulative counts. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmulGetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional,
    const aclTensorList *scaleOptional, const aclTensorList *offsetOptional,
    const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional,
    const aclIntArray *groupListOptional, int64_t splitItem, const aclTensorList *y, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupedMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_GROUPED_MATMUL_H_ */
