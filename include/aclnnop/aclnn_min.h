/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_min.h: aclnnMin, the smallest element of a tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_MIN_H_
#define CANOPY_ACLNNOP_ACLNN_MIN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out (one element, self's dtype) = the smallest element of self (NaN propagates). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnMinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_MIN_H_ */
