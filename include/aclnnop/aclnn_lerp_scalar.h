/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_lerp_scalar.h: aclnnLerps and aclnnInplaceLerps.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_LERP_SCALAR_H_
#define CANOPY_ACLNNOP_ACLNN_LERP_SCALAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLerpsGetWorkspaceSize(const aclTensor *self, const aclTensor *end,
                                                           const aclScalar *weight, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnLerps(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLerpsGetWorkspaceSize(aclTensor *selfRef, const aclTensor *end,
                                                                  const aclScalar *weight, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLerps(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_LERP_SCALAR_H_ */
