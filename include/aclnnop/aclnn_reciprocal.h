/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_reciprocal.h: aclnnReciprocal and aclnnInplaceReciprocal.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_RECIPROCAL_H_
#define CANOPY_ACLNNOP_ACLNN_RECIPROCAL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor *self, aclTensor *out,
                                                                uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnReciprocal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReciprocalGetWorkspaceSize(const aclTensor *selfRef,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReciprocal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_RECIPROCAL_H_ */
