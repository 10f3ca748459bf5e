/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_argsort.h: aclnnArgsort, the indices that sort a tensor along a dim.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ARGSORT_H_
#define CANOPY_ACLNNOP_ACLNN_ARGSORT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (int64) = the indices that sort self along dim, ascending or descending; stable (equal elements keep
 * their order), NaN sorting as the largest value. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnArgsortGetWorkspaceSize(const aclTensor *self, int64_t dim, bool descending,
                                                             aclTensor *out, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnArgsort(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ARGSORT_H_ */
