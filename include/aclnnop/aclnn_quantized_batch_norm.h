/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_quantized_batch_norm.h: batch normalisation in inference of a quantised NCHW input: dequantised,
 * normalised with mean, var, weight and bias, and quantised again (torch.quantized_batch_norm).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_QUANTIZED_BATCH_NORM_H_
#define CANOPY_ACLNNOP_ACLNN_QUANTIZED_BATCH_NORM_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantizedBatchNormGetWorkspaceSize(
    const aclTensor *input, const aclTensor *mean, const aclTensor *var, const aclScalar *inputScale,
    const aclScalar *inputZeroPoint, const aclScalar *outputScale, const aclScalar *outputZeroPoint, aclTensor *weight,
    aclTensor *bias, float epsilon, aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnQuantizedBatchNorm(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_QUANTIZED_BATCH_NORM_H_ */
