/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_var_mean.h: aclnnVarMean, the variance and the mean over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_VAR_MEAN_H_
#define CANOPY_ACLNNOP_ACLNN_VAR_MEAN_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* varOut = the variance of self over dim divided by max(N - correction, 0) and meanOut = the mean (dim
 * null or empty: every dimension); keepdim keeps the reduced dimensions with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                             int64_t correction, bool keepdim, aclTensor *varOut,
                                                             aclTensor *meanOut, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnVarMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_VAR_MEAN_H_ */
