/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_log1p.h: aclnnLog1p and aclnnInplaceLog1p.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LOG1P_H_
#define CANOPY_ACLNNOP_ACLNN_LOG1P_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLog1pGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLog1p(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLog1pGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLog1p(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LOG1P_H_ */
