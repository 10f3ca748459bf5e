/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_cumsum.h: aclnnCumsum and aclnnCumsumV2, cumulative sums along a dim.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CUMSUM_H_
#define CANOPY_ACLNNOP_ACLNN_CUMSUM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the running sum of self along dim, computed in dtype (which out must have). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclDataType dtype,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

/* The same in out's dtype; exclusive leaves each element out of its own sum, reverse sums from the end. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor *self, int64_t dim, bool exclusive,
                                                              bool reverse, aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCumsumV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CUMSUM_H_ */
