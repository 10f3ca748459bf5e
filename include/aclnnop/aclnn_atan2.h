/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_atan2.h: aclnnAtan2 and aclnnInplaceAtan2.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ATAN2_H_
#define CANOPY_ACLNNOP_ACLNN_ATAN2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAtan2GetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                           aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAtan2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAtan2GetWorkspaceSize(aclTensor *selfRef, aclTensor *other,
                                                                  uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAtan2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ATAN2_H_ */
