/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_add_v3.h: aclnnAddV3 and aclnnInplaceAddV3 (a scalar plus alpha times a tensor).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADD_V3_H_
#define CANOPY_ACLNNOP_ACLNN_ADD_V3_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddV3GetWorkspaceSize(const aclScalar *self, const aclTensor *other,
                                                           const aclScalar *alpha, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAddV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddV3GetWorkspaceSize(const aclScalar *selfRef, const aclTensor *other,
                                                                  const aclScalar *alpha, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddV3(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADD_V3_H_ */
