/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_logsumexp.h: aclnnLogSumExp, log(sum(exp(x))) over a list of dimensions.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LOGSUMEXP_H_
#define CANOPY_ACLNNOP_ACLNN_LOGSUMEXP_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = log(sum(exp(self))) over dim, the maximum subtracted first (negative dims count from the end;
 * an empty list is every dimension); keepDim keeps the reduced dimensions with extent 1. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim,
                                                               bool keepDim, aclTensor *out, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSumExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LOGSUMEXP_H_ */
