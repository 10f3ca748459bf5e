/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_ceil.h: aclnnCeil and aclnnInplaceCeil.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CEIL_H_
#define CANOPY_ACLNNOP_ACLNN_CEIL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCeilGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnCeil(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCeilGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCeil(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CEIL_H_ */
