/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_argmin.h: aclnnArgMin, the index of the smallest element along one dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ARGMIN_H_
#define CANOPY_ACLNNOP_ACLNN_ARGMIN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (INT32 or INT64) = the index of the first smallest element of self along dim (NaN counting as
 * smallest); keepdim keeps the dimension with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnArgMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ARGMIN_H_ */
