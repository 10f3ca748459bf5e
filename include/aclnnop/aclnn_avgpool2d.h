/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_avgpool2d.h: 2-D average pooling over NCHW / NCL inputs (ceil mode, count-include-pad, divisor
 * override). Every operator has two phases: aclnnXxxGetWorkspaceSize validates the arguments and builds an executor,
 * aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_AVGPOOL2D_H_
#define CANOPY_ACLNNOP_ACLNN_AVGPOOL2D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                               const aclIntArray *strides, const aclIntArray *paddings,
                                                               const bool ceilMode, const bool countIncludePad,
                                                               const int64_t divisorOverride, const int8_t cubeMathType,
                                                               aclTensor *out, uint64_t *workspaceSize,
                                                               aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_AVGPOOL2D_H_ */
