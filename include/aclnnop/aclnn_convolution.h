/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_convolution.h: convolution of 1-D, 2-D and 3-D inputs, plain or transposed, with groups, stride,
 * padding and dilation; ConvTbc, a 1-D convolution of [time, batch, channel] tensors. Every operator has two phases:
 * aclnnXxxGetWorkspaceSize validates the arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_CONVOLUTION_H_
#define CANOPY_ACLNNOP_ACLNN_CONVOLUTION_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolutionGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *bias, const aclIntArray *stride,
    const aclIntArray *padding, const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding,
    const int64_t groups, aclTensor *output, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolution(void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnConvDepthwise2dGetWorkspaceSize(
    const aclTensor *self, const aclTensor *weight, const aclIntArray *kernelSize, const aclTensor *bias,
    const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, aclTensor *out,
    int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvDepthwise2d(void *workspace, const uint64_t workspaceSize,
                                                     aclOpExecutor *executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnConvTbcGetWorkspaceSize(const aclTensor *self, const aclTensor *weight,
                                                             const aclTensor *bias, const int64_t pad, aclTensor *out,
                                                             int8_t cubeMathType, uint64_t *workspaceSize,
                                                             aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvTbc(void *workspace, const uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_CONVOLUTION_H_ */
