/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_angle_v2.h: the angle of each element of x in radians: atan2(imag, real) for complex x, 0 or pi
 * by sign for real x (torch.angle).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ANGLE_V2_H_
#define CANOPY_ACLNNOP_ACLNN_ANGLE_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAngleV2GetWorkspaceSize(const aclTensor *x, const aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAngleV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ANGLE_V2_H_ */
