/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_deformable_conv2d.h: aclnnDeformableConv2d (modulated deformable convolution,
 * DCNv2: the input read bilinearly at kernel taps moved by learnt offsets, times a mask, then a
 * grouped convolution). Atlas A2: x, weight, offset, biasOptional, out, deformOutOptional FLOAT,
 * FLOAT16, BFLOAT16 (one dtype).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEFORMABLE_CONV2D_H_
#define CANOPY_ACLNNOP_ACLNN_DEFORMABLE_CONV2D_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDeformableConv2dGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *offset, const aclTensor *biasOptional,
    const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation,
    int64_t groups, int64_t deformableGroups, bool modulated, aclTensor *out, aclTensor *deformOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDeformableConv2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEFORMABLE_CONV2D_H_ */
