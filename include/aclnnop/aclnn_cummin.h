/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_cummin.h: aclnnCummin, the running minimum along one dimension and its index.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CUMMIN_H_
#define CANOPY_ACLNNOP_ACLNN_CUMMIN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* valuesOut = the running minimum of self along dim (self's dtype), indicesOut (INT32 or INT64) = the
 * index where it was reached (the latest among equals; NaN propagates). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumminGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *valuesOut,
                                                            aclTensor *indicesOut, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCummin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CUMMIN_H_ */
