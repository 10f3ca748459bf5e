/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dequant_bias.h: aclnnDequantBias
 * (an INT32 matmul result back to FLOAT16 / BFLOAT16 with scales and bias).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEQUANT_BIAS_H_
#define CANOPY_ACLNNOP_ACLNN_DEQUANT_BIAS_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantBiasGetWorkspaceSize(const aclTensor *x, const aclTensor *weightScale,
                                                                 const aclTensor *activateScaleOptional,
                                                                 const aclTensor *biasOptional, int64_t outputDtype,
                                                                 const aclTensor *out, uint64_t *workspaceSize,
                                                                 aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantBias(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEQUANT_BIAS_H_ */
