/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_polar.h: out = input * cos(angle) + input * sin(angle) * j, the complex number of magnitude
 * input and phase angle (torch.polar).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_POLAR_H_
#define CANOPY_ACLNNOP_ACLNN_POLAR_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPolarGetWorkspaceSize(const aclTensor *input, const aclTensor *angle,
                                                           aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPolar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_POLAR_H_ */
