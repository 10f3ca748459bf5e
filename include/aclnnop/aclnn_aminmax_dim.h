/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_aminmax_dim.h: aclnnAminmaxDim, the smallest and the largest element along one dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AMINMAX_DIM_H_
#define CANOPY_ACLNNOP_ACLNN_AMINMAX_DIM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* minOut / maxOut (self's dtype) = the smallest / largest element of self along dim, keepDim keeping it with
 * extent 1; NaN propagates. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAminmaxDimGetWorkspaceSize(const aclTensor *self, const int64_t dim, bool keepDim,
                                                                aclTensor *minOut, aclTensor *maxOut,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAminmaxDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AMINMAX_DIM_H_ */
