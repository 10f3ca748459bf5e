/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_reduce_nansum.h: aclnnReduceNansum, the sum over a list of dimensions with NaN taken as 0.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_REDUCE_NANSUM_H_
#define CANOPY_ACLNNOP_ACLNN_REDUCE_NANSUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the sum of self over dim with NaN counted as 0 (negative dims count from the end; an empty
 * list is every dimension), in dtype (which out must hold); keepDim keeps the reduced dimensions with
 * extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceNansumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                                  bool keepDim, aclDataType dtype, aclTensor *out,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReduceNansum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_REDUCE_NANSUM_H_ */
