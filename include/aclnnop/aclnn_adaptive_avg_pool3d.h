/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_adaptive_avg_pool3d.h: 3-D adaptive average pooling to a given output size.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H_
#define CANOPY_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAdaptiveAvgPool3dGetWorkspaceSize(const aclTensor *self,
                                                                       const aclIntArray *outputSize, aclTensor *out,
                                                                       uint64_t *workspaceSize,
                                                                       aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAdaptiveAvgPool3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL3D_H_ */
