/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_max_dim.h: aclnnMaxDim, the largest element along one dimension and its index.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MAX_DIM_H_
#define CANOPY_ACLNNOP_ACLNN_MAX_DIM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the largest element of self along dim (NaN propagates; out has self's dtype) and indices
 * (INT32 or INT64) = the index of its first occurrence; keepdim keeps the dimension with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim,
                                                            aclTensor *out, aclTensor *indices, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMaxDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MAX_DIM_H_ */
