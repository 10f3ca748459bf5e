/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_amax.h: aclnnAmax, the max over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AMAX_H_
#define CANOPY_ACLNNOP_ACLNN_AMAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the max of self over dim (negative dims count from the end; an empty list is every
 * dimension; NaN propagates); keepDim keeps the reduced dimensions with extent 1. out has self's dtype. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                                          aclTensor *out, uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AMAX_H_ */
