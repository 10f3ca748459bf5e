/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_expm1.h: aclnnExpm1 and aclnnInplaceExpm1.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_EXPM1_H_
#define CANOPY_ACLNNOP_ACLNN_EXPM1_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnExpm1GetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnExpm1(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceExpm1GetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceExpm1(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_EXPM1_H_ */
