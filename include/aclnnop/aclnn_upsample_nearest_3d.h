/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_upsample_nearest_3d.h: nearest-neighbour upsampling of D, H and W of a 5-D tensor.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_H_
#define CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleNearest3dGetWorkspaceSize(const aclTensor *self,
                                                                       const aclIntArray *outputSize, double scalesD,
                                                                       double scalesH, double scalesW, aclTensor *out,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnUpsampleNearest3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_UPSAMPLE_NEAREST_3D_H_ */
