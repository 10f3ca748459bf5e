/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_trunc.h: aclnnTrunc and aclnnInplaceTrunc.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TRUNC_H_
#define CANOPY_ACLNNOP_ACLNN_TRUNC_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnTruncGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTrunc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceTruncGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceTrunc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TRUNC_H_ */
