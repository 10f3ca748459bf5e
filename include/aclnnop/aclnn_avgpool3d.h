/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_avgpool3d.h: 3-D average pooling.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AVGPOOL3D_H_
#define CANOPY_ACLNNOP_ACLNN_AVGPOOL3D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                               const aclIntArray *stride, const aclIntArray *padding,
                                                               bool ceilMode, bool countIncludePad,
                                                               int64_t divisorOverride, aclTensor *out,
                                                               uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAvgPool3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AVGPOOL3D_H_ */
