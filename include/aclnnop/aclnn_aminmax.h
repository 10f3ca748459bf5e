/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_aminmax.h: aclnnAminmax, the smallest and the largest element over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AMINMAX_H_
#define CANOPY_ACLNNOP_ACLNN_AMINMAX_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* minOut / maxOut (self's dtype) = the smallest / largest element of self over dim (empty: every dim), keepDim
 * keeping the reduced dims with extent 1; NaN propagates. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                             bool keepDim, aclTensor *minOut, aclTensor *maxOut,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAminmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AMINMAX_H_ */
