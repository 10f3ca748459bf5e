/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_argmax.h: aclnnArgMax, the index of the largest element along a dim.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ARGMAX_H_
#define CANOPY_ACLNNOP_ACLNN_ARGMAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (int32 or int64) = the index of the first largest element of self along dim (NaN counts as largest). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnArgMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ARGMAX_H_ */
