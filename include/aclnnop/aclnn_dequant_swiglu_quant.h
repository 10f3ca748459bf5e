/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_dequant_swiglu_quant.h: aclnnDequantSwigluQuant (an INT32 matmul result dequantised,
 * SwiGlu of its last dim, quantised to INT8 statically or dynamically per row; MoE groups by
 * groupIndexOptional). Atlas A2: x FLOAT16, BFLOAT16, INT32; weightScaleOptional,
 * activationScaleOptional, quantScaleOptional, quantOffsetOptional FLOAT; biasOptional FLOAT,
 * FLOAT16, BFLOAT16, INT32; groupIndexOptional INT64; yOut INT8; scaleOut FLOAT.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantSwigluQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weightScaleOptional, const aclTensor *activationScaleOptional,
    const aclTensor *biasOptional, const aclTensor *quantScaleOptional, const aclTensor *quantOffsetOptional,
    const aclTensor *groupIndexOptional, bool activateLeft, char *quantModeOptional, const aclTensor *yOut,
    const aclTensor *scaleOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnDequantSwigluQuant(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_DEQUANT_SWIGLU_QUANT_H_ */
