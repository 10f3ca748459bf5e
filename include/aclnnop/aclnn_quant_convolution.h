/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quant_convolution.h: aclnnQuantConvolution, a per-channel
 * quantised 3-D convolution (INT8 input and weight) dequantised into a
 * BFLOAT16 or FLOAT16 output, as Atlas A2 runs it, and
 * aclnnQuantConvolutionWeightNz, the same with the weight in FRACTAL_Z_3D
 * storage (as aclnnNpuFormatCast prepares it).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANT_CONVOLUTION_H_
#define CANOPY_ACLNNOP_ACLNN_QUANT_CONVOLUTION_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantConvolutionGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *bias, const aclTensor *scale,
    const aclTensor *offset, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation,
    bool transposed, const aclIntArray *outputPadding, int64_t groups, int32_t offsetx, const char *roundMode,
    aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantConvolution(void *workspace, const uint64_t workspaceSize,
                                                      aclOpExecutor *executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantConvolutionWeightNzGetWorkspaceSize(
    const aclTensor *input, const aclTensor *weight, const aclTensor *bias, const aclTensor *scale,
    const aclTensor *offset, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation,
    bool transposed, const aclIntArray *outputPadding, int64_t groups, int32_t offsetx, const char *roundMode,
    aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantConvolutionWeightNz(void *workspace, const uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANT_CONVOLUTION_H_ */
