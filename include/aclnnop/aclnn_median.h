/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_median.h: aclnnMedian, aclnnMedianDim, aclnnNanMedian and aclnnNanMedianDim, the lower median.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MEDIAN_H_
#define CANOPY_ACLNNOP_ACLNN_MEDIAN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* valuesOut (one element, self's dtype) = the element at position (n - 1) / 2 of self's n elements in ascending
 * order; NaN when self holds one. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor *self, aclTensor *valuesOut,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMedian(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

/* The median along dim (valuesOut) and its index (indicesOut, INT64); keepDim keeps dim with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMedianDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim,
                                                               aclTensor *valuesOut, aclTensor *indicesOut,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMedianDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

/* As aclnnMedian, NaN elements left out. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnNanMedianGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNanMedian(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

/* As aclnnMedianDim, NaN elements left out. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnNanMedianDimGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepDim,
                                                                  aclTensor *valuesOut, aclTensor *indicesOut,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnNanMedianDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MEDIAN_H_ */
