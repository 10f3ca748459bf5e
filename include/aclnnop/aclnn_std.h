/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_std.h: aclnnStd, the standard deviation over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_STD_H_
#define CANOPY_ACLNNOP_ACLNN_STD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = the square root of the variance of self over dim divided by max(N - correction, 0) (dim null
 * or empty: every dimension); keepdim keeps the reduced dimensions with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                         const int64_t correction, bool keepdim, aclTensor *out,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnStd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_STD_H_ */
