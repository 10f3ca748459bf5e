/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_topk.h: aclnnTopk, the k largest or smallest elements along one dimension.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TOPK_H_
#define CANOPY_ACLNNOP_ACLNN_TOPK_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* valuesOut = the k largest (largest) or smallest elements of self along dim, in that order, and
 * indicesOut (INT64) = their indices; k in [0, extent of dim]; sorted must be true. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim, bool largest,
                                                          bool sorted, aclTensor *valuesOut, aclTensor *indicesOut,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTopk(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TOPK_H_ */
