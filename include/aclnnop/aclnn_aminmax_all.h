/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_aminmax_all.h: aclnnAminmaxAll, the smallest and the largest element of a tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AMINMAX_ALL_H_
#define CANOPY_ACLNNOP_ACLNN_AMINMAX_ALL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* minOut / maxOut (self's dtype, one element) = the smallest / largest element of self; NaN propagates. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnAminmaxAllGetWorkspaceSize(const aclTensor *self, aclTensor *minOut,
                                                                aclTensor *maxOut, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAminmaxAll(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AMINMAX_ALL_H_ */
