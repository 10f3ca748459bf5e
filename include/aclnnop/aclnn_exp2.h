/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_exp2.h: aclnnExp2 and aclnnInplaceExp2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_EXP2_H_
#define CANOPY_ACLNNOP_ACLNN_EXP2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnExp2GetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnExp2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceExp2GetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceExp2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_EXP2_H_ */
