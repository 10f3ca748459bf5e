/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_sort.h: aclnnSort, the elements sorted along one dimension and their indices.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_SORT_H_
#define CANOPY_ACLNNOP_ACLNN_SORT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* valuesOut = self sorted along dim (ascending, or descending), indicesOut (INT64) = where each came
 * from; stable keeps equal elements in their order (Canopy always does); NaN sorts as largest. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable, int64_t dim,
                                                          bool descending, aclTensor *valuesOut, aclTensor *indicesOut,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnSort(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_SORT_H_ */
