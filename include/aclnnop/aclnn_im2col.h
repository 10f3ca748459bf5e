/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_im2col.h: the sliding windows of an image batch unfolded into columns (PyTorch's unfold).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_IM2COL_H_
#define CANOPY_ACLNNOP_ACLNN_IM2COL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
                                                            const aclIntArray *dilation, const aclIntArray *padding,
                                                            const aclIntArray *stride, const aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnIm2col(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_IM2COL_H_ */
